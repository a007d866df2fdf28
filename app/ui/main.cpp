// tilescope: the desktop app. Wiring only; see app.cpp.
#include <cstdio>

#include "app.h"

int main(int argc, char** argv) {
  auto options = tilescope::ui::parseAppOptions(argc, argv);
  if (!options) {
    std::fprintf(stderr, "tilescope: %s\n%s", options.error().message.c_str(), tilescope::ui::appUsage().c_str());
    return 2;
  }
  if (options->help) {
    std::printf("%s", tilescope::ui::appUsage().c_str());
    return 0;
  }
  return tilescope::ui::runApp(*options);
}
