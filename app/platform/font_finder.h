// The app's two typefaces, found through fontconfig: a sans-serif for the interface and a
// monospace for the Source panel. DejaVu is asked for first (the look the screenshots were
// made with), then any family the system maps to sans-serif or monospace. Only scalable
// TrueType/OpenType files qualify: Dear ImGui rasterises them with stb_truetype. Without a
// match, or in a build without fontconfig, the caller falls back to ImGui's built-in font.
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::platform {

enum class FontRole { Sans, Mono };

struct FontFile {
  std::string path;
  std::string family;  // as fontconfig names it: "DejaVu Sans"
  int index = 0;       // the face within a font collection (.ttc); 0 for a .ttf
};

Result<FontFile> findFont(FontRole role);

}  // namespace tilescope::platform
