#include "ui/panels/plot_widget.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/state/frame_layout.h"
#include "core/json_writer.h"
#include "ui/panels/event_text.h"

namespace tilescope::ui {
namespace {

Rgba withAlpha(Rgba c, float alpha) {
  return (c & 0x00ffffffu) | (Rgba(std::clamp(alpha, 0.0f, 1.0f) * 255.0f + 0.5f) << 24);
}

void drawMarker(ImDrawList* d, Marker m, ImVec2 c, float r, Rgba colour) {
  switch (m) {
    case Marker::Circle:
      d->AddCircleFilled(c, r, colour, 16);
      break;
    case Marker::Square: {
      const float s = r * 0.86f;
      d->AddRectFilled(ImVec2(c.x - s, c.y - s), ImVec2(c.x + s, c.y + s), colour);
      break;
    }
    case Marker::Triangle:
      d->AddTriangleFilled(ImVec2(c.x, c.y - r * 1.15f), ImVec2(c.x + r * 1.05f, c.y + r * 0.75f),
                           ImVec2(c.x - r * 1.05f, c.y + r * 0.75f), colour);
      break;
    case Marker::TriangleDown:
      d->AddTriangleFilled(ImVec2(c.x - r * 1.05f, c.y - r * 0.75f), ImVec2(c.x + r * 1.05f, c.y - r * 0.75f),
                           ImVec2(c.x, c.y + r * 1.15f), colour);
      break;
    case Marker::Diamond:
      d->AddQuadFilled(ImVec2(c.x, c.y - r * 1.2f), ImVec2(c.x + r * 1.2f, c.y), ImVec2(c.x, c.y + r * 1.2f),
                       ImVec2(c.x - r * 1.2f, c.y), colour);
      break;
    case Marker::Cross: {
      const float s = r * 0.9f, w = std::max(1.5f, r * 0.55f);
      d->AddLine(ImVec2(c.x - s, c.y - s), ImVec2(c.x + s, c.y + s), colour, w);
      d->AddLine(ImVec2(c.x - s, c.y + s), ImVec2(c.x + s, c.y - s), colour, w);
      break;
    }
  }
}

// A marker on a halo of the plot's background, so that markers on top of lines and of each
// other stay distinct.
void drawHaloMarker(ImDrawList* d, Marker m, ImVec2 c, float r, Rgba colour, Rgba halo, float haloPx) {
  drawMarker(d, m, c, r + haloPx, halo);
  drawMarker(d, m, c, r, colour);
}

void dashedLine(ImDrawList* d, ImVec2 a, ImVec2 b, Rgba colour, float thickness, float dash) {
  const float length = std::hypot(b.x - a.x, b.y - a.y);
  if (length <= 0.0f) return;
  const ImVec2 u((b.x - a.x) / length, (b.y - a.y) / length);
  for (float t = 0.0f; t < length; t += dash * 1.7f) {
    const float e = std::min(t + dash, length);
    d->AddLine(ImVec2(a.x + u.x * t, a.y + u.y * t), ImVec2(a.x + u.x * e, a.y + u.y * e), colour, thickness);
  }
}

// A series' line pattern by its place in the plot: solid, dashed, dotted, in turn, so that two
// series whose hues a colour-vision deficiency merges differ by their line as well as their marker.
float seriesDash(std::size_t series, float px) {
  constexpr float kDash[] = {0.0f, 9.0f, 3.0f};
  return kDash[series % 3] * px;
}

void seriesLine(ImDrawList* d, ImVec2 a, ImVec2 b, Rgba colour, float thickness, float dash) {
  if (dash <= 0.0f) d->AddLine(a, b, colour, thickness);
  else dashedLine(d, a, b, colour, thickness, dash);
}

bool inside(ImVec2 p, ImVec2 lo, ImVec2 hi) { return p.x >= lo.x && p.x < hi.x && p.y >= lo.y && p.y < hi.y; }

struct DataBounds {
  double xMin = std::numeric_limits<double>::infinity(), xMax = -xMin;
  double yMin = xMin, yMax = -xMin;
  void add(double x, double y) {
    xMin = std::min(xMin, x), xMax = std::max(xMax, x);
    yMin = std::min(yMin, y), yMax = std::max(yMax, y);
  }
};

// Whether any of the polylines passes through the box lo..hi (sampled every two pixels).
bool crossesAny(const std::vector<std::vector<ImVec2>>& lines, ImVec2 lo, ImVec2 hi) {
  for (const std::vector<ImVec2>& pts : lines)
    for (std::size_t i = 1; i < pts.size(); ++i) {
      const ImVec2 a = pts[i - 1], b = pts[i];
      const int steps = std::max(1, int(std::hypot(b.x - a.x, b.y - a.y) / 2.0f));
      for (int k = 0; k <= steps; ++k) {
        const float t = float(k) / float(steps), x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
        if (x >= lo.x && x <= hi.x && y >= lo.y && y <= hi.y) return true;
      }
    }
  return false;
}

}  // namespace

// One colour and marker pair per series (issue 29: naive (32,32) and warptile were both a blue
// circle): the families take the palette's first four colours with every marker (naive's block
// shapes, tiled's tile widths), so the ladder's rungs 2 to 8 take the other four, the marker
// telling apart the two rungs that share one (rungMarker); rung 1 is tiled, its family's colour.
Rgba seriesColour(const Theme& t, Family f, int rung) {
  if (rung >= 2) return t.threadColours[4 + (rung - 2) % 4];
  switch (f.kind) {
    case Family::Kind::Live:  // the live sweep's kernels, in the list's order (naive, tiled, ...)
      return t.threadColours[f.live % 4];
    case Family::Kind::Lab:
      return t.highlight;
    case Family::Kind::Cublas:
    case Family::Kind::Other:
      return t.panelText;
  }
  return t.panelText;
}

Marker rungMarker(int rung) {
  constexpr Marker kMarkers[] = {Marker::Circle, Marker::Square, Marker::Triangle, Marker::TriangleDown, Marker::Cross};
  return kMarkers[(rung - 1 + 5) % 5];
}

namespace {

// A plot as laid out this frame: its sizes, colours, ranges and rectangles, shared by the
// stages of drawPlot below.
struct PlotFrame {
  ImDrawList* draw = nullptr;
  ImVec2 origin, size, mouse;
  float font = 0, line = 0, px = 0;
  Rgba text = 0, dim = 0, frame = 0, gridMajor = 0, gridMinor = 0, plotBg = 0;
  AxisRange xr, yr;
  float swatch = 0, legendEntryW = 0, yLabelSpacing = 0, xLabelW = 0, markerR = 0;
  bool legendRight = false;
  int legendColumns = 1;       // below the data
  int legendRightColumns = 1;  // at its right: two where one would run past the widget
  bool hovered = false, clicked = false;
  ImVec2 pMin, pMax, iMin, iMax;  // the data area, and inset by a marker
  std::vector<std::pair<ImVec2, ImVec2>> legend;
  bool mouseInData() const { return hovered && inside(mouse, pMin, pMax); }
  ImVec2 toScreen(double x, double y) const {
    return ImVec2(float(iMin.x + axisFraction(xr, x) * (iMax.x - iMin.x)),
                  float(iMax.y - axisFraction(yr, y) * (iMax.y - iMin.y)));
  }
};

// Ranges: every visible point and every reference line is inside.
void fitPlotRanges(PlotFrame& f, const PlotSpec& spec) {
  DataBounds bounds;
  for (const PlotSeries& s : spec.series)
    for (const PlotPoint& p : s.points) bounds.add(p.x, p.y);
  for (const PlotLine& l : spec.lines)
    bounds.yMin = std::min(bounds.yMin, l.y), bounds.yMax = std::max(bounds.yMax, l.y);
  if (!std::isfinite(bounds.xMin)) bounds.xMin = 1.0, bounds.xMax = 10.0;
  if (!std::isfinite(bounds.yMin)) bounds.yMin = 1.0, bounds.yMax = 10.0;
  f.xr = spec.xRange ? *spec.xRange : fitRange(bounds.xMin, bounds.xMax, spec.xScale);
  f.yr = spec.yRange ? *spec.yRange : fitRange(bounds.yMin, bounds.yMax, spec.yScale);
}

// Geometry: y labels left, titles above and below; the legend goes right while that leaves
// the data a useful width (a tall, narrow plot still reads; one squashed flat by a legend below
// it does not), else below in as many columns as fit. Takes the widget's room (its button).
void layOutPlot(PlotFrame& f, const PlotSpec& spec) {
  f.swatch = f.font * 2.0f;
  for (const PlotSeries& s : spec.series)
    f.legendEntryW = std::max(f.legendEntryW, f.swatch + ImGui::CalcTextSize(s.name.c_str()).x + f.font * 0.7f);
  f.yLabelSpacing = f.line * 1.4f;
  float yLabelW = 0.0f;
  for (const AxisTick& t : axisTicks(f.yr, f.size.y - 3.0f * f.line, f.yLabelSpacing))
    if (t.labelled) yLabelW = std::max(yLabelW, ImGui::CalcTextSize(t.label.c_str()).x);
  f.xLabelW = ImGui::CalcTextSize(formatNumber(f.xr.hi).c_str()).x;
  const float left = yLabelW + f.font * 0.7f, top = f.line * 1.25f;
  // At the right in two columns where one, closed up to a font's height an entry, would run
  // past the widget's bottom (ten series beside a projector's chart at 1920x1080).
  f.legendRightColumns = float(spec.series.size()) * f.font > f.size.y - top ? 2 : 1;
  const float legendRightW = f.legendEntryW * float(f.legendRightColumns) + f.font * 1.0f;
  f.legendRight = f.size.x - left - legendRightW >= std::max(6.0f * f.font, 0.25f * f.size.x);
  const float right = f.legendRight ? legendRightW : f.xLabelW * 0.5f + f.font * 0.6f;
  const float axisBottom = 2.0f * f.line + f.font * 0.3f;  // x labels and title
  float legendBelow = 0.0f;
  if (!f.legendRight && !spec.series.empty()) {
    f.legendColumns = std::max(1, int(f.size.x / std::max(f.legendEntryW, 1.0f)));
    const int rows = (int(spec.series.size()) + f.legendColumns - 1) / f.legendColumns;
    legendBelow = float(rows) * f.line + f.font * 0.3f;
  }
  // Too little height for a readable plot with the legend below it: the data and axes fill
  // what is visible and the legend moves below the fold (the window scrolls); never squash
  // the data below a minimum.
  float dataH = f.size.y - top - axisBottom - legendBelow;
  if (dataH < 9.0f * f.line) dataH = std::max(f.size.y - top - axisBottom, spec.minDataLines * f.line);
  f.size.y = top + dataH + axisBottom + legendBelow;
  ImGui::InvisibleButton(spec.id.c_str(), f.size);
  f.hovered = ImGui::IsItemHovered();
  f.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  f.pMin = ImVec2(std::round(f.origin.x + left), std::round(f.origin.y + top));
  f.pMax = ImVec2(std::round(f.origin.x + f.size.x - right), std::round(f.origin.y + top + dataH));
  // Markers at the ends of the ranges stay whole: data map into a rectangle inset by a marker.
  f.markerR = std::max(3.0f, f.font * 0.30f);
  const float inset = f.markerR + 3.0f * f.px;
  f.iMin = ImVec2(f.pMin.x + inset, f.pMin.y + inset), f.iMax = ImVec2(f.pMax.x - inset, f.pMax.y - inset);
  // The legend's rectangles (drawn last; needed now for hover emphasis). At the right, the
  // entries close up to a font's height where a line each would run past the widget's bottom
  // (the ladder's nine series beside a projector's chart: cuBLAS's entry lay under the table).
  const int rowsRight = (int(spec.series.size()) + f.legendRightColumns - 1) / f.legendRightColumns;
  const float room = f.origin.y + f.size.y - f.pMin.y;
  const float pitch = f.legendRight && rowsRight > 0 ? std::clamp(room / float(rowsRight), f.font, f.line) : f.line;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    ImVec2 at;
    if (f.legendRight) {
      const int col = int(i) / rowsRight, row = int(i) % rowsRight;
      at = ImVec2(f.pMax.x + f.font * 0.6f + float(col) * f.legendEntryW, f.pMin.y + float(row) * pitch);
    } else {
      const int col = int(i) % f.legendColumns, row = int(i) / f.legendColumns;
      at = ImVec2(f.origin.x + float(col) * f.legendEntryW, f.pMax.y + 2.0f * f.line + f.font * 0.3f + float(row) * f.line);
    }
    f.legend.emplace_back(at, ImVec2(at.x + f.legendEntryW, at.y + (f.legendRight ? pitch : f.line)));
  }
}

// Axes, grid, tick labels, titles.
void drawAxes(const PlotFrame& f, const PlotSpec& spec) {
  ImDrawList* draw = f.draw;
  draw->AddRectFilled(f.pMin, f.pMax, f.plotBg);
  for (const AxisTick& t : axisTicks(f.yr, f.iMax.y - f.iMin.y, f.yLabelSpacing)) {
    const float y = std::round(f.toScreen(f.xr.lo, t.value).y);
    draw->AddLine(ImVec2(f.pMin.x, y), ImVec2(f.pMax.x, y), t.labelled ? f.gridMajor : f.gridMinor, f.px);
    if (!t.labelled) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(ImVec2(f.pMin.x - f.font * 0.4f - ts.x, y - ts.y * 0.5f), f.dim, t.label.c_str());
  }
  for (const AxisTick& t : axisTicks(f.xr, f.iMax.x - f.iMin.x, f.xLabelW + f.font * 1.2f)) {
    const float x = std::round(f.toScreen(t.value, f.yr.lo).x);
    draw->AddLine(ImVec2(x, f.pMin.y), ImVec2(x, f.pMax.y), t.labelled ? f.gridMajor : f.gridMinor, f.px);
    if (!t.labelled) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(ImVec2(x - ts.x * 0.5f, f.pMax.y + f.font * 0.2f), f.dim, t.label.c_str());
  }
  draw->AddRect(f.pMin, f.pMax, f.frame, 0.0f, 0, f.px);
  draw->AddText(ImVec2(f.origin.x, f.origin.y), f.text, spec.yTitle.c_str());
  const ImVec2 xt = ImGui::CalcTextSize(spec.xTitle.c_str());
  draw->AddText(ImVec2((f.pMin.x + f.pMax.x - xt.x) * 0.5f, f.pMax.y + f.line + f.font * 0.1f), f.text, spec.xTitle.c_str());
}

// The paths (roofs), each with its label just inside its right end; returns them as drawn and
// the one under the pointer.
const PlotPath* drawPaths(const PlotFrame& f, const PlotSpec& spec, std::vector<PlotPathRect>& rects,
                          std::vector<std::vector<ImVec2>>& drawn) {
  const PlotPath* hoveredPath = nullptr;
  for (const PlotPath& path : spec.paths) {
    PlotPathRect rect{path.label, path.colour, {}};
    std::vector<ImVec2> pts;
    for (auto [x, y] : path.points) {
      pts.push_back(f.toScreen(x, y));
      rect.points.push_back({x, y, pts.back().x, pts.back().y, {}});
    }
    for (std::size_t i = 1; i < pts.size(); ++i) {
      if (path.dashed) dashedLine(f.draw, pts[i - 1], pts[i], path.colour, 1.5f * f.px + 0.5f, f.font * 0.6f);
      else f.draw->AddLine(pts[i - 1], pts[i], path.colour, 2.2f * f.px);
      if (f.mouseInData() &&
          distanceToSegment({f.mouse.x, f.mouse.y}, {pts[i - 1].x, pts[i - 1].y}, {pts[i].x, pts[i].y}) <= f.font * 0.4f)
        hoveredPath = &path;
    }
    if (!pts.empty() && !path.label.empty() && path.labelOnPlot) {
      const ImVec2 ts = ImGui::CalcTextSize(path.label.c_str());
      const ImVec2 end(std::min(pts.back().x, f.pMax.x), std::clamp(pts.back().y, f.pMin.y, f.pMax.y));
      // Never left of the data area (a path near its left edge has its label across it); above
      // the path's end, or under it where the path runs too near the top (a label on the line
      // would hide the roof it names).
      const float above = end.y - ts.y - f.font * 0.2f;
      const ImVec2 at(std::max(f.pMin.x + f.font * 0.2f, end.x - ts.x - f.font * 0.4f),
                      above >= f.pMin.y + 1.0f ? above : std::min(end.y + f.font * 0.3f, f.pMax.y - ts.y));
      f.draw->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), withAlpha(f.plotBg, 0.85f));
      f.draw->AddText(at, path.colour, path.label.c_str());
    }
    rects.push_back(std::move(rect));
    drawn.push_back(std::move(pts));
  }
  return hoveredPath;
}

