// The theme's colours against what eyes and projectors need (issue 18): text at least 4.5:1
// against its background (WCAG 2.1 AA, its relative-luminance formula), the current-tile ring
// visible on every fill the grids use, also for protanopes and deuteranopes (Machado, Oliveira
// and Fernandes 2009, severity 1, applied in linear RGB), and no thread colour reused for a
// state or a stored P element. Every palette, normal and presentation mode. The formulas are
// written out here from their papers; nothing is taken from the code under test but the colours.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "ui/theme.h"

namespace tilescope::ui {
namespace {

using Linear = std::array<double, 3>;

double toLinear(unsigned channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

Linear linear(Rgba c) { return {toLinear(c & 0xff), toLinear((c >> 8) & 0xff), toLinear((c >> 16) & 0xff)}; }

double luminance(const Linear& c) { return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; }

double contrast(const Linear& a, const Linear& b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

using Matrix = std::array<Linear, 3>;
constexpr Matrix kNormal{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
constexpr Matrix kProtanopia{{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeuteranopia{{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};

Linear seen(const Matrix& m, Rgba c) {
  const Linear l = linear(c);
  Linear out{};
  for (int i = 0; i < 3; ++i) out[std::size_t(i)] = std::clamp(m[std::size_t(i)][0] * l[0] + m[std::size_t(i)][1] * l[1] + m[std::size_t(i)][2] * l[2], 0.0, 1.0);
  return out;
}

struct Case {
  Palette palette;
  bool presentation;
  std::string name() const { return std::string(paletteName(palette)) + (presentation ? " presentation" : " normal"); }
};
const Case kCases[] = {{Palette::OkabeIto, false}, {Palette::OkabeIto, true}, {Palette::Vivid, false}, {Palette::Vivid, true}};

TEST(ThemeColours, TextIsAtLeastWcagAA) {
  for (const Case& c : kCases) {
    const Theme t = makeTheme(c.palette, c.presentation);
    const auto pairs = textPairs(t);
    ASSERT_GE(pairs.size(), 8u);
    for (const TextOnBackground& p : pairs)
      EXPECT_GE(contrast(linear(p.text), linear(p.background)), 4.5)
          << c.name() << ": " << p.what << " " << hexColour(p.text) << " on " << hexColour(p.background);
  }
}

// Every fill a grid cell can have under the ring: the threads, the states, P stored or wrong,
// idle and zero-filled cells, both ends of the load shading.
std::vector<Rgba> cellFills(const Theme& t) {
  std::vector<Rgba> fills(std::begin(t.threadColours), std::end(t.threadColours));
  fills.insert(fills.end(), std::begin(t.stateColours), std::end(t.stateColours));
  for (Rgba c : {t.pStored, t.error, t.cellIdle, t.zeroFilled, t.loadsFew, t.loadsMany, t.cellGhost}) fills.push_back(c);
  return fills;
}

TEST(ThemeColours, TileRingShowsOnEveryFillForRedGreenColourBlindViewersToo) {
  // The ring is the highlight colour with a ringEdge line inside it: on any fill, one of the two
  // must stand out at WCAG's 3:1 for graphics, and the two must differ from each other.
  for (const Case& c : kCases) {
    const Theme t = makeTheme(c.palette, c.presentation);
    for (const auto& [vision, m] : {std::pair{"normal", kNormal}, {"protanopia", kProtanopia}, {"deuteranopia", kDeuteranopia}}) {
      EXPECT_GE(contrast(seen(m, t.highlight), seen(m, t.ringEdge)), 3.0) << c.name() << " " << vision;
      for (Rgba fill : cellFills(t)) {
        const double best = std::max(contrast(seen(m, t.highlight), seen(m, fill)), contrast(seen(m, t.ringEdge), seen(m, fill)));
        EXPECT_GE(best, 3.0) << c.name() << ", " << vision << ": the ring on " << hexColour(fill);
      }
    }
  }
}

TEST(ThemeColours, NoThreadColourMeansAStateOrAStoredElement) {
  // Apart enough to tell at a glance, for normal and red-green colour-blind eyes: 0.1 in linear
  // RGB (about 25 steps of 255 in a mid tone).
  for (const Case& c : kCases) {
    const Theme t = makeTheme(c.palette, c.presentation);
    std::vector<Rgba> meanings(std::begin(t.stateColours) + 1, std::end(t.stateColours));  // Idle is the empty cell
    meanings.push_back(t.pStored);
    for (const auto& [vision, m] : {std::pair{"normal", kNormal}, {"protanopia", kProtanopia}, {"deuteranopia", kDeuteranopia}})
      for (Rgba thread : t.threadColours)
        for (Rgba other : meanings) {
          const Linear a = seen(m, thread), b = seen(m, other);
          const double d = std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
          EXPECT_GE(d, 0.1) << c.name() << ", " << vision << ": thread " << hexColour(thread) << " vs " << hexColour(other);
        }
  }
}

TEST(ThemeColours, LoadShadingIsLogarithmic) {
  // 64 loads the naive kernel's count; T = 32, 16, 8 load 2, 4, 8 times: equal steps on the scale.
  EXPECT_FLOAT_EQ(loadShadeFraction(1, 64), 0.0f);
  EXPECT_FLOAT_EQ(loadShadeFraction(64, 64), 1.0f);
  EXPECT_NEAR(loadShadeFraction(2, 64), 1.0 / 6, 1e-6);
  EXPECT_NEAR(loadShadeFraction(4, 64), 2.0 / 6, 1e-6);
  EXPECT_NEAR(loadShadeFraction(8, 64), 3.0 / 6, 1e-6);
  EXPECT_FLOAT_EQ(loadShadeFraction(0, 64), 0.0f);
}

}  // namespace
}  // namespace tilescope::ui
