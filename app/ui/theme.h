// Colours and sizes of everything the app draws, for the two palettes and the two modes
// (normal, presentation). One place decides them, so the script-mode tests can ask the
// layout file which colour a highlighted cell carries instead of hard-coding it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/timeline/timeline.h"
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
  Rgba windowBg, frameBg, textDisabled;  // ImGui's window and field backgrounds, its dimmed text
  Rgba progressFill;         // a progress bar's filled part (the lesson's "page N of M" is written over it)
  Rgba cellIdle, cellGhost, cellOutline, cellMark;
  Rgba highlight;            // current tiles, the selected block's output tile
  Rgba ringEdge;             // the inner edge of every highlight ring (GridImage::ringEdge)
  Rgba readRing;             // slots and elements read at the current k step
  Rgba zeroFilled, error, pStored, pPending;
  // One meaning per colour: threads are the palette's hues; a thread's state (the Thread block
  // panel, the timeline) is a step of a neutral grey ramp, and a stored P element a pale paper
  // tone, so no state or P cell can be read as a thread.
  Rgba threadColours[8];
  Rgba stateColours[6];      // by ThreadState
  Rgba warpTint;             // odd warps are drawn with this outline
  Rgba follow;               // a followed thread's elements, slots and P element, in every view
  Rgba loadsFew, loadsMany;  // the load-count shading of M and N: one load .. the naive kernel's count
  float followPx = 3.0f;

  Rgba threadColour(int linearThread) const { return threadColours[linearThread & 7]; }
  Rgba stateColour(ThreadState s) const { return stateColours[int(s)]; }
};

// Where a load count of 1 .. `most` falls on the shading's pale-to-dark scale, 0 to 1. The scale
// is logarithmic: counts grow by factors (64 / T loads for tile width T), so T = 8, 16 and 32
// are equal steps apart instead of crowding at the pale end.
float loadShadeFraction(uint32_t count, int most);

// Text the app draws on a background, by name: the pairs the contrast test holds to WCAG AA.
struct TextOnBackground {
  std::string what;
  Rgba text, background;
};
std::vector<TextOnBackground> textPairs(const Theme& theme);

// Presentation mode means high contrast and thicker lines; fonts are scaled separately.
Theme makeTheme(Palette palette, bool presentation);

// Applies the theme's colours to ImGui's style, with every size scaled by `scale`.
void applyImGuiStyle(const Theme& theme, bool presentation, float scale);

// WCAG's contrast ratio of two colours (1 to 21), from their relative luminance.
double contrastRatio(Rgba a, Rgba b);
// Black or white, whichever reads better on `fill`: the ink of a text or glyph drawn on a cell.
Rgba readableOn(Rgba fill);

// "#rrggbb" of a colour, for the layout file.
std::string hexColour(Rgba c);

}  // namespace tilescope::ui
