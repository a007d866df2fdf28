// WebGL2 is OpenGL ES 3.0, linked: nothing to load. Shaders get the ES #version and precisions.
#include "platform/gl.h"

namespace tilescope::platform {

Result<GlVersion> loadGlEntryPoints(GlProcLoader) {
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major == 0) return unavailable("this browser gave the page no WebGL2 context");
  return GlVersion{major, minor};
}

bool glVersionSuffices(GlVersion v) { return v.major >= 3; }
std::string_view requiredGl() { return "WebGL2 (OpenGL ES 3.0)"; }
const char* imguiGlslVersion() { return "#version 300 es"; }

std::string withGlslHeader(std::string_view source) {
  const auto eol = source.find('\n');
  const std::string_view rest = eol == std::string_view::npos ? std::string_view() : source.substr(eol + 1);
  // `#line 2`: compiler messages keep the line numbers of the file as written.
  return "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp usampler2D;\n#line 2\n" +
         std::string(rest);
}

}  // namespace tilescope::platform
