// The frame's start and GL's errors. (Loading GL and checking its version is the window's:
// app/platform/window.h.)
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::gfx {

// Sets the viewport to the default framebuffer and clears it.
void beginFrame(int width, int height, float r, float g, float b);

// The first pending GL error as text ("GL_INVALID_OPERATION after <where>"), or empty.
std::string takeGlError(const char* where);

}  // namespace tilescope::gfx
