// The book's 4 x 4 example (fig. 5.7 .. 5.8: M, N and P 4 x 4, TILE_WIDTH 2, four blocks of
// 2 x 2 threads), run on the emulator and finished as the app finishes it: the fixture of the
// panels' view tests (panel_views_test, run_views_test).
#pragma once
#include <gtest/gtest.h>

#include <memory>

#include "core/analysis/analysis.h"
#include "core/finished/finished_run.h"
#include "core/run/backend.h"
#include "test_support.h"
#include "ui/model/loaded_run.h"
#include "ui/theme.h"

namespace tilescope::ui {

struct BookExample {
  std::shared_ptr<LoadedRun> run;
  std::shared_ptr<BlockTimeline> block;  // block (0,0)
  Theme theme = makeTheme(Palette::OkabeIto, false);

  // The book's launch, or another one of the same kind (a gallery bug, a larger block).
  explicit BookExample(const LaunchConfig& config = testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, testing::freshSeed())) {
    auto emulator = makeEmulatorBackend();
    auto traced = executeRun(*emulator, config, true);
    EXPECT_TRUE(traced.ok()) << traced.error().message;
    run = std::make_shared<LoadedRun>();
    finishInto(*run, std::move(*traced));
    block = std::make_shared<BlockTimeline>(BlockTimeline::build(run->timeline, 0, 0));
  }
  // The first step of `kind` in phase `phase`, every thread through it (threads = 4).
  Cursor stepOf(int phase, StepKind kind) const {
    const Timeline& t = run->timeline;
    for (int s = 0; s < t.steps(); ++s)
      if (t.step(s).phase == phase && t.step(s).kind == kind) return {s, t.threadsPerBlock()};
    ADD_FAILURE() << "no such step";
    return {};
  }
};

}  // namespace tilescope::ui
