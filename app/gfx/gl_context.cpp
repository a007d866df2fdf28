#include "gfx/gl_context.h"

#include <glad/gl.h>

namespace tilescope::gfx {

Result<GlInfo> loadGl(GlProcLoader loader) {
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  if (version == 0) return unavailable("could not load OpenGL entry points (no current GL context?)");
  GlInfo info;
  info.major = GLAD_VERSION_MAJOR(version);
  info.minor = GLAD_VERSION_MINOR(version);
  auto text = [](GLenum what) {
    const auto* s = reinterpret_cast<const char*>(glGetString(what));
    return std::string(s ? s : "?");
  };
  info.vendor = text(GL_VENDOR);
  info.renderer = text(GL_RENDERER);
  info.version = text(GL_VERSION);
  if (info.major < 3 || (info.major == 3 && info.minor < 3))
    return unavailable("OpenGL 3.3 core is required, the driver offers " + info.version + " (" + info.renderer + ")");
  return info;
}

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
