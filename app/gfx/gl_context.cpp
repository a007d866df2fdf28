#include "gfx/gl_context.h"

#include "platform/gl.h"

namespace tilescope::gfx {

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

}  // namespace tilescope::gfx
