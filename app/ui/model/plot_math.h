// The arithmetic of a 2-D plot, with no ImGui in it so that it is unit tested on its own
// (tests/ui/model/plot_math_test.cpp): axis ranges on linear and logarithmic scales, where the
// ticks go and which of them carry a label, how numbers are written, and which data point is
// nearest the pointer. plot_widget.* draws with it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilescope::ui {

// Log2 suits sizes that double (N = 256, 512, ...); log10 suits rates that span decades.
enum class AxisScale { Linear, Log2, Log10 };

struct AxisRange {
  double lo = 0.0, hi = 1.0;  // data values at the two ends; lo < hi, both > 0 on log scales
  AxisScale scale = AxisScale::Linear;
};

// Where `value` sits between the ends, 0 at lo and 1 at hi (outside [0, 1] when out of range;
// a non-positive value on a log scale maps to -inf).
double axisFraction(const AxisRange& axis, double value);
// The inverse: the data value at `fraction` of the way from lo to hi.
double axisValue(const AxisRange& axis, double fraction);

// The range a plot shows for data in [minValue, maxValue]: log scales round outwards to
// whole powers of their base; linear rounds outwards to a nice step. Never empty (a single
// value gets a step either side, so it sits in the middle) and never non-positive on a log scale.
AxisRange fitRange(double minValue, double maxValue, AxisScale scale);

struct AxisTick {
  double value = 0.0;
  bool labelled = false;  // major ticks carry a label and a stronger grid line
  std::string label;      // formatNumber(value) when labelled
};

// Ticks inside [lo, hi] for an axis `lengthPx` long whose labels need `labelSpacingPx`
// between neighbours. Log2: every power of two, labelling every 2nd, 4th... when crowded.
// Log10: every power of ten labelled, the 2..9 multiples as minor ticks, and the 2 and 5
// multiples labelled too when a decade is long enough. Linear: steps of 1, 2 or 5 x 10^k.
std::vector<AxisTick> axisTicks(const AxisRange& axis, double lengthPx, double labelSpacingPx);

// The smallest 1, 2 or 5 x 10^k that is >= rough (rough > 0).
double niceStep(double rough);

// Readable numbers: integers with thousands separators ("66,908"), others with up to
// `significant` significant digits ("0.25", "14.9").
std::string formatNumber(double value, int significant = 3);

enum class Marker { Circle, Square, Triangle, Diamond, TriangleDown, Cross };

// A point in screen pixels (y grows downwards, as on screen; irrelevant to distances).
struct PlotVec {
  double x = 0.0, y = 0.0;
};

struct NearestHit {
  int series = -1, point = -1;
  double distance = 0.0;
};

// The point nearest `pointer` among `points[series][i]`, if any lies within `maxDistance`
// pixels. Ties go to the later series: it is drawn on top, so it is the one the eye sees.
std::optional<NearestHit> nearestPoint(const std::vector<std::vector<PlotVec>>& points, PlotVec pointer,
                                       double maxDistance);

// The distance from `p` to the segment from `a` to `b` (to `a` when they coincide): whether
// the pointer is on a roof of the roofline.
double distanceToSegment(PlotVec p, PlotVec a, PlotVec b);

// --- What a drawn plot reports -------------------------------------------------------------
// plot_widget.cpp records each plot it draws into the frame's layout, in window pixels, so
// that script-mode tests find points, lines and legend entries without re-deriving the axes.
struct PlotPointRect {
  double x = 0, y = 0;   // data
  float px = 0, py = 0;  // centre of the marker on screen
  std::string detail;    // the point's read-out lines beyond series, x and y
};
struct PlotSeriesRect {
  std::string name;
  uint32_t colour = 0;  // gfx::Rgba
  std::vector<PlotPointRect> points;
  float legendX = 0, legendY = 0, legendWidth = 0, legendHeight = 0;
  Marker marker = Marker::Circle;  // with the colour, the series' one pair in its legend
};
struct PlotLineRect {
  std::string label;
  double y = 0;
  float py = 0;
  uint32_t colour = 0;
  std::string drawn;         // the label as drawn: the short one where the long one is wider than the data
  float lx = 0, ly = 0, lwidth = 0, lheight = 0;  // where it was drawn
};
struct PlotPathRect {  // a polyline in data space (a roof of the roofline)
  std::string label;
  uint32_t colour = 0;
  std::vector<PlotPointRect> points;
};
struct PlotRect {
  std::string name, note;
  float x = 0, y = 0, width = 0, height = 0;  // the data area (inside the axes)
  std::vector<PlotSeriesRect> series;         // visible series only, in drawing order
  std::vector<PlotLineRect> lines;
  std::vector<std::string> hidden;  // series the plot knows but does not draw
  std::vector<PlotPathRect> paths;
  double xLo = 0, xHi = 0, yLo = 0, yHi = 0;  // the axes' ranges (data values at the ends)
};

}  // namespace tilescope::ui
