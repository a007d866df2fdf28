// GL's errors. (Loading GL and checking its version is the window's, and so is clearing and
// drawing a frame's picture: app/platform/window.h.)
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::gfx {

// The first pending GL error as text ("GL_INVALID_OPERATION after <where>"), or empty.
// Always asked at start-up (creating the renderer); on a frame's path only through
// frameGlError, because in a page each query is a round trip to the browser's GPU process
// that waits for every command before it (on a software rasteriser most of a frame's time).
std::string takeGlError(const char* where);

// Whether the frame's GL is checked after each grid draw: in a debug build (no NDEBUG), or
// where TILESCOPE_GL_CHECKS is set to 1 (a page sets it for an address ending #gl-checks:
// app/platform/web/page_web.cpp). Release builds check at start-up only.
bool glChecksOn();
void setGlChecks(bool on);

// takeGlError on a frame's path: empty, without asking GL, unless glChecksOn().
std::string frameGlError(const char* where);

}  // namespace tilescope::gfx
