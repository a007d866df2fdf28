// The panels' views are built once per cursor move, not once per frame (state/view_cache.h):
// a panel that asks for its view every frame gets the one already built until the cursor, the
// run, the block or the view's options change.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "core/finished/finished_run.h"
#include "core/run/backend.h"
#include "core/run/device_profile.h"
#include "test_support.h"
#include "ui/state/app_state.h"

namespace tilescope::ui {
namespace {

std::shared_ptr<const LoadedRun> bookRun() {
  auto emulator = makeEmulatorBackend();
  auto traced = executeRun(*emulator, testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, testing::freshSeed()), true);
  EXPECT_TRUE(traced.ok()) << traced.error().message;
  auto run = std::make_shared<LoadedRun>();
  finishInto(*run, std::move(*traced));
  return run;
}

void show(AppState& state, std::shared_ptr<const LoadedRun> run) {
  state.shown.block = std::make_shared<const BlockTimeline>(BlockTimeline::build(run->timeline, 0, 0));
  state.shown.loaded = std::move(run);
}

// Ten frames at one cursor: what the frame loop does while nothing moves.
void frames(const AppState& state) {
  for (int i = 0; i < 10; ++i) {
    ASSERT_NE(shownMatricesView(state), nullptr);
    ASSERT_NE(shownThreadBlockView(state), nullptr);
    ASSERT_NE(shownTimelineView(state), nullptr);
  }
}

TEST(ViewCache, NoRunNoViews) {
  AppState state;
  EXPECT_EQ(shownMatricesView(state), nullptr);
  EXPECT_EQ(shownTimelineView(state), nullptr);
  EXPECT_EQ(state.views.matrices.builds, 0);
}

TEST(ViewCache, EachViewIsBuiltOncePerCursorMoveNotPerFrame) {
  AppState state;
  show(state, bookRun());
  frames(state);
  EXPECT_EQ(state.views.matrices.builds, 1);
  EXPECT_EQ(state.views.threadBlock.builds, 1);
  EXPECT_EQ(state.views.timeline.builds, 1);
  for (int step = 1; step <= 3; ++step) {  // three cursor moves, ten frames each
    state.shown.cursor = {step, shownRun(state)->timeline.threadsPerBlock()};
    frames(state);
  }
  EXPECT_EQ(state.views.matrices.builds, 4);
  EXPECT_EQ(state.views.threadBlock.builds, 4);
  EXPECT_EQ(state.views.timeline.builds, 4);
}

TEST(ViewCache, ANewRunABlockOrAnOptionRebuildsOnlyWhatDependsOnIt) {
  AppState state;
  show(state, bookRun());
  frames(state);
  // Following a thread changes the Matrices and Timeline views' options, not the Thread block's.
  state.view.followX = 1, state.view.followY = 0;
  frames(state);
  EXPECT_EQ(state.views.matrices.builds, 2);
  EXPECT_EQ(state.views.timeline.builds, 2);
  EXPECT_EQ(state.views.threadBlock.builds, 1);
  // Another block of the same run: every view.
  state.shown.block = std::make_shared<const BlockTimeline>(BlockTimeline::build(shownRun(state)->timeline, 1, 0));
  frames(state);
  EXPECT_EQ(state.views.threadBlock.builds, 2);
  EXPECT_EQ(shownMatricesView(state)->bx, 1);
  // A new run (the same launch again): every view, though nothing else changed.
  show(state, bookRun());
  frames(state);
  EXPECT_EQ(state.views.matrices.builds, 4);
  EXPECT_EQ(state.views.threadBlock.builds, 3);
  EXPECT_EQ(state.views.timeline.builds, 4);
  // The other palette recolours every view.
  state.theme = makeTheme(Palette::Vivid, false);
  frames(state);
  EXPECT_EQ(state.views.threadBlock.builds, 4);
}

TEST(ViewCache, TheAnalysisViewsWaitForTheAnalysisAndFollowTheWarp) {
  AppState state;
  show(state, bookRun());
  EXPECT_EQ(shownBanksView(state, 0), nullptr) << "the analysis comes after the run";
  EXPECT_EQ(shownCoalescingView(state, 0), nullptr);
  auto analyse = [&] {
    state.shown.analysis = std::make_shared<const AnalysisReport>(analyzeRun(*shownRun(state), *profileByName("h100")));
  };
  analyse();
  for (int i = 0; i < 10; ++i) ASSERT_NE(shownBanksView(state, 0), nullptr);
  EXPECT_EQ(state.views.banks.builds, 1);
  for (int i = 0; i < 10; ++i) ASSERT_NE(shownCoalescingView(state, 1), nullptr);  // another warp
  EXPECT_EQ(state.views.coalescing.builds, 1);
  shownBanksView(state, 1);
  EXPECT_EQ(state.views.banks.builds, 2);
  analyse();  // the same run analysed again (another profile): a new report
  shownBanksView(state, 1);
  EXPECT_EQ(state.views.banks.builds, 3);
}

// Playing moves the cursor every step: a view of the run's facts (Hazards, Bug gallery) is built
// once, a view of the phase (Controls) once per phase, a view of the cursor (Counters) once per
// step; and a rebuilt view keeps its cells' storage instead of allocating it again.
TEST(ViewCache, ViewsOfTheRunOrThePhaseAreNotRebuiltPerStep) {
  AppState state;
  show(state, bookRun());
  state.shown.analysis = std::make_shared<const AnalysisReport>(analyzeRun(*shownRun(state), *profileByName("h100")));
  const Timeline& t = shownRun(state)->timeline;
  const auto* cells = shownMatricesView(state)->pCells.data();
  int phases = 0, lastPhase = -1;
  for (int step = 0; step < t.steps(); ++step) {
    state.shown.cursor = t.stepEnd(step);
    for (int frame = 0; frame < 3; ++frame) {
      ASSERT_NE(shownHazardsView(state), nullptr);
      ASSERT_NE(shownBugGalleryView(state), nullptr);
      ASSERT_NE(shownControlsView(state), nullptr);
      ASSERT_NE(shownCountersView(state), nullptr);
      ASSERT_NE(shownMatricesView(state), nullptr);
    }
    const int phase = std::max(0, t.step(step).phase);
    if (phase != lastPhase) ++phases, lastPhase = phase;
  }
  EXPECT_EQ(phases, 2);  // the book's two phases
  EXPECT_EQ(state.views.hazards.builds, 1);
  EXPECT_EQ(state.views.bugGallery.builds, 1);
  EXPECT_EQ(state.views.controls.builds, phases);
  EXPECT_EQ(state.views.counters.builds, t.steps());
  EXPECT_EQ(shownMatricesView(state)->pCells.data(), cells) << "rebuilt in place, in the same storage";
}

// What the views of the cursor read of the block (rung 8's copy schedule, the followed thread's
// life) is built once per run and block, not once per cursor move: the Copy engine, Timeline,
// Thread life and Matrices views are rebuilt at every step, from the same schedule and life.
TEST(ViewCache, TheRingsScheduleAndAThreadsLifeAreBuiltOncePerBlock) {
  AppState state;
  LaunchConfig c = testing::launchConfig(KernelId::TmaPipeline, {64, 64, 64}, 0, testing::freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};  // lesson 18's teaching tiling
  auto emulator = makeEmulatorBackend();
  auto traced = executeRun(*emulator, c, true);
  ASSERT_TRUE(traced.ok()) << traced.error().message;
  auto run = std::make_shared<LoadedRun>();
  finishInto(*run, std::move(*traced));
  show(state, run);
  state.view.followX = 0, state.view.followY = 0;
  const Timeline& t = run->timeline;
  for (int step = 0; step < t.steps(); ++step) {
    state.shown.cursor = t.stepEnd(step);
    for (int frame = 0; frame < 3; ++frame) {
      ASSERT_NE(shownCopyEngineView(state), nullptr);
      ASSERT_TRUE(shownCopyEngineView(state)->applies);
      ASSERT_NE(shownTimelineView(state), nullptr);
      ASSERT_NE(shownThreadLifeView(state), nullptr);
      ASSERT_NE(shownMatricesView(state), nullptr);
    }
  }
  EXPECT_EQ(state.views.copyEngine.builds, t.steps());
  EXPECT_EQ(state.views.threadLife.builds, t.steps());
  EXPECT_EQ(state.views.copySchedule.builds, 1);
  EXPECT_EQ(state.views.threadLifeFacts.builds, 1);
  // Another thread followed: its life, once; the schedule stays.
  state.view.followX = 1;
  ASSERT_NE(shownThreadLifeView(state), nullptr);
  ASSERT_NE(shownCopyEngineView(state), nullptr);
  EXPECT_EQ(state.views.threadLifeFacts.builds, 2);
  EXPECT_EQ(state.views.copySchedule.builds, 1);
}

// A tooltip is built once per hovered cell and cursor, not once per frame.
TEST(ViewCache, ATooltipIsBuiltOncePerHoveredCell) {
  AppState state;
  show(state, bookRun());
  for (int frame = 0; frame < 10; ++frame) ASSERT_NE(shownCellTip(state, "P", {0, 0}), nullptr);
  EXPECT_EQ(state.views.tip.builds, 1);
  EXPECT_NE(shownCellTip(state, "M", {0, 0})->text.find("M(row 0, col 0)"), std::string::npos);
  EXPECT_EQ(state.views.tip.builds, 2);
}

}  // namespace
}  // namespace tilescope::ui
