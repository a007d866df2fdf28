#include "gfx/embedded_files.h"

namespace tilescope {

std::optional<std::string_view> embeddedFile(std::string_view path) {
  for (const auto& f : embeddedShaderFiles())
    if (f.path == path) return f.text;
  return std::nullopt;
}

}  // namespace tilescope
