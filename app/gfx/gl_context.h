// Loading OpenGL and asking what the driver is: the first thing the app does once it has a
// window, and the reason it refuses to start on a driver older than GL 3.3 core.
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::gfx {

using GlProc = void (*)();
using GlProcLoader = GlProc (*)(const char* name);

struct GlInfo {
  int major = 0, minor = 0;
  std::string vendor, renderer, version;
};

// Loads the GL 3.3 core entry points through `loader` (glfwGetProcAddress). Fails, with
// what the driver offers, when the context is older than 3.3.
Result<GlInfo> loadGl(GlProcLoader loader);

// Sets the viewport to the default framebuffer and clears it.
void beginFrame(int width, int height, float r, float g, float b);

// The first pending GL error as text ("GL_INVALID_OPERATION after <where>"), or empty.
std::string takeGlError(const char* where);

}  // namespace tilescope::gfx
