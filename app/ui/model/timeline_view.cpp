// The Timeline panel's view (timeline_view.h).
#include "ui/model/timeline_view.h"

#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

// The state glyph that stands for a step's kind on the strip (state_glyph.h).
ThreadState glyphOf(StepKind k) {
  switch (k) {
    case StepKind::Load: return ThreadState::Loading;
    case StepKind::Compute: return ThreadState::Computing;
    case StepKind::Store: return ThreadState::Stored;
    case StepKind::Barrier: return ThreadState::Waiting;
    default: return ThreadState::Idle;
  }
}

Rgba colourOf(StepKind k, const Theme& theme) {
  switch (k) {
    case StepKind::Load: return theme.stateColour(ThreadState::Loading);
    case StepKind::Compute: return theme.stateColour(ThreadState::Computing);
    case StepKind::Store: return theme.pStored;
    case StepKind::Barrier: return theme.stateColour(ThreadState::Waiting);
    default: return theme.cellIdle;
  }
}

}  // namespace

TimelineView timelineView(const LoadedRun& run, const BlockTimeline* block, Cursor cursor, const Theme& theme,
                          const TimelineViewOptions& options) {
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  TimelineView v;
  if (block) {
    v.hasCaption = true;
    v.caption = stepCaption(run, *block, c, options.followed);
  }
  const int steps = t.steps();
  v.steps.reserve(std::size_t(steps));
  for (int s = 0; s < steps; ++s) {
    const StepInfo& st = t.step(s);
    const Rgba colour = colourOf(st.kind, theme);
    const bool sameKind = s > 0 && v.steps.back().colour == colour;  // the ink of a run of one kind, worked out once
    v.steps.push_back({colour, sameKind ? v.steps.back().ink : readableOn(colour), glyphOf(st.kind), t.done(c, s, t.threadsPerBlock() - 1),
                       s > 0 && st.phase != t.step(s - 1).phase, t.stepLabel(s)});
  }
  if (t.phases() > 0)
    for (int s = 0; s < steps;) {
      int end = s;
      while (end < steps && t.step(end).phase == t.step(s).phase) ++end;
      v.phases.push_back({s, end, t.step(s).phase});
      s = end;
    }
  v.position = t.position(c);
  v.step = c.step;
  v.stepLabel = steps > 0 ? t.stepLabel(c.step) : "";
  // The selected block's phases: on rung 9 its share of the k tiles (the same as the grid's elsewhere).
  v.phasesDone = block ? t.phasesDone(c, block->bx(), block->by()) : t.phasesDone(c);
  v.phaseCount = block ? t.phases(block->bx(), block->by()) : t.phases();
  v.threadsThrough = c.threads, v.threadsPerBlock = t.threadsPerBlock();
  v.partial = partialNote(run);
  return v;
}

}  // namespace tilescope::ui