// Where a reference line's label of size `ts` goes: above the line at the right, else below it,
// else the same at the left: the first place inside the plot that no path or series runs
// through, so the label never covers what it is compared with (a ceiling's series reach it at
// the right). None free: above at the right, and `free` is false.
ImVec2 labelPlace(const PlotFrame& f, const std::vector<std::vector<ImVec2>>& obstacles, float y, ImVec2 ts, bool& free) {
  const float right = std::max(f.pMin.x + f.font * 0.2f, f.pMax.x - ts.x - f.font * 0.4f), left = f.pMin.x + f.font * 0.4f;
  const float above = y - ts.y - f.font * 0.15f, below = y + f.font * 0.2f;
  free = true;
  for (const ImVec2 candidate : {ImVec2(right, above), ImVec2(right, below), ImVec2(left, above), ImVec2(left, below)}) {
    if (candidate.y < f.pMin.y || candidate.y + ts.y > f.pMax.y) continue;
    if (crossesAny(obstacles, ImVec2(candidate.x - 2, candidate.y), ImVec2(candidate.x + ts.x + 2, candidate.y + ts.y))) continue;
    return candidate;
  }
  free = false;
  return ImVec2(right, std::max(above, f.pMin.y));
}

// The reference lines, each labelled where no path or series runs (`obstacles`): the long label
// where it fits the data's width and finds a free place, else the short one (the ladder's FP32
// peak, which cuBLAS's points reach at the right and at N = 1,024 on a projector's chart).
std::vector<PlotLineRect> drawReferenceLines(const PlotFrame& f, const PlotSpec& spec,
                                             const std::vector<std::vector<ImVec2>>& obstacles) {
  std::vector<PlotLineRect> lineRects;
  for (const PlotLine& l : spec.lines) {
    const float y = std::round(f.toScreen(f.xr.lo, l.y).y);
    dashedLine(f.draw, ImVec2(f.pMin.x, y), ImVec2(f.pMax.x, y), l.colour, 1.5f * f.px + 0.5f, f.font * 0.6f);
    const bool fits = ImGui::CalcTextSize(l.label.c_str()).x + f.font * 0.6f <= f.pMax.x - f.pMin.x;
    const std::string* text = fits || l.shortLabel.empty() ? &l.label : &l.shortLabel;
    ImVec2 ts = ImGui::CalcTextSize(text->c_str());
    bool free = false;
    ImVec2 at = labelPlace(f, obstacles, y, ts, free);
    if (!free && text != &l.shortLabel && !l.shortLabel.empty()) {
      const ImVec2 shortSize = ImGui::CalcTextSize(l.shortLabel.c_str());
      if (const ImVec2 s = labelPlace(f, obstacles, y, shortSize, free); free) text = &l.shortLabel, ts = shortSize, at = s;
    }
    // No free place inside the data (a low chart whose series run just under a ceiling near its
    // top): over the data's top edge at the right, in the band above it, where it covers nothing.
    const bool overTop = !free && y - f.pMin.y < f.font * 2.0f;
    if (overTop) {
      if (!l.shortLabel.empty()) text = &l.shortLabel, ts = ImGui::CalcTextSize(text->c_str());
      at = ImVec2(std::max(f.pMin.x + f.font * 0.2f, f.pMax.x - ts.x - f.font * 0.4f), f.pMin.y - ts.y);
      f.draw->PushClipRect(ImVec2(f.pMin.x, at.y), f.pMax, false);  // the data's clip, and the band
    }
    f.draw->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), withAlpha(f.plotBg, 0.85f));
    f.draw->AddText(at, l.colour, text->c_str());
    if (overTop) f.draw->PopClipRect();
    lineRects.push_back({l.label, l.y, y, l.colour, *text, at.x, at.y, ts.x, ts.y});
  }
  return lineRects;
}

