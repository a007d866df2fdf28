// The panels' views, rebuilt only when their inputs change (view_cache.h).
#include "ui/state/view_cache.h"

#include "ui/state/app_state.h"

namespace tilescope::ui {
namespace {

template <class T>
bool sameOwner(const std::weak_ptr<T>& a, const std::weak_ptr<T>& b) {
  return !a.owner_before(b) && !b.owner_before(a);
}

}  // namespace

bool ViewInputs::operator==(const ViewInputs& o) const {
  return sameOwner(run, o.run) && sameOwner(block, o.block) && cursor == o.cursor && palette == o.palette &&
         highContrast == o.highContrast;
}

ViewInputs viewInputs(const AppState& state) {
  ViewInputs in;
  in.run = state.shown.loaded;
  in.block = state.shown.block;
  if (const LoadedRun* run = shownRun(state)) in.cursor = run->timeline.normalize(state.shown.cursor);
  in.palette = state.theme.palette;
  in.highContrast = state.theme.highContrast;
  return in;
}

const CopySchedule* shownCopySchedule(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.copySchedule.get({{state.shown.loaded}, {state.shown.block}}, [&](CopySchedule& s) {
    s = CopySchedule::build(run->timeline, *block);
  });
}

const ThreadLife* shownThreadLife(const AppState& state, int thread) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block || thread < 0) return nullptr;
  return &state.views.threadLifeFacts.get({{{state.shown.loaded}, {state.shown.block}}, thread}, [&](ThreadLife& life) {
    life = threadLife(run->timeline, *block, thread);
  });
}

const MatricesView* shownMatricesView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const MatricesOptions options{loadShadingOn(state), followedThread(state)};
  return &state.views.matrices.get({viewInputs(state), options}, [&](MatricesView& v) {
    buildMatricesView(v, *run, *block, state.shown.cursor, state.theme, options, shownThreadLife(state, options.followed));
  });
}

const ThreadBlockView* shownThreadBlockView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.threadBlock.get(CursorKey<NoOptions>{viewInputs(state), {}}, [&](ThreadBlockView& v) {
    buildThreadBlockView(v, *run, *block, state.shown.cursor, state.theme);
  });
}

const SharedView* shownSharedView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const SharedViewOptions options{followedThread(state)};
  return &state.views.shared.get({viewInputs(state), options}, [&](auto& v) {
    v = sharedView(*run, *block, state.shown.cursor, state.theme, options);
  });
}

const ThreadLifeView* shownThreadLifeView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const ThreadLifeOptions options{followedThread(state)};
  return &state.views.threadLife.get({viewInputs(state), options}, [&](auto& v) {
    const ThreadLife* life = shownThreadLife(state, options.followed);
    if (life) {
      v = threadLifeView(*run, *block, state.shown.cursor, options, *life);
    } else {  // no thread followed: an empty view that says so
      v = ThreadLifeView{};
      v.thread = options.followed;
    }
  });
}

const SourceView* shownSourceView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.source.get(CursorKey<NoOptions>{viewInputs(state), {}}, [&](auto& v) {
    v = sourceView(*run, *block, state.shown.cursor);
  });
}

const BanksView* shownBanksView(const AppState& state, int warp) {
  const LoadedRun* run = shownRun(state);
  const std::shared_ptr<const AnalysisReport>& analysis = state.shown.analysis;
  if (!run || !analysis) return nullptr;
  const BanksOptions options{warp, analysis};
  return &state.views.banks.get({viewInputs(state), options}, [&](auto& v) {
    v = banksView(*run, *analysis, state.shown.bx, state.shown.by, state.shown.cursor, warp);
  });
}

const CoalescingView* shownCoalescingView(const AppState& state, int warp) {
  const LoadedRun* run = shownRun(state);
  const std::shared_ptr<const AnalysisReport>& analysis = state.shown.analysis;
  if (!run || !analysis) return nullptr;
  const CoalescingOptions options{warp, analysis};
  return &state.views.coalescing.get({viewInputs(state), options}, [&](auto& v) {
    v = coalescingView(*run, *analysis, state.shown.bx, state.shown.by, state.shown.cursor, warp);
  });
}

