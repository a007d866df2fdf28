// The panels' views, each rebuilt only when what it is built from changes (issue 25): the run
// on screen, the selected block, the cursor, the theme and the panel's own options. A panel asks
// for its view every frame and gets the one built at the last cursor move; it then only lays
// it out and draws it (as Tracy's views draw prepared data). Every slot counts its builds, so a
// test can hold that a view is built once per cursor move, not once per frame.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"
#include "ui/model/banks_view.h"
#include "ui/model/cell_tips.h"
#include "ui/model/controls_view.h"
#include "ui/model/counters_view.h"
#include "ui/model/hazards_view.h"
#include "ui/model/lesson_view.h"
#include "ui/model/occupancy_view.h"
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

// One panel's view and the key it was built from (what it depends on: ViewInputs and its
// options for a view of the cursor, less for a view of the run or of the step's phase). The view
// lives in the slot and is rebuilt in place: its vectors keep their storage from one build to
// the next (builders reset a view with resetKeeping, thread_story.h), so a cursor move while
// playing allocates next to nothing.
template <class View, class Key>
struct ViewSlot {
  std::optional<Key> key;
  View view{};
  int builds = 0;  // how many times it was built (the cache test reads it)

  // `build(View&)` fills the view in place when `k` differs from the key it was built from.
  template <class Build>
  const View& get(const Key& k, Build&& build) {
    if (!key || !(*key == k)) {
      build(view);
      key = k;
      ++builds;
    }
    return view;
  }
};

// The key of a view of the cursor: ViewInputs and the view's own options.
template <class Options>
struct CursorKey {
  ViewInputs inputs;
  Options options{};
  bool operator==(const CursorKey&) const = default;
};

// A shared object by identity, weakly (as ViewInputs holds the run and the block).
template <class T>
struct Identity {
  std::weak_ptr<const T> of;
  bool operator==(const Identity& o) const { return !of.owner_before(o.of) && !o.of.owner_before(of); }
};

// The keys of the views that do not follow every step: what each one is built from, no more.
struct CountersKey {  // the run and the cursor (not the block: all blocks in lockstep; no colours)
  Identity<LoadedRun> run;
  Cursor cursor;
  CountersOptions options;
  bool operator==(const CountersKey&) const = default;
};
struct RunFactsKey {  // the run and its analysis: facts of the whole run
  Identity<LoadedRun> run;
  Identity<AnalysisReport> analysis;
  bool operator==(const RunFactsKey&) const = default;
};
struct OccupancyKey {
  RunFactsKey facts;
  OccupancyOptions options;
  bool operator==(const OccupancyKey&) const = default;
};
struct LessonKey {
  RunFactsKey facts;
  const LessonPage* page = nullptr;
  bool operator==(const LessonKey&) const = default;
};
struct ControlsKey {  // the run and the step's phase: not rebuilt per step
  Identity<LoadedRun> run;
  int phase = 0;
  bool operator==(const ControlsKey&) const = default;
};
struct BlockKey {  // the run and the selected block: what no cursor move changes
  Identity<LoadedRun> run;
  Identity<BlockTimeline> block;
  bool operator==(const BlockKey&) const = default;
};
struct LifeKey {
  BlockKey block;
  int thread = -1;
  bool operator==(const LifeKey&) const = default;
};
struct TipKey {  // one hovered cell of a grid ("M", "N", "P", "Mds", "Nds") at the cursor
  ViewInputs inputs;
  std::string grid;
  int row = 0, col = 0;
  bool operator==(const TipKey&) const = default;
};

// The options of a view that has none beyond ViewInputs.
struct NoOptions {
  bool operator==(const NoOptions&) const = default;
};

// Every panel's view that has one: the frame loop's AppState keeps it (mutable: a cache of what
// the state already says, filled as the panels ask).
struct ViewCache {
  ViewSlot<MatricesView, CursorKey<MatricesOptions>> matrices;
  ViewSlot<ThreadBlockView, CursorKey<NoOptions>> threadBlock;
  ViewSlot<SharedView, CursorKey<SharedViewOptions>> shared;
  ViewSlot<ThreadLifeView, CursorKey<ThreadLifeOptions>> threadLife;
  ViewSlot<SourceView, CursorKey<NoOptions>> source;
  ViewSlot<BanksView, CursorKey<BanksOptions>> banks;
  ViewSlot<CoalescingView, CursorKey<CoalescingOptions>> coalescing;
  ViewSlot<CopyEngineView, CursorKey<NoOptions>> copyEngine;
  ViewSlot<TimelineView, CursorKey<TimelineViewOptions>> timeline;
  ViewSlot<CountersView, CountersKey> counters;
  ViewSlot<HazardsView, RunFactsKey> hazards;
  ViewSlot<BugGalleryView, RunFactsKey> bugGallery;
  ViewSlot<OccupancyView, OccupancyKey> occupancy;
  ViewSlot<LessonView, LessonKey> lesson;
  ViewSlot<ControlsView, ControlsKey> controls;
  ViewSlot<CellTip, TipKey> tip;  // the one hovered cell's tooltip
  // What the views of the cursor read of the selected block, built once per run and block (and
  // followed thread), not once per cursor move: the ring's schedule, the followed thread's life.
  ViewSlot<CopySchedule, BlockKey> copySchedule;
  ViewSlot<ThreadLife, LifeKey> threadLifeFacts;
};

// What the views of `state`'s shown run are built from (run and block may be empty).
ViewInputs viewInputs(const AppState& state);

// The selected block's copy schedule (copy_ring.h) and linear thread `thread`'s life
// (thread_life.h), each built once per run and block; null before there is a block (or thread).
const CopySchedule* shownCopySchedule(const AppState& state);
const ThreadLife* shownThreadLife(const AppState& state, int thread);

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
const CountersView* shownCountersView(const AppState& state);
// The views of the run's facts, not of the cursor (built once per run, analysis or option).
const HazardsView* shownHazardsView(const AppState& state);  // null until the analysis arrives
const BugGalleryView* shownBugGalleryView(const AppState& state);
// At `registers` per thread (0: the kernel's own count); null until the analysis arrives.
const OccupancyView* shownOccupancyView(const AppState& state, int registers);
const LessonView* shownLessonView(const AppState& state);  // null without a lesson open
const ControlsView* shownControlsView(const AppState& state);
// The tooltip of the hovered cell `at` of `grid` ("M", "N", "P", "Mds", "Nds"), built once per
// cell and cursor while it is hovered.
const CellTip* shownCellTip(const AppState& state, std::string_view grid, CellIndex at);

}  // namespace tilescope::ui
