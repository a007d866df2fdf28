// The one place intents become state changes and new runs.
#pragma once
#include "ui/state/app_state.h"
#include "ui/workers/run_worker.h"

namespace tilescope::ui {

// Applies and clears state.intents. New configs are handed to `worker`. Returns the export
// intents (ExportView, ExportAnimation), in order, for the export room above (export_view.h).
IntentQueue applyIntents(AppState& state, RunWorker& worker);

// Takes a finished run from the worker, if any: installs it when it answers the newest
// request (and drops it when a newer one is pending). Returns true when a request's first
// picture came (its whole run replacing a first picture, LoadedRun::partial, is not a new one).
bool collectRun(AppState& state, RunWorker& worker);

// Moves the cursor when playing; call once per frame with the frame's duration.
void advancePlayback(AppState& state, double seconds);

}  // namespace tilescope::ui
