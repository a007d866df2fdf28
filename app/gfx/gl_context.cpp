#include "gfx/gl_context.h"

#include <cstdlib>
#include <cstring>

#include "platform/gl.h"

namespace tilescope::gfx {
namespace {

bool defaultGlChecks() {
  if (const char* env = std::getenv("TILESCOPE_GL_CHECKS"); env && *env) return std::strcmp(env, "0") != 0;
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

bool& glChecks() {
  static bool on = defaultGlChecks();
  return on;
}

}  // namespace

std::string takeGlError(const char* where) {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return {};
  const char* name = "GL error";
  switch (e) {
    case GL_INVALID_ENUM: name = "GL_INVALID_ENUM"; break;
    case GL_INVALID_VALUE: name = "GL_INVALID_VALUE"; break;
    case GL_INVALID_OPERATION: name = "GL_INVALID_OPERATION"; break;
    case GL_INVALID_FRAMEBUFFER_OPERATION: name = "GL_INVALID_FRAMEBUFFER_OPERATION"; break;
    case GL_OUT_OF_MEMORY: name = "GL_OUT_OF_MEMORY"; break;
  }
  while (glGetError() != GL_NO_ERROR) {
  }
  return std::string(name) + " after " + where;
}

bool glChecksOn() { return glChecks(); }
void setGlChecks(bool on) { glChecks() = on; }

std::string frameGlError(const char* where) { return glChecksOn() ? takeGlError(where) : std::string(); }

}  // namespace tilescope::gfx
