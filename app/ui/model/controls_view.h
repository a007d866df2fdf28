// What the Controls panel says about the run on screen, as plain data (issue 25): the step's
// phase (the animation export's "this phase" range) and the run in one line. Facts of the run
// and the phase, not of the step: built once per run and phase (state/view_cache.h). The
// request's own fate (running, refused) is the app's state, read by the panel as it is.
#pragma once
#include <string>

#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct ControlsView {
  int phase = 0;        // the cursor's phase (0 before the first)
  std::string runLine;  // "tiled 4x4x4 T=2 on emulator: verified (3 ms)"; a lab run names its file
};

ControlsView controlsView(const LoadedRun& run, int phase);

// The cursor's phase as the Controls panel counts it (0 before the first phase).
int controlsPhase(const LoadedRun& run, Cursor cursor);

}  // namespace tilescope::ui
