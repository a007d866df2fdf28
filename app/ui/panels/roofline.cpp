// Roofline (ch. 5.1; issue 10, item 4): the chart Nsight Compute draws. Log-log axes in OP/B
// and GFLOP/s with decade ticks; the memory roof (bandwidth x OP/B) and compute roof (FP32
// peak) of the analysis profile, solid, and of the device the timings come from (a GPU here,
// or the recorded one), dashed; one point per timed kernel at the intensity counted from a
// trace of its launch and the GFLOP/s measured at its largest N (live or recorded, said on
// the first line and in each point's read-out); cuBLAS, which has no trace, as a horizontal
// reference; and this run's intensity as a vertical line up to its roof. The points come
// digested with the timing report (TimingDigest::roofline, traced off the UI thread); the
// arithmetic of where a point sits is core/roofline.h.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/plot_widget.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

std::string provenance(const TimingReport& r) {
  return std::string(r.recorded ? "recorded" : "live") + ": " + r.device + ", " + r.date;
}

// The roofs as a path from xLo to xHi: up the memory roof to the ridge, then along the peak.
PlotPath roofPath(const DeviceProfile& d, double xLo, double xHi, Rgba colour, bool dashed, std::string label) {
  const double ridge = ridgeIntensity(d);
  PlotPath p{std::move(label), {}, colour, dashed, {}};
  p.points.emplace_back(xLo, d.bandwidthGBs * xLo);
  if (ridge > xLo && ridge < xHi) p.points.emplace_back(ridge, d.peakGflops);
  p.points.emplace_back(xHi, std::min(d.peakGflops, d.bandwidthGBs * xHi));
  char detail[400];
  std::snprintf(detail, sizeof detail, "memory roof %s GB/s x OP/B, compute roof %s GFLOP/s; ridge at %.3g OP/B\n%s",
                formatNumber(d.bandwidthGBs).c_str(), formatNumber(d.peakGflops).c_str(), ridge,
                d.ceilingsSource.c_str());
  p.detail = detail;
  return p;
}

struct Extent {
  double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
  void add(double v) {
    if (v > 0.0) lo = std::min(lo, v), hi = std::max(hi, v);
  }
};

// The timed kernels: the report the Timing panel shows and the ladder's (the same when live),
// and the device whose measured roofs are drawn dashed, if any.
struct RooflineSources {
  std::vector<const TimingDigest*> digests;
  const TimingReport* measuredOn = nullptr;
  std::optional<DeviceProfile> device;
};

RooflineSources rooflineSources(const TimingState& t) {
  RooflineSources r;
  for (const TimingDigest* d : {t.shown(), t.ladderShown()})
    if (d && std::find(r.digests.begin(), r.digests.end(), d) == r.digests.end()) r.digests.push_back(d);
  for (const TimingDigest* d : r.digests)
    if (!r.measuredOn && d->report->ceilings.copyGBps > 0.0 && d->report->ceilings.fp32PeakGflops > 0.0)
      r.measuredOn = d->report.get();
  if (const TimingReport* m = r.measuredOn)
    r.device = profileFromCeilings(m->device, m->ceilings.copyGBps, m->ceilings.fp32PeakGflops, m->ceilings.peakDerivation);
  return r;
}

// Where the points come from: one line per device and kind (two recorded reports of one GPU say
// so once, with both dates).
void drawProvenance(const std::vector<const TimingDigest*>& sources, const Theme& theme) {
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const TimingReport& r = *sources[i]->report;
    auto same = [&](const TimingDigest* d) { return d->report->recorded == r.recorded && d->report->device == r.device; };
    if (std::find_if(sources.begin(), sources.begin() + std::ptrdiff_t(i), same) != sources.begin() + std::ptrdiff_t(i)) continue;
    std::string dates = r.date;
    for (std::size_t j = i + 1; j < sources.size(); ++j)
      if (same(sources[j]) && sources[j]->report->date != r.date) dates += " and " + sources[j]->report->date;
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(r.recorded ? theme.highlight : theme.pStored), "%s",
                       r.recorded ? "RECORDED" : "LIVE");
    ImGui::SameLine();
    textWrappedF("points measured on %s, %s", r.device.c_str(), dates.c_str());
  }
}

// Points above their memory roof: "naive (32,32) 7.1x, ...", and the largest N among them.
struct AboveRoof {
  std::string words;
  double n = 0;
};