const CopyEngineView* shownCopyEngineView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.copyEngine.get(CursorKey<NoOptions>{viewInputs(state), {}}, [&](auto& v) {
    v = copyEngineView(*shownCopySchedule(state), *block, state.shown.cursor);
  });
}

const TimelineView* shownTimelineView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return nullptr;
  const TimelineViewOptions options{followedThread(state)};
  return &state.views.timeline.get({viewInputs(state), options}, [&](auto& v) {
    v = timelineView(*run, state.shown.block.get(), state.shown.cursor, state.theme, options, shownCopySchedule(state));
  });
}

const CountersView* shownCountersView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return nullptr;
  const CountersKey key{{state.shown.loaded}, run->timeline.normalize(state.shown.cursor), {state.lesson.presenter}};
  return &state.views.counters.get(key, [&](CountersView& v) {
    v = countersView(*run, state.shown.cursor, key.options);
  });
}

const HazardsView* shownHazardsView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const std::shared_ptr<const AnalysisReport>& analysis = state.shown.analysis;
  if (!run || !analysis) return nullptr;
  return &state.views.hazards.get({{state.shown.loaded}, {analysis}}, [&](HazardsView& v) {
    v = hazardsView(*run, *analysis);
  });
}

const BugGalleryView* shownBugGalleryView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return nullptr;
  return &state.views.bugGallery.get({{state.shown.loaded}, {}}, [&](BugGalleryView& v) {
    v = bugGalleryView(*run);
  });
}

const OccupancyView* shownOccupancyView(const AppState& state, int registers) {
  const LoadedRun* run = shownRun(state);
  const std::shared_ptr<const AnalysisReport>& analysis = state.shown.analysis;
  if (!run || !analysis) return nullptr;
  const DeviceProfile profile = analysisProfile(state.analysis).profile;
  // The kernel's own count and 0 are the same view.
  const OccupancyOptions options{profile.name, registers > 0 ? registers : analysis->resources.registersPerThread};
  return &state.views.occupancy.get({{{state.shown.loaded}, {analysis}}, options}, [&](OccupancyView& v) {
    v = occupancyView(*run, *analysis, profile, options);
  });
}

const LessonView* shownLessonView(const AppState& state) {
  const Lesson* lesson = state.lesson.lesson();
  if (!lesson) return nullptr;
  const LessonPage* page = &lesson->pages[std::size_t(state.lesson.page)];
  const LoadedRun* run = shownRun(state);
  const AnalysisReport* analysis = run ? state.shown.analysis.get() : nullptr;
  return &state.views.lesson.get({{{state.shown.loaded}, {state.shown.analysis}}, page},
                                 [&](LessonView& v) { v = lessonView(*page, analysis, run); });
}

const ControlsView* shownControlsView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return nullptr;
  const int phase = controlsPhase(*run, state.shown.cursor);
  return &state.views.controls.get({{state.shown.loaded}, phase}, [&](ControlsView& v) {
    v = controlsView(*run, phase);
  });
}

const CellTip* shownCellTip(const AppState& state, std::string_view grid, CellIndex at) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const bool shared = grid == "Mds" || grid == "Nds";
  const SharedView* sharedTiles = shared ? shownSharedView(state) : nullptr;
  if (shared && !sharedTiles) return nullptr;
  return &state.views.tip.get({viewInputs(state), std::string(grid), at.row, at.col}, [&](CellTip& tip) {
    tip = shared ? sharedTip(*run, *sharedTiles, grid == "Mds" ? 0 : 1, at)
                 : matricesTip(*run, *block, state.shown.cursor, grid[0], at);
  });
}

}  // namespace tilescope::ui
