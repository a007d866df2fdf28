// The Lab tab's intents applied (the one place that changes AppState::lab) and its results
// taken back from the run worker. Called from applyIntents() and collectRun().
#pragma once
#include <memory>

#include "ui/state/app_state.h"
#include "ui/workers/run_worker.h"

namespace tilescope::ui {

// Applies `intent`; returns the job to hand to the run worker (Run, Check), or null.
std::shared_ptr<const LabJob> applyLabIntent(AppState& state, RunWorker& worker, const LabIntent& intent);

// Every result the worker returns passes here: a lab job's outcome or grade goes to the Lab
// tab (even when a newer request keeps its run off the screen), and a lab job that a newer
// request replaced in the queue is no longer waited for.
void takeLabResult(AppState& state, const RunResult& result);

}  // namespace tilescope::ui
