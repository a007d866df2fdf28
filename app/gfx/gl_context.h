// GL's errors. (Loading GL and checking its version is the window's, and so is clearing and
// drawing a frame's picture: app/platform/window.h.)
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::gfx {

// The first pending GL error as text ("GL_INVALID_OPERATION after <where>"), or empty.
std::string takeGlError(const char* where);

}  // namespace tilescope::gfx
