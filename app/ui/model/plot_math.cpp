#include "ui/model/plot_math.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tilescope::ui {
namespace {

double base(AxisScale s) { return s == AxisScale::Log2 ? 2.0 : 10.0; }

double logOf(AxisScale s, double v) {
  if (v <= 0.0) return -std::numeric_limits<double>::infinity();
  return s == AxisScale::Log2 ? std::log2(v) : std::log10(v);
}

// Floating-point logs of exact powers can land a hair below the integer (log10(1000) =
// 2.9999999999999996): round to the integer when that close, so 1000 is a decade, not 2.99.
double snap(double x) {
  const double r = std::round(x);
  return std::abs(x - r) < 1e-9 ? r : x;
}

std::string withSeparators(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

AxisTick tick(double value, bool labelled) { return {value, labelled, labelled ? formatNumber(value) : std::string()}; }

}  // namespace

double axisFraction(const AxisRange& a, double value) {
  if (a.scale == AxisScale::Linear) return (value - a.lo) / (a.hi - a.lo);
  const double lo = logOf(a.scale, a.lo), hi = logOf(a.scale, a.hi);
  return (logOf(a.scale, value) - lo) / (hi - lo);
}

double axisValue(const AxisRange& a, double fraction) {
  if (a.scale == AxisScale::Linear) return a.lo + fraction * (a.hi - a.lo);
  const double lo = logOf(a.scale, a.lo), hi = logOf(a.scale, a.hi);
  return std::pow(base(a.scale), lo + fraction * (hi - lo));
}

AxisRange fitRange(double minValue, double maxValue, AxisScale scale) {
  if (minValue > maxValue) std::swap(minValue, maxValue);
  if (scale == AxisScale::Linear) {
    double span = maxValue - minValue;
    if (span <= 0.0) span = std::max(std::abs(minValue), 1.0);
    const double step = niceStep(span / 5.0);
    double lo = std::floor(minValue / step) * step, hi = std::ceil(maxValue / step) * step;
    if (hi <= lo) lo -= step, hi += step;
    return {lo, hi, scale};
  }
  // Nothing positive to show: one decade (or octave) around 1.
  if (maxValue <= 0.0) return {1.0, base(scale), scale};
  if (minValue <= 0.0) minValue = maxValue;
  double lo = std::floor(snap(logOf(scale, minValue))), hi = std::ceil(snap(logOf(scale, maxValue)));
  if (hi <= lo) lo -= 1.0, hi += 1.0;  // one exact power: centred, a step either side
  return {std::pow(base(scale), lo), std::pow(base(scale), hi), scale};
}

double niceStep(double rough) {
  if (!(rough > 0.0)) return 1.0;
  const double decade = std::pow(10.0, std::floor(snap(std::log10(rough))));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= rough * (1.0 - 1e-12)) return m * decade;
  return 10.0 * decade;
}

std::vector<AxisTick> axisTicks(const AxisRange& a, double lengthPx, double labelSpacingPx) {
  std::vector<AxisTick> ticks;
  if (!(a.hi > a.lo) || !(lengthPx > 0.0)) return ticks;
  labelSpacingPx = std::max(labelSpacingPx, 1.0);
  const double inRange = 1e-9;  // relative slack so that the ends themselves are ticks
  auto inside = [&](double v) { return v >= a.lo * (1 - inRange) && v <= a.hi * (1 + inRange); };

  if (a.scale == AxisScale::Linear) {
    const double maxLabels = std::max(2.0, std::floor(lengthPx / labelSpacingPx));
    const double step = niceStep((a.hi - a.lo) / maxLabels);
    const double first = std::ceil(a.lo / step - 1e-9) * step;
    for (double v = first; v <= a.hi + step * 1e-9; v += step)
      ticks.push_back(tick(std::abs(v) < step * 1e-9 ? 0.0 : v, true));
    return ticks;
  }

  const double lo = std::ceil(snap(logOf(a.scale, a.lo))), hi = std::floor(snap(logOf(a.scale, a.hi)));
  const double perPower = lengthPx / (snap(logOf(a.scale, a.hi)) - snap(logOf(a.scale, a.lo)));
  if (a.scale == AxisScale::Log2) {
    // Label every `every`-th power of two so that labels keep their spacing; the others
    // stay as unlabelled ticks.
    int every = 1;
    while (perPower * every < labelSpacingPx && every < 64) every *= 2;
    for (double e = lo; e <= hi; e += 1.0) ticks.push_back(tick(std::exp2(e), std::fmod(e - lo, every) == 0.0));
    return ticks;
  }

  // Log10: powers of ten; the multiples 2..9 as minor ticks. When a decade has room for
  // three labels, the 2 and 5 multiples are labelled as well.
  const bool label125 = perPower >= 3.0 * labelSpacingPx;
  int every = 1;
  while (perPower * every < labelSpacingPx && every < 64) every *= 2;
  for (double e = std::floor(snap(logOf(a.scale, a.lo))); e <= hi; e += 1.0) {
    const double decade = std::pow(10.0, e);
    if (e >= lo && inside(decade)) ticks.push_back(tick(decade, std::fmod(e - lo, every) == 0.0));
    for (int m = 2; m <= 9; ++m) {
      const double v = m * decade;
      if (inside(v)) ticks.push_back(tick(v, label125 && (m == 2 || m == 5)));
    }
  }
  std::sort(ticks.begin(), ticks.end(), [](const AxisTick& x, const AxisTick& y) { return x.value < y.value; });
  return ticks;
}

std::string formatNumber(double value, int significant) {
  if (!std::isfinite(value)) return std::isnan(value) ? "NaN" : (value > 0 ? "inf" : "-inf");
  const double rounded = std::round(value);
  if (std::abs(value - rounded) < 1e-9 * std::max(1.0, std::abs(value)) || std::abs(value) >= 1000.0)
    return withSeparators((long long)rounded);
  char text[32];
  std::snprintf(text, sizeof text, "%.*g", std::max(1, significant), value);
  return text;
}

std::optional<NearestHit> nearestPoint(const std::vector<std::vector<PlotVec>>& points, PlotVec pointer,
                                       double maxDistance) {
  std::optional<NearestHit> best;
  for (std::size_t s = 0; s < points.size(); ++s) {
    for (std::size_t i = 0; i < points[s].size(); ++i) {
      const double d = std::hypot(points[s][i].x - pointer.x, points[s][i].y - pointer.y);
      if (d > maxDistance) continue;
      if (!best || d <= best->distance) best = NearestHit{int(s), int(i), d};
    }
  }
  return best;
}

double distanceToSegment(PlotVec p, PlotVec a, PlotVec b) {
  const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
  const double t = length2 > 0.0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0) : 0.0;
  return std::hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

}  // namespace tilescope::ui