// The series' polylines, then every marker (so no line crosses a marker and each point keeps
// its colour), the hovered point ringed.
void drawSeries(const PlotFrame& f, const PlotSpec& spec, const std::vector<std::vector<PlotVec>>& screen, int emphasised,
                const std::optional<NearestHit>& hovered) {
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const PlotSeries& series = spec.series[s];
    std::vector<ImVec2> pts;
    for (const PlotVec& v : screen[s]) pts.emplace_back(float(v.x), float(v.y));
    const float width = (series.emphasised ? 2.6f : 1.8f) * f.px + (int(s) == emphasised ? 1.5f * f.px : 0.0f);
    const float dash = seriesDash(s, f.px);
    if (pts.size() > 1 && dash <= 0.0f) f.draw->AddPolyline(pts.data(), int(pts.size()), series.colour, 0, width);
    else
      for (std::size_t i = 1; i < pts.size(); ++i) seriesLine(f.draw, pts[i - 1], pts[i], series.colour, width, dash);
  }
  for (std::size_t s = 0; s < spec.series.size(); ++s)
    for (const PlotVec& v : screen[s])
      drawHaloMarker(f.draw, spec.series[s].marker, ImVec2(float(v.x), float(v.y)), f.markerR, spec.series[s].colour,
                     f.plotBg, 1.5f * f.px);
  if (hovered) {
    const PlotVec v = screen[hovered->series][hovered->point];
    f.draw->AddCircle(ImVec2(float(v.x), float(v.y)), f.markerR + 4.0f * f.px, f.text, 20, 1.5f * f.px);
  }
}

