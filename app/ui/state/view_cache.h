// The panels' views, each rebuilt only when what it is built from changes (issue 25): the run
// on screen, the selected block, the cursor, the theme and the panel's own options. A panel asks
// for its view every frame and gets the one built at the last cursor move; it then only lays
// it out and draws it (as Tracy's views draw prepared data). Every slot counts its builds, so a
// test can hold that a view is built once per cursor move, not once per frame.
#pragma once
#include <memory>
#include <optional>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"
#include "ui/model/banks_view.h"
#include "ui/model/coalescing_view.h"
#include "ui/model/copy_engine_view.h"
#include "ui/model/matrices_view.h"
#include "ui/model/shared_view.h"
#include "ui/model/source_view.h"
#include "ui/model/thread_block_view.h"
#include "ui/model/thread_life_view.h"
#include "ui/model/timeline_view.h"
#include "ui/theme.h"

namespace tilescope::ui {

struct AppState;

// What every view is built from. The run and the block by identity (weak: the cache keeps
// neither alive, and an owner is never mistaken for a later one at the same address).
struct ViewInputs {
  std::weak_ptr<const LoadedRun> run;
  std::weak_ptr<const BlockTimeline> block;
  Cursor cursor;  // normalized
  Palette palette = Palette::OkabeIto;
  bool highContrast = false;
  bool operator==(const ViewInputs& o) const;
};

// One panel's view and the inputs it was built from.
template <class View, class Options>
struct ViewSlot {
  std::optional<ViewInputs> inputs;
  Options options{};
  std::shared_ptr<const View> view;
  int builds = 0;  // how many times it was built (the cache test reads it)

  template <class Build>
  const View& get(const ViewInputs& in, const Options& opts, Build&& build) {
    if (!view || !inputs || !(*inputs == in) || !(options == opts)) {
      view = std::make_shared<const View>(build());
      inputs = in, options = opts;
      ++builds;
    }
    return *view;
  }
};

// The options of a view that has none beyond ViewInputs.
struct NoOptions {
  bool operator==(const NoOptions&) const = default;
};

// Every panel's view that has one: the frame loop's AppState keeps it (mutable: a cache of what
// the state already says, filled as the panels ask).
struct ViewCache {
  ViewSlot<MatricesView, MatricesOptions> matrices;
  ViewSlot<ThreadBlockView, NoOptions> threadBlock;
  ViewSlot<SharedView, SharedViewOptions> shared;
  ViewSlot<ThreadLifeView, ThreadLifeOptions> threadLife;
  ViewSlot<SourceView, NoOptions> source;
  ViewSlot<BanksView, BanksOptions> banks;
  ViewSlot<CoalescingView, CoalescingOptions> coalescing;
  ViewSlot<CopyEngineView, NoOptions> copyEngine;
  ViewSlot<TimelineView, TimelineViewOptions> timeline;
};

// What the views of `state`'s shown run are built from (run and block may be empty).
ViewInputs viewInputs(const AppState& state);

// The views of the run on screen, or null before there is one (each built on first use, then
// again only when its inputs change).
const MatricesView* shownMatricesView(const AppState& state);
const ThreadBlockView* shownThreadBlockView(const AppState& state);
const SharedView* shownSharedView(const AppState& state);
const ThreadLifeView* shownThreadLifeView(const AppState& state);
const SourceView* shownSourceView(const AppState& state);
const CopyEngineView* shownCopyEngineView(const AppState& state);
// The Bank conflicts view of `warp` (the panel's slider or the followed thread's), once analysed.
const BanksView* shownBanksView(const AppState& state, int warp);
const CoalescingView* shownCoalescingView(const AppState& state, int warp);  // likewise
const TimelineView* shownTimelineView(const AppState& state);

}  // namespace tilescope::ui
