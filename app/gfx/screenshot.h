// Saves what the default framebuffer shows to a PNG: call after the frame is rendered and
// before the buffers are swapped (the back buffer still holds the frame then).
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::gfx {

Status saveScreenshot(const std::string& path, int width, int height);

}  // namespace tilescope::gfx
