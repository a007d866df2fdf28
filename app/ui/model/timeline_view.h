// What the Timeline panel shows at one cursor, as plain data (issue 25): the step in words,
// the strip's steps (kind, colour, done), its phases, where the cursor stands. Built once per
// cursor move (state/view_cache.h); the panel lays it out. No ImGui here.
#pragma once
#include <string>
#include <vector>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"
#include "ui/theme.h"

namespace tilescope::ui {

struct StripStep {
  Rgba colour = 0;                        // by the step's kind
  Rgba ink = 0;                           // its glyph's: black or white, whichever reads on `colour`
  ThreadState glyph = ThreadState::Idle;  // the state glyph that stands for the kind
  bool done = false;                      // every thread is through it at the cursor
  bool phaseStart = false;                // a new phase begins here (a boundary line)
  std::string label;                      // "phase 1, k = 0: compute", the hover's words
};

struct PhaseSpan {
  int first = 0, end = 0;  // steps [first, end)
  int phase = 0;
};

struct TimelineViewOptions {
  int followed = -1;  // the caption speaks of the followed thread (-1: the newest one through the step)
  bool operator==(const TimelineViewOptions&) const = default;
};

struct TimelineView {
  bool hasCaption = false;  // a block is selected
  std::string caption;      // the step in words (stepCaption)
  std::vector<StripStep> steps;
  std::vector<PhaseSpan> phases;  // empty when the kernel has none
  double position = 0.0;          // the cursor on the strip, in steps
  int step = 0;                   // the cursor's step
  std::string stepLabel;          // its label
  int phasesDone = 0, phaseCount = 0;
  int threadsThrough = 0, threadsPerBlock = 0;  // the cursor's threads through its step
  std::string partial;  // a first picture: which part of the launch ran (partialNote); "" when whole
};

TimelineView timelineView(const LoadedRun& run, const BlockTimeline* block, Cursor cursor, const Theme& theme,
                          const TimelineViewOptions& options);

}  // namespace tilescope::ui
