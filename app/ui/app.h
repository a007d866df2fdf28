// The desktop app: window, frame loop, script mode. main() parses options and calls runApp.
#pragma once
#include "ui/app_options.h"

namespace tilescope::ui {

// Exit codes: 0 ok, 1 a script command failed, 2 bad options or script, 3 no display / GL /
// shaders (the app cannot start here).
int runApp(const AppOptions& options);

}  // namespace tilescope::ui