// One point per timed kernel (each label once, the Timing tab's hidden series left out), and
// cuBLAS's rate as a reference line.
AboveRoof addKernelPoints(PlotSpec& spec, Extent& x, Extent& y, const RooflineSources& src, const PanelContext& ctx,
                          const DeviceProfile& profile) {
  const Theme& theme = ctx.theme();
  const TimingState& t = ctx.state.timing;
  std::vector<std::string> seen;
  AboveRoof above;
  const DeviceProfile& roofs = src.device ? *src.device : profile;
  for (const TimingDigest* d : src.digests) {
    for (const RooflineKernel& k : d->roofline) {
      if (std::find(seen.begin(), seen.end(), k.label) != seen.end()) continue;
      seen.push_back(k.label);
      if (k.rung == 0 && !t.view.seriesShown(k.label)) {  // the Timing tab's choice of series, every rung
        spec.hidden.push_back(k.label);
        continue;
      }
      if (!(k.intensity > 0.0)) continue;  // no trace could be counted: no position to claim
      const RooflinePlacement at = placeOnRoofline(roofs, k.intensity, k.gflops);
      PlotSeries s{k.label, seriesColour(theme, k.family, k.rung), k.rung > 0 ? rungMarker(k.rung) : k.marker, false, {}};
      s.points.push_back({k.intensity, k.gflops,
                          "at N = " + formatNumber(k.n) + ", " + provenance(*d->report) +
                              "\nbytes counted from a trace of " + k.tracedAs + "\n" + explainPlacement(roofs, at)});
      x.add(k.intensity), y.add(k.gflops);
      spec.series.push_back(std::move(s));
      if (const double roof = roofs.bandwidthGBs * k.intensity; k.gflops > roof * 1.05 && k.intensity < ridgeIntensity(roofs)) {
        char factor[160];
        std::snprintf(factor, sizeof factor, "%s%s %.1fx", above.words.empty() ? "" : ", ", k.label.c_str(), k.gflops / roof);
        above.words += factor;
        above.n = std::max(above.n, k.n);
      }
    }
    if (d->cublasLargest && d == src.digests.front()) {
      const SeriesPoint& c = *d->cublasLargest;
      // A narrow chart (the normal layout at 1280x720, a projector's) draws the short label; N
      // is in the read-out.
      spec.lines.push_back({"cuBLAS SGEMM " + formatNumber(c.gflops) + " GFLOP/s (N = " + formatNumber(c.n) + ")",
                            c.gflops, theme.panelText,
                            "cuBLAS has no trace here, so no intensity of ours: its rate at N = " + formatNumber(c.n) +
                                ", for reference (" + provenance(*d->report) + ")",
                            "cuBLAS " + formatNumber(c.gflops) + " GFLOP/s"});
      y.add(c.gflops);
    }
  }
  return above;
}

// The roofs (the profile's solid, the measured device's dashed) and this run's intensity as a
// vertical line up to its roof.
void addRoofs(PlotSpec& spec, const RooflineSources& src, const DeviceProfile& profile, const LoadedRun* run,
              double runIntensity, const Theme& theme) {
  const double xLo = spec.xRange->lo, xHi = spec.xRange->hi;
  spec.paths.push_back(roofPath(profile, xLo, xHi, theme.highlight, false, profile.name + " roofs"));
  if (src.device) {
    spec.paths.push_back(roofPath(*src.device, xLo, xHi, theme.threadColours[5], true, src.measuredOn->device + " (measured)"));
    spec.paths.back().labelOnPlot = false;  // it may lie on the profile's roof: named above the plot instead
  }
  if (runIntensity > 0.0) {
    const RooflinePoint roof = rooflinePoint(profile, "", runIntensity);
    PlotPath p{"this run", {{runIntensity, spec.yRange->lo}, {runIntensity, roof.attainableGflops}}, theme.error, true, {}};
    p.detail = describe(run->run.config) + ": " + formatNumber(runIntensity) + " OP/B counted from its trace; the " +
               profile.name + " roofs allow " + formatNumber(roof.attainableGflops) + " GFLOP/s there (" +
               (roof.memoryBound ? "memory-bound" : "compute-bound") + ")";
    spec.paths.push_back(std::move(p));
  }
}

// The roofs' key: each part on the line while it fits, the device's name wrapped.
void drawRoofsKey(const RooflineSources& src, const DeviceProfile& profile, const Theme& theme) {
  ImGui::TextUnformatted("roofs:");
  const std::string solid = "solid: " + profile.name + " profile";
  sameLineIfFits(ImGui::CalcTextSize(solid.c_str()).x);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme.highlight), "%s", solid.c_str());
  if (src.device) {
    const std::string dashed = "dashed: " + src.measuredOn->device + ", measured";
    sameLineIfFits(ImGui::CalcTextSize(dashed.c_str()).x);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme.threadColours[5]));
    textWrapped(dashed);
    ImGui::PopStyleColor();
  }
  if (ImGui::IsItemHovered())
    tooltip("Attainable GFLOP/s = min(FP32 peak, bandwidth x OP/B). Hover a roof for its figures, a point for "
            "where it sits and why.");
}

}  // namespace

