// A small line-and-marker plot drawn with ImDrawList (ImPlot is not packaged in Debian):
// linear or logarithmic axes with nice ticks, several series with markers, labelled
// horizontal reference lines, a legend whose entries hide their series when clicked, and a
// read-out of the point nearest the pointer. Colours come from the caller, who takes them
// from the Theme, so palettes and presentation mode apply. The arithmetic is plot_math.*.
#pragma once
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "ui/model/plot_math.h"
#include "ui/theme.h"
#include "ui/model/timing_model.h"

namespace tilescope {
class JsonWriter;
}

namespace tilescope::ui {

struct FrameLayout;

struct PlotPoint {
  double x = 0.0, y = 0.0;
  std::string detail;  // extra read-out lines for this point ("14.94 ms per launch")
};

struct PlotSeries {
  std::string name;
  Rgba colour = 0;
  Marker marker = Marker::Circle;
  bool emphasised = false;  // drawn thicker (a reference series such as cuBLAS)
  std::vector<PlotPoint> points;
};

struct PlotLine {  // horizontal reference line, dashed, its label at the right end
  std::string label;
  double y = 0.0;
  Rgba colour = 0;
  std::string detail;      // read-out when the pointer is on the line ("how the peak was derived")
  std::string shortLabel;  // drawn instead where the label is wider than the data (a narrow chart)
};

struct PlotPath {  // a polyline in data space, solid or dashed, labelled at its last point
  std::string label;
  std::vector<std::pair<double, double>> points;
  Rgba colour = 0;
  bool dashed = false;
  std::string detail;  // read-out when the pointer is on it
  bool labelOnPlot = true;  // false: the caller says elsewhere what it is (the layout file still names it)
};

struct PlotSpec {
  std::string id;  // unique on screen; names the plot in the layout file
  std::string xTitle, yTitle;
  std::string xName, yName;  // in the read-out: "N = 4,096", "9,200 GFLOP/s"
  AxisScale xScale = AxisScale::Linear, yScale = AxisScale::Linear;
  std::vector<PlotSeries> series;  // only the visible ones
  std::vector<PlotLine> lines;
  std::vector<PlotPath> paths;  // drawn under the lines and series; not part of the fitted range
  // The axes' ranges; by default fitted to the points and lines (fitRange).
  std::optional<AxisRange> xRange, yRange;
  std::vector<std::string> hidden;  // names of series not drawn (recorded in the layout only)
  std::string note;                 // the data's provenance, recorded in the layout file
  ImVec2 size;                      // the whole widget: axes, labels and legend
  float minDataLines = 6.0f;        // the data's least height, in lines (the widget grows past `size` to keep it)
};

struct PlotInteraction {
  std::optional<int> legendClicked;  // index into spec.series
  std::optional<NearestHit> hovered;
};

// The colour of a timing series, shared by the Timing and Roofline panels: one per kernel
// family, so a series keeps its colour whatever else is shown (cuBLAS, the reference, in the
// text colour); rungs of the ladder past fig. 5.9 get their own. And a rung's marker.
Rgba seriesColour(const Theme& theme, Family family, int rung);
Marker rungMarker(int rung);

// Draws at the cursor and advances it by spec.size; records the plot in `layout`.
PlotInteraction drawPlot(const PlotSpec& spec, const Theme& theme, FrameLayout& layout);

// On a projector a rung is named by its kernel alone ("coarsened" for "coarsened
// 32x128x32/1x4"; the tiling is in each point's read-out and tooltip) where no other name
// shares that kernel: the Roofline's legend beside the chart, the ladder's table on the screen.
void shortenRungNames(std::vector<std::string>& names);
void shortenRungNames(std::vector<PlotSeries>& series);

// The "plots" array of the layout file.
void writePlotsJson(JsonWriter& json, const std::vector<PlotRect>& plots);

}  // namespace tilescope::ui
