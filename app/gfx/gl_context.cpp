#include "gfx/gl_context.h"

#include "platform/gl.h"

namespace tilescope::gfx {

void beginFrame(int width, int height, float r, float g, float b) {
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

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