// The legend: a line through the series' marker, then its name.
void drawLegend(const PlotFrame& f, const PlotSpec& spec, int emphasised) {
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& s = spec.series[i];
    const auto [lo, hi] = f.legend[i];
    if (int(i) == emphasised) f.draw->AddRectFilled(lo, hi, withAlpha(f.text, 0.10f), 3.0f);
    const float cy = (lo.y + hi.y) * 0.5f;
    seriesLine(f.draw, ImVec2(lo.x + f.font * 0.2f, cy), ImVec2(lo.x + f.swatch - f.font * 0.4f, cy), s.colour,
               (s.emphasised ? 2.6f : 1.8f) * f.px, seriesDash(i, f.px));
    drawHaloMarker(f.draw, s.marker, ImVec2(lo.x + f.swatch * 0.5f - f.font * 0.1f, cy), f.markerR, s.colour, f.plotBg, f.px);
    f.draw->AddText(ImVec2(lo.x + f.swatch, cy - f.font * 0.5f), f.text, s.name.c_str());
  }
}

// What the layout file reports of the plot.
PlotRect plotRect(const PlotFrame& f, const PlotSpec& spec, const std::vector<std::vector<PlotVec>>& screen,
                  std::vector<PlotLineRect> lineRects, std::vector<PlotPathRect> pathRects) {
  PlotRect rect{spec.id,    spec.note, f.pMin.x, f.pMin.y, f.pMax.x - f.pMin.x, f.pMax.y - f.pMin.y, {}, std::move(lineRects),
                spec.hidden, std::move(pathRects), f.xr.lo, f.xr.hi, f.yr.lo, f.yr.hi};
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const auto& [lo, hi] = f.legend[s];
    PlotSeriesRect r{spec.series[s].name, spec.series[s].colour, {}, lo.x, lo.y, hi.x - lo.x, hi.y - lo.y,
                     spec.series[s].marker};
    for (std::size_t i = 0; i < screen[s].size(); ++i)
      r.points.push_back({spec.series[s].points[i].x, spec.series[s].points[i].y, float(screen[s][i].x),
                          float(screen[s][i].y), spec.series[s].points[i].detail});
    rect.series.push_back(std::move(r));
  }
  return rect;
}

}  // namespace