void drawRooflinePanel(PanelContext& ctx) {
  drawAnalysisProfileChoice(ctx);
  const Theme& theme = ctx.theme();
  const DeviceProfile profile = analysisProfile(ctx.state.analysis).profile;
  const TimingState& t = ctx.state.timing;
  const RooflineSources src = rooflineSources(t);
  if (!t.probed) ImGui::TextDisabled("Looking for a GPU and the recorded timings...");
  else if (src.digests.empty()) ImGui::TextDisabled("No timings to place on the roofline (see the Timing tab).");
  drawProvenance(src.digests, theme);

  PlotSpec spec;
  spec.id = "roofline";
  spec.xTitle = "arithmetic intensity, OP/B (FLOPs per byte loaded from global memory)";
  spec.yTitle = "GFLOP/s (FP32)";
  spec.xName = "OP/B";
  spec.yName = "GFLOP/s";
  spec.xScale = spec.yScale = AxisScale::Log10;
  Extent x, y;
  x.add(0.25);  // the chapter's naive kernel: always on the chart
  x.add(ridgeIntensity(profile));
  y.add(profile.peakGflops);
  if (src.device) x.add(ridgeIntensity(*src.device)), y.add(src.device->peakGflops);
  const AboveRoof above = addKernelPoints(spec, x, y, src, ctx, profile);
  const LoadedRun* run = shownRun(ctx.state);
  const auto analysis = run ? ctx.state.shown.analysis : nullptr;
  const double runIntensity = analysis ? analysis->traffic.intensity() : 0.0;
  // The naive kernel's roof and this run's are on the chart too, or the run's line up to its
  // roof lies wholly under the axis (naive's 837 GFLOP/s under a 1,000 floor on the h100).
  for (const double at : {0.25, runIntensity})
    if (at > 0.0) x.add(at), y.add(rooflinePoint(profile, "", at).attainableGflops);
  // Whole decades around everything; the lowest decade at most four below the peak, so the
  // roofs' bend stays large on screen.
  spec.xRange = fitRange(x.lo, x.hi * 1.5, AxisScale::Log10);
  spec.yRange = fitRange(std::max(y.lo, y.hi * 1e-4), y.hi * 1.2, AxisScale::Log10);
  addRoofs(spec, src, profile, run, runIntensity, theme);
  if (!src.digests.empty()) spec.note = provenance(*src.digests.front()->report);
  // A point above its memory roof is no error: its OP/B counts every 4-byte load, and L1 and L2
  // serve most of a naive kernel's loads, so DRAM moves far fewer bytes than it loads. The
  // model: each element of M and N once from DRAM is 2 N^3 FLOPs over 8 N^2 bytes, N / 4 OP/B.
  if (!above.words.empty())
    recordedWrapped(ctx, "Roofline",
                    "Above the memory roof: " + above.words + ". Their OP/B counts every 4-byte load; L1 and L2 serve most of "
                    "them, so DRAM moves far fewer bytes (modelled, each element of M and N fetched once: " +
                        formatNumber(above.n / 4.0) + " OP/B at N = " + formatNumber(above.n) + ").");
  drawRoofsKey(src, profile, theme);
  // The chart takes the rest of the panel; at least 14 lines high (the panel scrolls below
  // that), 9 on a projector, whose panel is laid out to hold it.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // The x title is centred under the data, which the legend leaves about half the width: the
  // longest wording that fits there (at 1280x720 the full one was cut at both ends).
  for (const char* shorter : {"OP/B: FLOPs per byte loaded from global memory", "OP/B, FLOPs per byte loaded"})
    if (ImGui::CalcTextSize(spec.xTitle.c_str()).x > avail.x * 0.55f) spec.xTitle = shorter;
  if (ctx.state.lesson.presenter) shortenRungNames(spec.series);
  const float least = ImGui::GetFontSize() * (ctx.state.lesson.presenter ? 9.0f : 14.0f);
  spec.size = ImVec2(avail.x, std::max(avail.y, least));
  drawPlot(spec, theme, ctx.layout);
}

}  // namespace tilescope::ui
