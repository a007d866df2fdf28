// The palettes and sizes, with no ImGui in them (theme_style.cpp hands them to ImGui), so the
// colour tests read exactly the theme the app draws with.
#include "ui/theme.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tilescope::ui {
namespace {

constexpr Rgba hex(uint32_t rgb) { return gfx::rgba((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff); }

void setPalette(Theme& t, Palette palette) {
  if (palette == Palette::OkabeIto) {
    // Okabe & Ito's sky blue, orange and reddish purple, with five lighter hues found by search
    // (issue 29): every one is text at 4.5:1 or more on the darkest window, so a series' name
    // can be written in its colour, and no two fall closer than 6.5 (CIEDE2000) for a viewer
    // with normal vision, protanopia, deuteranopia or tritanopia (tests/ui/colour_check.py;
    // the dark blue, brown, purple and indigo they replace were 1.3 to 3.3). Yellow is kept for
    // the highlight and vermillion for errors; greys are the states'.
    const Rgba threads[8] = {hex(0x56b4e9), hex(0xe69f00), hex(0xcc79a7), hex(0xcfbf81),
                             hex(0x51dcff), hex(0xdaae9e), hex(0xff7ad2), hex(0xbcd7e5)};
    std::copy(std::begin(threads), std::end(threads), t.threadColours);
    t.highlight = hex(0xf0e442);
    t.error = hex(0xff6e40);  // vermillion, light enough to read as text on the dark panels
  } else {
    const Rgba threads[8] = {hex(0x1f77b4), hex(0xff7f0e), hex(0x2ca02c), hex(0x9467bd),
                             hex(0x17becf), hex(0x393b79), hex(0xe377c2), hex(0xbcbd22)};
    std::copy(std::begin(threads), std::end(threads), t.threadColours);
    t.highlight = hex(0xffd700);
    t.error = hex(0xff5a5a);
  }
}

}  // namespace

std::string_view paletteName(Palette p) { return p == Palette::OkabeIto ? "okabe-ito" : "vivid"; }

Theme makeTheme(Palette palette, bool presentation) {
  Theme t;
  t.palette = palette;
  t.highContrast = presentation;
  t.outlinePx = presentation ? 2.0f : 1.0f;
  t.highlightPx = presentation ? 5.0f : 3.0f;
  t.background = presentation ? hex(0x000000) : hex(0x1c1f26);
  t.windowBg = presentation ? hex(0x000000) : hex(0x22262e);
  t.frameBg = presentation ? hex(0x1e2a3a) : hex(0x2b3a55);
  t.panelText = presentation ? hex(0xffffff) : hex(0xe6e6e6);
  t.textDisabled = presentation ? hex(0xb4b4b4) : hex(0xa3a8b3);
  t.progressFill = hex(0x2f5f8a);  // white text over it stays readable, unlike ImGui's yellow
  t.cellIdle = presentation ? hex(0x2a2a2a) : hex(0x353b48);
  t.cellGhost = presentation ? hex(0x101010) : hex(0x23262e);
  t.cellOutline = presentation ? hex(0x9a9a9a) : hex(0x14161b);
  t.cellMark = hex(0xffffff);
  t.ringEdge = hex(0x000000);
  setPalette(t, palette);
  t.pStored = hex(0xf5deb3);  // pale paper: done, and no thread's hue
  t.readRing = hex(0xffffff);
  t.zeroFilled = presentation ? hex(0x505050) : hex(0x4a4f5c);
  t.pPending = t.cellIdle;
  // The states as steps of lightness, which survive every colour-vision deficiency and a washed
  // out projector; the Thread block panel's legend names them.
  t.stateColours[int(ThreadState::Idle)] = t.cellIdle;
  t.stateColours[int(ThreadState::Loading)] = hex(0xe8e8e8);
  t.stateColours[int(ThreadState::Waiting)] = hex(0x474747);
  t.stateColours[int(ThreadState::Released)] = hex(0xb8b8b8);
  t.stateColours[int(ThreadState::Computing)] = hex(0xffffff);
  t.stateColours[int(ThreadState::Stored)] = t.pStored;
  t.warpTint = presentation ? hex(0xffffff) : hex(0x8a93a6);
  // Violet, found by search: 10 or more (CIEDE2000) from every thread colour for a viewer with
  // normal vision, protanopia, deuteranopia or tritanopia, 16.9 from the highlight, error, paper,
  // white and the states' greys, and text at 4.5:1 on the window (the magenta it replaces was 2.7
  // from thread 0's blue under deuteranopia). tests/ui/classroom_test.py checks it on a screenshot.
  t.follow = hex(0x9977ff);
  t.followPx = presentation ? 5.0f : 3.0f;
  // A sequential light-to-dark blue: few loads pale, the naive kernel's count dark.
  t.loadsFew = hex(0xdeebf7);
  t.loadsMany = hex(0x08306b);
  return t;
}

namespace {
double luminance(Rgba c) {
  auto channel = [](unsigned v) {
    const double s = double(v) / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(c & 0xff) + 0.7152 * channel((c >> 8) & 0xff) + 0.0722 * channel((c >> 16) & 0xff);
}
}  // namespace

double contrastRatio(Rgba a, Rgba b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Rgba readableOn(Rgba fill) {
  const Rgba black = hex(0x000000), white = hex(0xffffff);
  return contrastRatio(black, fill) >= contrastRatio(white, fill) ? black : white;
}

float loadShadeFraction(uint32_t count, int most) {
  if (most <= 1 || count <= 1) return count >= 1 && most <= 1 ? 1.0f : 0.0f;
  return std::min(1.0f, float(std::log(double(count)) / std::log(double(most))));
}

std::vector<TextOnBackground> textPairs(const Theme& t) {
  std::vector<TextOnBackground> pairs = {
      {"text on a window", t.panelText, t.windowBg},
      {"text on a plot", t.panelText, t.background},
      {"text in a field", t.panelText, t.frameBg},
      {"dimmed text on a window", t.textDisabled, t.windowBg},
      {"an error on a window", t.error, t.windowBg},
      {"the highlight colour as text (recorded timings)", t.highlight, t.windowBg},
      {"P stored's colour as text (live timings)", t.pStored, t.windowBg},
      {"'page N of M' over the progress bar's fill", t.panelText, t.progressFill},
      {"'page N of M' over the progress bar's rest", t.panelText, t.frameBg},
  };
  return pairs;
}

std::string hexColour(Rgba c) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff);
  return text;
}

}  // namespace tilescope::ui
