#include "ui/panels/plot_widget.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/state/app_state.h"
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

PlotInteraction drawPlot(const PlotSpec& spec, const Theme& theme, FrameLayout& layout) {
  PlotInteraction out;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 size(std::max(spec.size.x, 160.0f), std::max(spec.size.y, 120.0f));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float font = ImGui::GetFontSize();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float px = theme.outlinePx;  // 1 normal, 2 in presentation mode
  const Rgba text = theme.panelText, dim = withAlpha(text, 0.75f), frame = withAlpha(text, 0.45f);
  const Rgba gridMajor = withAlpha(text, 0.17f), gridMinor = withAlpha(text, 0.07f), plotBg = theme.background;

  // --- Ranges: every visible point and every reference line is inside. ---
  DataBounds bounds;
  for (const PlotSeries& s : spec.series)
    for (const PlotPoint& p : s.points) bounds.add(p.x, p.y);
  for (const PlotLine& l : spec.lines)
    bounds.yMin = std::min(bounds.yMin, l.y), bounds.yMax = std::max(bounds.yMax, l.y);
  if (!std::isfinite(bounds.xMin)) bounds.xMin = 1.0, bounds.xMax = 10.0;
  if (!std::isfinite(bounds.yMin)) bounds.yMin = 1.0, bounds.yMax = 10.0;
  const AxisRange xr = spec.xRange ? *spec.xRange : fitRange(bounds.xMin, bounds.xMax, spec.xScale);
  const AxisRange yr = spec.yRange ? *spec.yRange : fitRange(bounds.yMin, bounds.yMax, spec.yScale);

  // --- Geometry: y labels left, titles above and below; the legend goes right while that
  // leaves the data a useful width (a tall, narrow plot still reads; one squashed flat by a
  // legend below it does not), else below in as many columns as fit. ---
  const float swatch = font * 2.0f;
  float legendEntryW = 0.0f;
  for (const PlotSeries& s : spec.series)
    legendEntryW = std::max(legendEntryW, swatch + ImGui::CalcTextSize(s.name.c_str()).x + font * 0.7f);
  const float yLabelSpacing = line * 1.4f;
  float yLabelW = 0.0f;
  for (const AxisTick& t : axisTicks(yr, size.y - 3.0f * line, yLabelSpacing))
    if (t.labelled) yLabelW = std::max(yLabelW, ImGui::CalcTextSize(t.label.c_str()).x);
  const float xLabelW = ImGui::CalcTextSize(formatNumber(xr.hi).c_str()).x;
  const float left = yLabelW + font * 0.7f;
  const float top = line * 1.25f;
  const float legendRightW = legendEntryW + font * 1.0f;
  const bool legendRight = size.x - left - legendRightW >= std::max(6.0f * font, 0.25f * size.x);
  const float right = legendRight ? legendRightW : xLabelW * 0.5f + font * 0.6f;
  const float axisBottom = 2.0f * line + font * 0.3f;  // x labels and title
  float legendBelow = 0.0f;
  int legendColumns = 1;
  if (!legendRight && !spec.series.empty()) {
    legendColumns = std::max(1, int(size.x / std::max(legendEntryW, 1.0f)));
    const int rows = (int(spec.series.size()) + legendColumns - 1) / legendColumns;
    legendBelow = float(rows) * line + font * 0.3f;
  }
  // Too little height for a readable plot with the legend below it: the data and axes fill
  // what is visible and the legend moves below the fold (the window scrolls); never squash
  // the data below a minimum.
  float dataH = size.y - top - axisBottom - legendBelow;
  if (dataH < 9.0f * line) dataH = std::max(size.y - top - axisBottom, 6.0f * line);
  size.y = top + dataH + axisBottom + legendBelow;
  ImGui::InvisibleButton(spec.id.c_str(), size);
  const bool widgetHovered = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  const ImVec2 pMin(std::round(origin.x + left), std::round(origin.y + top));
  const ImVec2 pMax(std::round(origin.x + size.x - right), std::round(origin.y + top + dataH));
  // Markers at the ends of the ranges stay whole: data map into a rectangle inset by a marker.
  const float markerR = std::max(3.0f, font * 0.30f);
  const float inset = markerR + 3.0f * px;
  const ImVec2 iMin(pMin.x + inset, pMin.y + inset), iMax(pMax.x - inset, pMax.y - inset);
  auto toScreen = [&](double x, double y) {
    return ImVec2(float(iMin.x + axisFraction(xr, x) * (iMax.x - iMin.x)),
                  float(iMax.y - axisFraction(yr, y) * (iMax.y - iMin.y)));
  };

  // --- Axes, grid, tick labels, titles. ---
  draw->AddRectFilled(pMin, pMax, plotBg);
  for (const AxisTick& t : axisTicks(yr, iMax.y - iMin.y, yLabelSpacing)) {
    const float y = std::round(toScreen(xr.lo, t.value).y);
    draw->AddLine(ImVec2(pMin.x, y), ImVec2(pMax.x, y), t.labelled ? gridMajor : gridMinor, px);
    if (!t.labelled) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(ImVec2(pMin.x - font * 0.4f - ts.x, y - ts.y * 0.5f), dim, t.label.c_str());
  }
  for (const AxisTick& t : axisTicks(xr, iMax.x - iMin.x, xLabelW + font * 1.2f)) {
    const float x = std::round(toScreen(t.value, yr.lo).x);
    draw->AddLine(ImVec2(x, pMin.y), ImVec2(x, pMax.y), t.labelled ? gridMajor : gridMinor, px);
    if (!t.labelled) continue;
    const ImVec2 ts = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(ImVec2(x - ts.x * 0.5f, pMax.y + font * 0.2f), dim, t.label.c_str());
  }
  draw->AddRect(pMin, pMax, frame, 0.0f, 0, px);
  draw->AddText(ImVec2(origin.x, origin.y), text, spec.yTitle.c_str());
  const ImVec2 xt = ImGui::CalcTextSize(spec.xTitle.c_str());
  draw->AddText(ImVec2((pMin.x + pMax.x - xt.x) * 0.5f, pMax.y + line + font * 0.1f), text, spec.xTitle.c_str());

  // --- Legend rectangles (drawn last; needed now for hover emphasis). ---
  std::vector<std::pair<ImVec2, ImVec2>> legend;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    ImVec2 at;
    if (legendRight) {
      at = ImVec2(pMax.x + font * 0.6f, pMin.y + float(i) * line);
    } else {
      const int col = int(i) % legendColumns, row = int(i) / legendColumns;
      at = ImVec2(origin.x + float(col) * legendEntryW, pMax.y + 2.0f * line + font * 0.3f + float(row) * line);
    }
    legend.emplace_back(at, ImVec2(at.x + legendEntryW, at.y + line));
  }
  int emphasised = -1;
  for (std::size_t i = 0; i < legend.size(); ++i)
    if (widgetHovered && inside(mouse, legend[i].first, legend[i].second)) emphasised = int(i);

  // --- Data: reference lines, then series in order (later ones on top). ---
  std::vector<std::vector<PlotVec>> screen(spec.series.size());
  for (std::size_t s = 0; s < spec.series.size(); ++s)
    for (const PlotPoint& p : spec.series[s].points) {
      const ImVec2 v = toScreen(p.x, p.y);
      screen[s].push_back({v.x, v.y});
    }
  if (widgetHovered && inside(mouse, pMin, pMax)) out.hovered = nearestPoint(screen, {mouse.x, mouse.y}, font * 1.2);
  if (out.hovered) emphasised = out.hovered->series;

  const PlotLine* hoveredLine = nullptr;
  if (widgetHovered && inside(mouse, pMin, pMax))
    for (const PlotLine& l : spec.lines)
      if (std::abs(toScreen(xr.lo, l.y).y - mouse.y) <= font * 0.4f) hoveredLine = &l;
  const PlotPath* hoveredPath = nullptr;
  draw->PushClipRect(pMin, pMax, true);
  std::vector<PlotPathRect> pathRects;
  std::vector<std::vector<ImVec2>> drawnPaths;  // on screen, so that a line's label avoids them
  for (const PlotPath& path : spec.paths) {
    PlotPathRect rect{path.label, path.colour, {}};
    std::vector<ImVec2> pts;
    for (auto [x, y] : path.points) {
      pts.push_back(toScreen(x, y));
      rect.points.push_back({x, y, pts.back().x, pts.back().y, {}});
    }
    for (std::size_t i = 1; i < pts.size(); ++i) {
      if (path.dashed) dashedLine(draw, pts[i - 1], pts[i], path.colour, 1.5f * px + 0.5f, font * 0.6f);
      else draw->AddLine(pts[i - 1], pts[i], path.colour, 2.2f * px);
      if (widgetHovered && inside(mouse, pMin, pMax) &&
          distanceToSegment({mouse.x, mouse.y}, {pts[i - 1].x, pts[i - 1].y}, {pts[i].x, pts[i].y}) <= font * 0.4f)
        hoveredPath = &path;
    }
    if (!pts.empty() && !path.label.empty() && path.labelOnPlot) {  // the label just inside the right end, above the path
      const ImVec2 ts = ImGui::CalcTextSize(path.label.c_str());
      const ImVec2 end(std::min(pts.back().x, pMax.x), std::clamp(pts.back().y, pMin.y, pMax.y));
      // (never left of the data area: a path near its left edge has its label across it)
      // Above the path's end, or under it where the path runs too near the top (a label on the
      // line would hide the roof it names).
      const float above = end.y - ts.y - font * 0.2f;
      const ImVec2 at(std::max(pMin.x + font * 0.2f, end.x - ts.x - font * 0.4f),
                      above >= pMin.y + 1.0f ? above : std::min(end.y + font * 0.3f, pMax.y - ts.y));
      draw->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), withAlpha(plotBg, 0.85f));
      draw->AddText(at, path.colour, path.label.c_str());
    }
    pathRects.push_back(std::move(rect));
    drawnPaths.push_back(std::move(pts));
  }
  std::vector<PlotLineRect> lineRects;
  // What a line's label must not cover: the paths (roofs) and the series' polylines.
  std::vector<std::vector<ImVec2>> obstacles = drawnPaths;
  for (const auto& points : screen) {
    std::vector<ImVec2>& pts = obstacles.emplace_back();
    for (const PlotVec& v : points) pts.emplace_back(float(v.x), float(v.y));
  }
  for (const PlotLine& l : spec.lines) {
    const float y = std::round(toScreen(xr.lo, l.y).y);
    dashedLine(draw, ImVec2(pMin.x, y), ImVec2(pMax.x, y), l.colour, 1.5f * px + 0.5f, font * 0.6f);
    const ImVec2 ts = ImGui::CalcTextSize(l.label.c_str());
    // Above the line at the right, else below it, else the same at the left: the first place
    // inside the plot that no path or series runs through, so the label never covers what it
    // is compared with (a ceiling's series reach it at the right); above at the right if none.
    const float right = std::max(pMin.x + font * 0.2f, pMax.x - ts.x - font * 0.4f), left = pMin.x + font * 0.4f;
    const float above = y - ts.y - font * 0.15f, below = y + font * 0.2f;
    ImVec2 at(right, std::max(above, pMin.y));
    for (const ImVec2 candidate : {ImVec2(right, above), ImVec2(right, below), ImVec2(left, above), ImVec2(left, below)}) {
      if (candidate.y < pMin.y || candidate.y + ts.y > pMax.y) continue;
      if (crossesAny(obstacles, ImVec2(candidate.x - 2, candidate.y), ImVec2(candidate.x + ts.x + 2, candidate.y + ts.y))) continue;
      at = candidate;
      break;
    }
    draw->AddRectFilled(ImVec2(at.x - 2, at.y), ImVec2(at.x + ts.x + 2, at.y + ts.y), withAlpha(plotBg, 0.85f));
    draw->AddText(at, l.colour, l.label.c_str());
    lineRects.push_back({l.label, l.y, y, l.colour});
  }
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    const PlotSeries& series = spec.series[s];
    std::vector<ImVec2> pts;
    for (const PlotVec& v : screen[s]) pts.emplace_back(float(v.x), float(v.y));
    const float width = (series.emphasised ? 2.6f : 1.8f) * px + (int(s) == emphasised ? 1.5f * px : 0.0f);
    if (pts.size() > 1) draw->AddPolyline(pts.data(), int(pts.size()), series.colour, 0, width);
  }
  // Markers after every line, so no line crosses a marker and each point keeps its colour.
  for (std::size_t s = 0; s < spec.series.size(); ++s)
    for (const PlotVec& v : screen[s])
      drawHaloMarker(draw, spec.series[s].marker, ImVec2(float(v.x), float(v.y)), markerR, spec.series[s].colour,
                     plotBg, 1.5f * px);
  if (out.hovered) {
    const PlotVec v = screen[out.hovered->series][out.hovered->point];
    draw->AddCircle(ImVec2(float(v.x), float(v.y)), markerR + 4.0f * px, text, 20, 1.5f * px);
  }
  draw->PopClipRect();

  // --- Legend: a line through the series' marker, then its name. ---
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& s = spec.series[i];
    const auto [lo, hi] = legend[i];
    if (int(i) == emphasised) draw->AddRectFilled(lo, hi, withAlpha(text, 0.10f), 3.0f);
    const float cy = (lo.y + hi.y) * 0.5f;
    draw->AddLine(ImVec2(lo.x + font * 0.2f, cy), ImVec2(lo.x + swatch - font * 0.4f, cy), s.colour,
                  (s.emphasised ? 2.6f : 1.8f) * px);
    drawHaloMarker(draw, s.marker, ImVec2(lo.x + swatch * 0.5f - font * 0.1f, cy), markerR, s.colour, plotBg, px);
    draw->AddText(ImVec2(lo.x + swatch, cy - font * 0.5f), text, s.name.c_str());
  }

  // --- Read-out and legend clicks. ---
  if (out.hovered) {
    const PlotSeries& s = spec.series[out.hovered->series];
    const PlotPoint& p = s.points[out.hovered->point];
    std::string readout =
        s.name + "\n" + spec.xName + " = " + formatNumber(p.x) + "\n" + formatNumber(p.y) + " " + spec.yName;
    if (!p.detail.empty()) readout += "\n" + p.detail;
    tooltip(readout);
  } else if (const PlotLine* l = hoveredLine) {
    tooltip(l->label + (l->detail.empty() ? "" : "\n" + l->detail));
  } else if (const PlotPath* path = hoveredPath) {
    tooltip(path->label + (path->detail.empty() ? "" : "\n" + path->detail));
  } else if (emphasised >= 0) {
    tooltip(spec.series[emphasised].name + ": click to hide it");
    if (clicked) out.legendClicked = emphasised;
  }

  // --- What the layout file reports. ---
  PlotRect rect{spec.id,    spec.note, pMin.x, pMin.y, pMax.x - pMin.x, pMax.y - pMin.y, {}, std::move(lineRects),
                spec.hidden, std::move(pathRects), xr.lo, xr.hi, yr.lo, yr.hi};
  for (std::size_t s = 0; s < spec.series.size(); ++s) {
    PlotSeriesRect r{spec.series[s].name,
                     spec.series[s].colour,
                     {},
                     legend[s].first.x,
                     legend[s].first.y,
                     legend[s].second.x - legend[s].first.x,
                     legend[s].second.y - legend[s].first.y,
                     spec.series[s].marker};
    for (std::size_t i = 0; i < screen[s].size(); ++i)
      r.points.push_back({spec.series[s].points[i].x, spec.series[s].points[i].y, float(screen[s][i].x),
                          float(screen[s][i].y), spec.series[s].points[i].detail});
    rect.series.push_back(std::move(r));
  }
  layout.plots.push_back(std::move(rect));
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
