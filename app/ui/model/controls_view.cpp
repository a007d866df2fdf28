// The Controls panel's view (controls_view.h).
#include "ui/model/controls_view.h"

#include <algorithm>
#include <cstdio>

namespace tilescope::ui {

int controlsPhase(const LoadedRun& run, Cursor cursor) {
  return std::max(0, run.timeline.step(run.timeline.normalize(cursor).step).phase);
}

ControlsView controlsView(const LoadedRun& run, int phase) {
  ControlsView v;
  v.phase = phase;
  const auto& verification = run.run.verification;
  const Dims& d = run.run.config.dims;  // a lab run's config names no built-in kernel: say whose it is
  const LabKernel* lab = labKernel(run.run);
  const std::string what = lab ? "lab: " + lab->name + " (" + lab->fileName + ") " + std::to_string(d.j) + "x" +
                                     std::to_string(d.k) + "x" + std::to_string(d.l)
                               : describe(run.run.config);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.0f ms", run.seconds * 1000.0);
  // A first picture's P is unfinished: it is neither verified nor wrong yet.
  const std::string verdict = run.partial ? partialNote(run) + ", not verified yet"
                                          : (verification.passed ? "verified" : "WRONG RESULT");
  v.runLine = what + " on " + run.run.backend + ": " + verdict + " (" + ms + ")";
  return v;
}

}  // namespace tilescope::ui
