// A page has no fontconfig: the DejaVu faces the desktop prefers are preloaded at /fonts
// (app/platform/CMakeLists.txt, from fonts-dejavu-core).
#include <filesystem>

#include "platform/font_finder.h"

namespace tilescope::platform {

Result<FontFile> findFont(FontRole role) {
  const bool mono = role == FontRole::Mono;
  FontFile f{mono ? "/fonts/DejaVuSansMono.ttf" : "/fonts/DejaVuSans.ttf", mono ? "DejaVu Sans Mono" : "DejaVu Sans", 0};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(f.path, ec)) return unavailable(f.path + " is not in this page's files");
  return f;
}

}  // namespace tilescope::platform
