// Exports of what the app shows: the run as a trace file, its trace as Chrome trace-event
// JSON for Perfetto, the window as a PNG (written by the frame loop after the frame renders).
#pragma once
#include <string>

#include "ui/export/animation_export.h"
#include "ui/state/app_state.h"
#include "ui/state/intents.h"

namespace tilescope::ui {

// Carries out `e` for the run on screen; the outcome is left in state.view.exported.
void exportView(AppState& state, const ExportView& e);

// The export intents applyIntents left to this room (ExportView, ExportAnimation), in order.
void applyExportIntents(const IntentQueue& exports, AppState& state, AnimationExportJob& animation);

}  // namespace tilescope::ui
