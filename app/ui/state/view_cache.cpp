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

const MatricesView* shownMatricesView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const MatricesOptions options{loadShadingOn(state), followedThread(state)};
  return &state.views.matrices.get(viewInputs(state), options, [&] {
    return matricesView(*run, *block, state.shown.cursor, state.theme, options);
  });
}

const ThreadBlockView* shownThreadBlockView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.threadBlock.get(viewInputs(state), NoOptions{}, [&] {
    return threadBlockView(*run, *block, state.shown.cursor, state.theme);
  });
}

const SharedView* shownSharedView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const SharedViewOptions options{followedThread(state)};
  return &state.views.shared.get(viewInputs(state), options, [&] {
    return sharedView(*run, *block, state.shown.cursor, state.theme, options);
  });
}

const ThreadLifeView* shownThreadLifeView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  const ThreadLifeOptions options{followedThread(state)};
  return &state.views.threadLife.get(viewInputs(state), options, [&] {
    return threadLifeView(*run, *block, state.shown.cursor, options);
  });
}

const SourceView* shownSourceView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.source.get(viewInputs(state), NoOptions{}, [&] { return sourceView(*run, *block, state.shown.cursor); });
}

const BanksView* shownBanksView(const AppState& state, int warp) {
  const LoadedRun* run = shownRun(state);
  const std::shared_ptr<const AnalysisReport>& analysis = state.shown.analysis;
  if (!run || !analysis) return nullptr;
  const BanksOptions options{warp, analysis};
  return &state.views.banks.get(viewInputs(state), options, [&] {
    return banksView(*run, *analysis, state.shown.bx, state.shown.by, state.shown.cursor, warp);
  });
}

const CoalescingView* shownCoalescingView(const AppState& state, int warp) {
  const LoadedRun* run = shownRun(state);
  const std::shared_ptr<const AnalysisReport>& analysis = state.shown.analysis;
  if (!run || !analysis) return nullptr;
  const CoalescingOptions options{warp, analysis};
  return &state.views.coalescing.get(viewInputs(state), options, [&] {
    return coalescingView(*run, *analysis, state.shown.bx, state.shown.by, state.shown.cursor, warp);
  });
}

const CopyEngineView* shownCopyEngineView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  const BlockTimeline* block = state.shown.block.get();
  if (!run || !block) return nullptr;
  return &state.views.copyEngine.get(viewInputs(state), NoOptions{}, [&] {
    return copyEngineView(*run, *block, state.shown.cursor);
  });
}

const TimelineView* shownTimelineView(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return nullptr;
  const TimelineViewOptions options{followedThread(state)};
  return &state.views.timeline.get(viewInputs(state), options, [&] {
    return timelineView(*run, state.shown.block.get(), state.shown.cursor, state.theme, options);
  });
}

}  // namespace tilescope::ui
