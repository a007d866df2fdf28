// OpenGL as each target has it: GL 3.3 core through the glad loader on the desktop, OpenGL ES
// 3.0 (WebGL2) linked in a page. Only app/gfx and the window include this. The GLSL the app
// writes is 330 core; in a page its #version line becomes the ES one with precisions.
#pragma once
#if defined(__EMSCRIPTEN__)
#include <GLES3/gl3.h>
#else
#include <glad/gl.h>
#endif

#include <string>
#include <string_view>

#include "kernels/result.h"

namespace tilescope::platform {

using GlProc = void (*)();
using GlProcLoader = GlProc (*)(const char* name);

struct GlVersion {
  int major = 0, minor = 0;
};

// Loads the entry points (the desktop's glad, through `loader`; nothing to load in a page) and
// returns the context's version.
Result<GlVersion> loadGlEntryPoints(GlProcLoader loader);
// Whether the context is new enough, and what "new enough" is in words ("OpenGL 3.3 core").
bool glVersionSuffices(GlVersion version);
std::string_view requiredGl();

// The #version line Dear ImGui's OpenGL3 backend is given.
const char* imguiGlslVersion();
// `source` (a shader whose first line is `#version 330 core`) with this target's header in
// place of that line; the desktop's is the line itself, unchanged.
std::string withGlslHeader(std::string_view source);

}  // namespace tilescope::platform
