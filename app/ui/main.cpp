// tilescope: the app, on the desktop or in a page. Wiring only; see app.cpp.
#include <cstdio>
#include <cstring>

#include "app.h"
#include "core/files/trace_file.h"
#include "core/run/backend.h"
#include "platform/frame_loop.h"
#include "platform/page.h"

int main(int argc, char** argv) {
  using namespace tilescope;
  platform::startProcess();
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {  // the build, and which GPUs it has code for
    std::printf("%s", versionText("tilescope", toolVersion()).c_str());
    return 0;
  }
  // A page takes its options from its address, the desktop from its command line.
  const auto query = platform::pageQuery();
  auto options = query ? ui::parseUrlOptions(*query) : ui::parseAppOptions(argc, argv);
  if (!options) {
    std::fprintf(stderr, "tilescope: %s\n%s", options.error().message.c_str(), query ? "" : ui::appUsage().c_str());
    platform::announceScriptEnd(false, options.error().message);
    return 2;
  }
  if (options->help) {
    std::printf("%s", ui::appUsage().c_str());
    return 0;
  }
  return ui::runApp(*options);
}
