// Colours and sizes of everything the app draws, for the two palettes and the two modes
// (normal, presentation). One place decides them, so the script-mode tests can ask the
// layout file which colour a highlighted cell carries instead of hard-coding it.
#pragma once
#include <string_view>

#include "core/timeline.h"
#include "gfx/grid_renderer.h"

namespace tilescope::ui {

using gfx::Rgba;

enum class Palette { OkabeIto, Vivid };
std::string_view paletteName(Palette p);

struct Theme {
  Palette palette = Palette::OkabeIto;
  bool highContrast = false;
  float outlinePx = 1.0f;    // grid lines
  float highlightPx = 3.0f;  // the current-tile ring
  Rgba background, panelText;
  Rgba cellIdle, cellGhost, cellOutline, cellMark;
  Rgba highlight;            // current tiles, the selected block's output tile
  Rgba readRing;             // slots and elements read at the current k step
  Rgba zeroFilled, error, pStored, pPending;
  Rgba threadColours[8];
  Rgba stateColours[6];      // by ThreadState
  Rgba warpTint;             // odd warps are drawn with this outline
  Rgba follow;               // a followed thread's elements, slots and P element, in every view
  Rgba loadsFew, loadsMany;  // the load-count shading of M and N: one load .. the naive kernel's count
  float followPx = 3.0f;

  Rgba threadColour(int linearThread) const { return threadColours[linearThread & 7]; }
  Rgba stateColour(ThreadState s) const { return stateColours[int(s)]; }
};

// Presentation mode means high contrast and thicker lines; fonts are scaled separately.
Theme makeTheme(Palette palette, bool presentation);

// Applies the theme's colours to ImGui's style, with every size scaled by `scale`.
void applyImGuiStyle(const Theme& theme, bool presentation, float scale);

// "#rrggbb" of a colour, for the layout file.
std::string hexColour(Rgba c);

}  // namespace tilescope::ui
