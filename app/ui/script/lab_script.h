// Script mode's `lab` commands (script.h lists them) and the Lab tab's part of the layout
// JSON, so GUI tests drive and read the Lab tab the way a student uses it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ui/state/app_state.h"
#include "core/json_writer.h"

namespace tilescope::ui {

// The line's problem, or "" (checked before the window opens).
std::string checkLabCommand(const std::vector<std::string>& words);
// run, check and expect act on the newest lab result: they wait for the pending run.
bool labCommandWaits(const std::vector<std::string>& words);
// run and check: the intent that starts the job; the script then waits for it to finish.
std::optional<Intent> labCommandStart(const std::vector<std::string>& words);
// The command's effect (the intent it pushes), or for run/check/expect what came of it.
Status labCommandDone(AppState& state, const std::vector<std::string>& words);

// The Lab tab in the layout file: its state and its editor as drawn (FrameLayout::lab).
void writeLabJson(JsonWriter& j, const LabState& lab, const LabLayout& drawn);

}  // namespace tilescope::ui