PlotInteraction drawPlot(const PlotSpec& spec, const Theme& theme, FrameLayout& layout) {
  PlotInteraction out;
  PlotFrame f;
  f.draw = ImGui::GetWindowDrawList();
  f.origin = ImGui::GetCursorScreenPos();
  f.size = ImVec2(std::max(spec.size.x, 160.0f), std::max(spec.size.y, 120.0f));
  f.mouse = ImGui::GetIO().MousePos;
  f.font = ImGui::GetFontSize();
  f.line = ImGui::GetTextLineHeightWithSpacing();
  f.px = theme.outlinePx;  // 1 normal, 2 in presentation mode
  f.text = theme.panelText, f.dim = withAlpha(f.text, 0.75f), f.frame = withAlpha(f.text, 0.45f);
  f.gridMajor = withAlpha(f.text, 0.17f), f.gridMinor = withAlpha(f.text, 0.07f), f.plotBg = theme.background;
  fitPlotRanges(f, spec);
  layOutPlot(f, spec);
  drawAxes(f, spec);
  int emphasised = -1;
  for (std::size_t i = 0; i < f.legend.size(); ++i)
    if (f.hovered && inside(f.mouse, f.legend[i].first, f.legend[i].second)) emphasised = int(i);

  // Data: reference lines, then series in order (later ones on top).
  std::vector<std::vector<PlotVec>> screen(spec.series.size());
  for (std::size_t s = 0; s < spec.series.size(); ++s)
    for (const PlotPoint& p : spec.series[s].points) {
      const ImVec2 v = f.toScreen(p.x, p.y);
      screen[s].push_back({v.x, v.y});
    }
  if (f.mouseInData()) out.hovered = nearestPoint(screen, {f.mouse.x, f.mouse.y}, f.font * 1.2);
  if (out.hovered) emphasised = out.hovered->series;
  const PlotLine* hoveredLine = nullptr;
  if (f.mouseInData())
    for (const PlotLine& l : spec.lines)
      if (std::abs(f.toScreen(f.xr.lo, l.y).y - f.mouse.y) <= f.font * 0.4f) hoveredLine = &l;
  f.draw->PushClipRect(f.pMin, f.pMax, true);
  std::vector<PlotPathRect> pathRects;
  std::vector<std::vector<ImVec2>> obstacles;  // on screen, so that a line's label avoids them
  const PlotPath* hoveredPath = drawPaths(f, spec, pathRects, obstacles);
  for (const auto& points : screen) {  // the series' polylines too
    std::vector<ImVec2>& pts = obstacles.emplace_back();
    for (const PlotVec& v : points) pts.emplace_back(float(v.x), float(v.y));
  }
  std::vector<PlotLineRect> lineRects = drawReferenceLines(f, spec, obstacles);
  drawSeries(f, spec, screen, emphasised, out.hovered);
  f.draw->PopClipRect();
  drawLegend(f, spec, emphasised);

  // Read-out and legend clicks.
  if (out.hovered) {
    const PlotSeries& s = spec.series[out.hovered->series];
    const PlotPoint& p = s.points[out.hovered->point];
    std::string readout = s.name + "\n" + spec.xName + " = " + formatNumber(p.x) + "\n" + formatNumber(p.y) + " " + spec.yName;
    if (!p.detail.empty()) readout += "\n" + p.detail;
    tooltip(readout);
  } else if (const PlotLine* l = hoveredLine) {
    tooltip(l->label + (l->detail.empty() ? "" : "\n" + l->detail));
  } else if (const PlotPath* path = hoveredPath) {
    tooltip(path->label + (path->detail.empty() ? "" : "\n" + path->detail));
  } else if (emphasised >= 0) {
    tooltip(spec.series[emphasised].name + ": click to hide it");
    if (f.clicked) out.legendClicked = emphasised;
  }
  layout.plots.push_back(plotRect(f, spec, screen, std::move(lineRects), std::move(pathRects)));
  return out;
}

