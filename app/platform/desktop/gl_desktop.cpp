// GL 3.3 core through glad; shaders as written (#version 330 core).
#include "platform/gl.h"

namespace tilescope::platform {

Result<GlVersion> loadGlEntryPoints(GlProcLoader loader) {
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  if (version == 0) return unavailable("could not load OpenGL entry points (no current GL context?)");
  return GlVersion{GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version)};
}

bool glVersionSuffices(GlVersion v) { return v.major > 3 || (v.major == 3 && v.minor >= 3); }
std::string_view requiredGl() { return "OpenGL 3.3 core"; }
const char* imguiGlslVersion() { return "#version 330 core"; }
std::string withGlslHeader(std::string_view source) { return std::string(source); }

}  // namespace tilescope::platform
