#include "ui/model/timing_state.h"

namespace tilescope::ui {

void applyTimingIntent(TimingState& state, const TimingIntent& intent) {
  if (const auto* start = std::get_if<StartSweep>(&intent.what)) {
    state.requestedSweep = start->spec;
    ++state.sweepRequested;
    state.view.source = TimingSource::Live;  // show what is being measured as it arrives
    // The sweep chooser shows the sweep that runs, whoever started it (the Lab tab's Time, a script).
    state.view.sweep.kind = start->spec.kind;
    if (start->spec.kind == SweepKind::Custom) state.view.sweep.custom = start->spec.custom;
  } else if (std::holds_alternative<CancelSweep>(intent.what)) {
    state.cancelRequested = true;
  } else if (const auto* view = std::get_if<SetTimingView>(&intent.what)) {
    state.view = view->view;
  }
}

}  // namespace tilescope::ui