void writePlotsJson(JsonWriter& j, const std::vector<PlotRect>& plots) {
  j.beginArray();
  for (const PlotRect& p : plots) {
    j.beginObject().field("name", p.name).field("note", p.note);
    j.field("x", double(p.x)).field("y", double(p.y)).field("width", double(p.width)).field("height", double(p.height));
    j.key("series").beginArray();
    for (const PlotSeriesRect& s : p.series) {
      j.beginObject().field("name", s.name).field("colour", hexColour(s.colour)).field("marker", int(s.marker));
      j.key("legend").beginObject().field("x", double(s.legendX)).field("y", double(s.legendY));
      j.field("width", double(s.legendWidth)).field("height", double(s.legendHeight)).endObject();
      j.key("points").beginArray();
      for (const PlotPointRect& q : s.points)
        j.beginObject().field("x", q.x).field("y", q.y).field("px", double(q.px)).field("py", double(q.py))
            .field("detail", q.detail).endObject();
      j.endArray().endObject();
    }
    j.endArray();
    j.key("lines").beginArray();
    for (const PlotLineRect& l : p.lines)
      j.beginObject()
          .field("label", l.label)
          .field("y", l.y)
          .field("py", double(l.py))
          .field("colour", hexColour(l.colour))
          .field("drawn", l.drawn)
          .field("lx", double(l.lx))
          .field("ly", double(l.ly))
          .field("lwidth", double(l.lwidth))
          .field("lheight", double(l.lheight))
          .endObject();
    j.endArray();
    j.key("hidden").beginArray();
    for (const std::string& h : p.hidden) j.value(h);
    j.endArray();
    j.key("paths").beginArray();
    for (const PlotPathRect& path : p.paths) {
      j.beginObject().field("label", path.label).field("colour", hexColour(path.colour));
      j.key("points").beginArray();
      for (const PlotPointRect& q : path.points)
        j.beginObject().field("x", q.x).field("y", q.y).field("px", double(q.px)).field("py", double(q.py)).endObject();
      j.endArray().endObject();
    }
    j.endArray();
    j.key("range").beginObject().field("x_lo", p.xLo).field("x_hi", p.xHi).field("y_lo", p.yLo).field("y_hi", p.yHi);
    j.endObject().endObject();
  }
  j.endArray();
}

void shortenRungNames(std::vector<std::string>& names) {
  auto shortName = [](const std::string& name) {
    const std::size_t space = name.find(' ');
    return space != std::string::npos && name.find('/', space) != std::string::npos ? name.substr(0, space) : name;
  };
  std::vector<std::string> shortNames;
  for (const std::string& name : names) shortNames.push_back(shortName(name));
  for (std::size_t i = 0; i < names.size(); ++i)
    if (std::count(shortNames.begin(), shortNames.end(), shortNames[i]) == 1) names[i] = shortNames[i];
}

void shortenRungNames(std::vector<PlotSeries>& series) {
  std::vector<std::string> names;
  for (const PlotSeries& s : series) names.push_back(s.name);
  shortenRungNames(names);
  for (std::size_t i = 0; i < series.size(); ++i) series[i].name = names[i];
}

}  // namespace tilescope::ui
