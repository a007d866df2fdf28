// Roofline (ch. 5.1): attainable GFLOPS against OP/B on log-log axes, the two ceilings of the
// analysis profile the panels share (measured on this GPU when there is one) and this run's
// point (its intensity counted from the trace).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "panels.h"

namespace tilescope::ui {

void drawRooflinePanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  const AnalysisReport& a = *analysis;
  drawAnalysisProfileChoice(ctx);
  const DeviceProfile d = analysisProfile(ctx.state.analysis).profile;
  const RooflinePoint point = rooflinePoint(d, std::string(kernelInfo(run->run.config.kernel).name), a.traffic.intensity());
  ImGui::TextWrapped("ceilings: %.0f GB/s, %.0f GFLOPS (%s)", d.bandwidthGBs, d.peakGflops, d.ceilingsSource.c_str());
  ImGui::Text("this run: %.3f OP/B -> %.0f GFLOPS attainable, %s", a.traffic.intensity(), point.attainableGflops,
              point.memoryBound ? "memory bound" : "compute bound");
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 size(std::max(200.0f, ImGui::GetContentRegionAvail().x - 10), std::max(120.0f, ImGui::GetContentRegionAvail().y - 10));
  // Axes: 1/32 .. 64 OP/B, 10 .. 10^5 GFLOPS.
  const double xMin = std::log2(1.0 / 32), xMax = std::log2(64.0), yMin = 1.0, yMax = 5.0;
  auto at = [&](double opb, double gflops) {
    const double x = (std::log2(opb) - xMin) / (xMax - xMin), y = (std::log10(gflops) - yMin) / (yMax - yMin);
    return ImVec2(p.x + float(x) * size.x, p.y + size.y - float(std::clamp(y, 0.0, 1.0)) * size.y);
  };
  draw->AddRect(p, ImVec2(p.x + size.x, p.y + size.y), theme.cellOutline);
  const double ridge = ridgeIntensity(d);
  draw->AddLine(at(1.0 / 32, d.bandwidthGBs / 32), at(ridge, d.peakGflops), theme.highlight, 2.0f);
  draw->AddLine(at(ridge, d.peakGflops), at(64.0, d.peakGflops), theme.highlight, 2.0f);
  for (double opb : {0.25, 4.0}) {  // the chapter's two figures
    char label[32];
    std::snprintf(label, sizeof label, "%g OP/B", opb);
    draw->AddLine(at(opb, 10), at(opb, 1e5), theme.cellGhost);
    draw->AddText(ImVec2(at(opb, 10).x + 3, p.y + 2), theme.panelText, label);
  }
  const double x = std::clamp(a.traffic.intensity(), 1.0 / 32, 64.0);
  draw->AddCircleFilled(at(x, std::max(10.0, point.attainableGflops)), 6.0f, theme.error);
  draw->AddText(ImVec2(at(x, point.attainableGflops).x + 8, at(x, point.attainableGflops).y - 8),
                theme.panelText, std::string(kernelInfo(run->run.config.kernel).name).c_str());
  ImGui::Dummy(size);
}

}  // namespace tilescope::ui
