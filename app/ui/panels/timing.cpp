// Timing (issue 4, item 5; issue 10, item 3): GFLOP/s against N on log axes, one series per
// kernel and tile width or block shape, next to cuBLAS and the device's FP32 peak; the
// lecture's block-shape table at N = 8192; and the ladder from fig. 5.9 to cuBLAS, every rung
// with its percentage of cuBLAS (recorded in assets/timings/ladder-h100.csv when there is no GPU). With a GPU, sweeps run on the TimingWorker thread with a
// progress bar and Cancel; without one the panel shows what our bench recorded on an H100
// (assets/timings/h100.csv) and says, on top, that those numbers are recorded, not live.
// Only verified results are plotted or tabulated (timing_model.h). The series and the table's
// rows come digested with each report from the timing worker (TimingDigest): drawing a frame
// sorts and groups nothing.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/plot_widget.h"
#include "ui/panels/text_record.h"
#include "ui/model/timing_model.h"

namespace tilescope::ui {
namespace {

// GFLOP/s against N on log axes, with where the figures come from and the device's FP32 peak
// (its short label where the chart is narrow): the sweep plot and the ladder's plot alike.
PlotSpec gflopsBySize(const char* id, const TimingReport& report, const Theme& theme) {
  PlotSpec spec;
  spec.id = id;
  spec.xTitle = "N (square matrices, j = k = l = N)";
  spec.yTitle = "GFLOP/s";
  spec.xName = "N";
  spec.yName = "GFLOP/s";
  spec.xScale = AxisScale::Log2;
  spec.yScale = AxisScale::Log10;
  spec.note = std::string(report.recorded ? "recorded" : "live") + ": " + report.device + ", " + report.date;
  const Ceilings& ceil = report.ceilings;
  if (ceil.fp32PeakGflops > 0.0)
    spec.lines.push_back({"FP32 peak " + formatNumber(ceil.fp32PeakGflops) + " GFLOP/s", ceil.fp32PeakGflops,
                          theme.highlight, ceil.peakDerivation, "FP32 peak " + formatNumber(ceil.fp32PeakGflops)});
  return spec;
}


Rgba familyColour(const Theme& t, Family f) { return seriesColour(t, f, 0); }

ImVec4 toVec(Rgba c) { return ImGui::ColorConvertU32ToFloat4(c); }

constexpr const char* kSizes[] = {"128", "256", "512", "1024", "2048", "4096", "8192"};

std::string format(const char* fmt, double a, double b = 0.0) {
  char text[128];
  std::snprintf(text, sizeof text, fmt, a, b);
  return text;
}

// TextDisabled does not wrap; long reasons and notes must, at any width and font size.
void disabledWrapped(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  textWrapped(text);
  ImGui::PopStyleColor();
}

void setView(PanelContext& ctx, const TimingView& view) {
  if (!(view == ctx.state.timing.view)) ctx.emit(TimingIntent{SetTimingView{view}});
}

// --- Where the numbers come from --------------------------------------------------------
void drawSource(PanelContext& ctx, const TimingState& t, const TimingReport* shown, const std::string& path) {
  const Theme& theme = ctx.theme();
  if (!shown) {
    ImGui::TextColored(toVec(theme.error), "No timings to show.");
    if (!t.recordedError.empty()) textWrappedF("Recorded results: %s", t.recordedError.c_str());
  } else if (shown->recorded) {
    // One line in the normal layout; the why and the where are a hover away.
    ImGui::TextColored(toVec(theme.highlight),
                       "RECORDED, not live%s:", t.liveUnavailable.empty() ? "" : " (no GPU here)");
    const bool hovered = ImGui::IsItemHovered();
    const std::string where = shown->device + ", " + shown->date;
    sameLineIfFits(ImGui::CalcTextSize(where.c_str()).x);
    textWrapped(where);
    if (hovered || ImGui::IsItemHovered())
      tooltip("Measured on that device by our own bench (tilescope-cli bench) and stored in " + path +
              "; every case was verified against the host reference before it was timed." +
              (t.liveUnavailable.empty() ? "" : "\nNo live timing on this machine: " + t.liveUnavailable));
  } else {
    ImGui::TextColored(toVec(theme.pStored), "LIVE:");
    ImGui::SameLine();
    const std::size_t n = shown->results.size();
    textWrappedF("%s, %s, %zu case%s timed this session", shown->device.c_str(), shown->date.c_str(), n,
                 n == 1 ? "" : "s");
  }
  if (!t.liveUnavailable.empty() && (!shown || !shown->recorded))
    disabledWrapped("No live timing on this machine: " + t.liveUnavailable);
  if (t.live && t.recorded) {  // a GPU machine after a sweep: both can be shown
    TimingView v = t.view;
    if (ImGui::RadioButton("live", v.source == TimingSource::Live)) v.source = TimingSource::Live;
    ImGui::SameLine();
    const TimingReport& recorded = *t.recorded->report;
    if (ImGui::RadioButton(("recorded (" + recorded.device + ", " + recorded.date + ")").c_str(),
                           v.source == TimingSource::Recorded))
      v.source = TimingSource::Recorded;
    setView(ctx, v);
  }
}

// --- Sweeps (a GPU is there) ------------------------------------------------------------
void drawCustomSweep(PanelContext& ctx, TimingView& v) {
  CustomSweep& c = v.sweep.custom;
  ImGui::Checkbox("naive", &c.naive);
  ImGui::SameLine(), ImGui::Checkbox("tiled", &c.tiled);
  ImGui::SameLine(), ImGui::Checkbox("tiled-bounds", &c.tiledBounds);
  ImGui::SameLine(), ImGui::Checkbox("tiled-dynamic", &c.tiledDynamic);
  ImGui::SameLine(), ImGui::Checkbox("cuBLAS", &c.cublas);
  ImGui::TextUnformatted("T");
  ImGui::SameLine(), ImGui::Checkbox("8", &c.tile8);
  ImGui::SameLine(), ImGui::Checkbox("16", &c.tile16);
  ImGui::SameLine(), ImGui::Checkbox("32", &c.tile32);
  ImGui::SameLine(), ImGui::TextUnformatted("  naive blocks");
  ImGui::SameLine(), ImGui::Checkbox("16x16", &c.block16x16);
  ImGui::SameLine(), ImGui::Checkbox("32x32", &c.block32x32);
  auto sizeCombo = [&](const char* label, int& n) {
    int index = 0;
    while (index < 6 && (128 << index) < n) ++index;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
    if (ImGui::Combo(label, &index, kSizes, 7)) n = 128 << index;
  };
  sizeCombo("N from", c.minN);
  ImGui::SameLine(), sizeCombo("to", c.maxN);
  c.maxN = std::max(c.maxN, c.minN);
}

void drawSweepControls(PanelContext& ctx, const TimingState& t) {
  if (!t.liveUnavailable.empty()) return;
  TimingView v = t.view;
  // A lab sweep's cases are named when it starts (syncTiming); here only their number counts,
  // and there are none without a kernel in the Lab tab.
  const std::vector<TimingCase> cases = sweepCases(v.sweep, ctx.state.lab.text.empty() ? "" : "the Lab tab's kernel");
  if (t.running) {
    const float cancelW = ImGui::CalcTextSize("Cancel").x + ImGui::GetStyle().FramePadding.x * 4;
    const auto& p = t.progress;
    const float fraction = p.total ? float(p.done) / float(p.total) : 0.0f;
    const std::string overlay = t.runningTitle + ": " + std::to_string(p.done) + " / " + std::to_string(p.total) +
                                (p.current.empty() ? "" : ", " + p.current) + format(" (%.1f s)", t.runningSeconds);
    ImGui::ProgressBar(fraction, ImVec2(-cancelW - ImGui::GetStyle().ItemSpacing.x, 0), overlay.c_str());
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) ctx.emit(TimingIntent{CancelSweep{}});
  } else {
    int kind = int(v.sweep.kind);
    // In SweepKind's order.
    constexpr const char* kKinds[] = {"live sweep: 4 kernels + cuBLAS, N = 256..4096",
                                      "lecture table: naive's 6 block shapes, tiled T = 8, 16, 32, cuBLAS at N = 8192",
                                      "custom sweep", "ladder: every rung + cuBLAS, N = 256..8192",
                                      "lab: the Lab tab's kernel as written + cuBLAS, N = 256..4096"};
    ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 10.0f, ImGui::GetContentRegionAvail().x * 0.6f));
    if (ImGui::Combo("##sweep", &kind, kKinds, 5)) v.sweep.kind = SweepKind(kind);
    ImGui::SameLine();
    ImGui::BeginDisabled(cases.empty());
    if (ImGui::Button(("Run " + std::to_string(cases.size()) + " cases").c_str()))
      ctx.emit(TimingIntent{StartSweep{v.sweep}});
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      tooltip(
          "Every case is verified against the host reference first; then 2 warm-up and up to 10 timed "
          "launches, median reported. Runs on a worker thread: the app stays responsive.");
    if (v.sweep.kind == SweepKind::Custom) drawCustomSweep(ctx, v);
    if (v.sweep.kind == SweepKind::Lab)
      disabledWrapped("The kernel in the Lab tab's editor with its launch settings, compiled by NVRTC and timed in a "
                      "process of its own (a kernel that hangs or crashes stops the sweep, not the app). Each size is "
                      "verified first; a wrong result is not timed. Its traced run, hazards included, is the Lab tab's Run.");
  }
  if (!t.lastSweep.empty()) disabledWrapped(t.lastSweep);
  setView(ctx, v);
}

// --- GFLOP/s against N ------------------------------------------------------------------
// A point's read-out beyond series, N and GFLOP/s: its time and, where the same sweep timed
// cuBLAS at the same N and both verified, its percentage of cuBLAS.
std::string pointDetail(const SeriesPoint& p, Family family) {
  std::string d = format("%.3f ms per launch", p.medianMs) + " (median of " + std::to_string(p.repeats) + ")";
  if (p.percentOfCublas && family != Family::Cublas)
    d += "\n" + format("%.1f %% of cuBLAS SGEMM at N = %.0f (same run)", *p.percentOfCublas, p.n);
  return d;
}

void drawSeriesPopup(PanelContext& ctx, const std::vector<TimingSeries>& all) {
  TimingView v = ctx.state.timing.view;
  if (ImGui::Button("Series...")) ImGui::OpenPopup("timingSeries");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    tooltip("Choose the series on the plot (clicking a legend entry hides it).");
  if (ImGui::BeginPopup("timingSeries")) {
    for (const TimingSeries& s : all) {
      bool shown = v.seriesShown(s.label);
      ImGui::PushStyleColor(ImGuiCol_CheckMark, toVec(familyColour(ctx.theme(), s.family)));
      if (ImGui::Checkbox(s.label.c_str(), &shown)) v.toggled[s.label] = shown;
      ImGui::PopStyleColor();
      ImGui::SameLine();
      ImGui::TextDisabled("%zu point%s", s.points.size(), s.points.size() == 1 ? "" : "s");
    }
    if (ImGui::Button("Defaults")) v.toggled.clear();
    ImGui::EndPopup();
  }
  setView(ctx, v);
}

void drawPlotPage(PanelContext& ctx, const TimingState& t, const TimingDigest& digest) {
  const Theme& theme = ctx.theme();
  const TimingReport& report = *digest.report;
  const std::vector<TimingSeries>& all = digest.series;
  sameLineIfFits(ImGui::CalcTextSize("Series...").x + ImGui::GetStyle().FramePadding.x * 2);
  drawSeriesPopup(ctx, all);
  if (const int failed = digest.unverified; failed > 0) {
    const std::string text =
        std::to_string(failed) + (failed == 1 ? " case" : " cases") + " failed verification: not plotted";
    sameLineIfFits(ImGui::CalcTextSize(text.c_str()).x);
    ImGui::TextColored(toVec(theme.error), "%s", text.c_str());
  }

  PlotSpec spec = gflopsBySize("timing", report, theme);
  for (const TimingSeries& s : all) {
    if (!t.view.seriesShown(s.label)) {
      spec.hidden.push_back(s.label);
      continue;
    }
    PlotSeries ps{s.label, familyColour(theme, s.family), s.marker, s.family == Family::Cublas, {}};
    for (const SeriesPoint& p : s.points) ps.points.push_back({p.n, p.gflops, pointDetail(p, s.family)});
    spec.series.push_back(std::move(ps));
  }
  const Ceilings& ceil = report.ceilings;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool roomForFooter = !ceil.peakDerivation.empty() && avail.y > ImGui::GetTextLineHeightWithSpacing() * 22.0f;
  const std::string footerText = "Peak: " + ceil.peakDerivation;  // wrapped: two lines in large text
  const float footer = roomForFooter ? wrappedTextSize(footerText, avail.x).y + ImGui::GetStyle().ItemSpacing.y : 0.0f;
  spec.size = ImVec2(avail.x, std::max(avail.y - footer, ImGui::GetFontSize() * 12.0f));
  const PlotInteraction in = drawPlot(spec, theme, ctx.layout);
  if (in.legendClicked) {
    TimingView v = t.view;
    v.toggled[spec.series[*in.legendClicked].name] = false;
    setView(ctx, v);
  }
  if (roomForFooter) disabledWrapped(footerText);
}

// --- The lecture's block-shape table ----------------------------------------------------
void drawTablePage(PanelContext& ctx, const TimingState& t, const TimingDigest& digest) {
  const Theme& theme = ctx.theme();
  const std::vector<LectureRow>& rows = digest.lectureRows;
  const bool any = std::any_of(rows.begin(), rows.end(), [](const LectureRow& r) { return r.result; });
  if (!any) {
    textWrappedF(t.liveUnavailable.empty() ? "No N = 8192 results yet: run the lecture table above."
                                           : "These results have no N = 8192 cases.");
    return;
  }
  const auto best = digest.bestNaive;
  double top = 0.0;
  for (const LectureRow& r : rows)
    if (r.result && r.result->verified) top = std::max(top, r.result->gflops);
  const double bestNaive = best ? rows[*best].result->gflops : 0.0;

  textWrappedF(
      "The lecture's experiment at N = 8192: naive (one thread per P element) with six block shapes, "
      "then shared-memory tiles, then cuBLAS.");
  // No inner scrolling: the note follows the table, and the panel scrolls when fonts are large.
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("lectureTable", 5, flags)) {
    ImGui::TableSetupColumn("case");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("GFLOP/s");
    ImGui::TableSetupColumn("vs best");
    ImGui::TableSetupColumn("##bar", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const LectureRow& row = rows[i];
      const TimingResult* r = row.result;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const Family family = r ? familyOf(r->what) : Family::Other;
      ImGui::TextColored(toVec(familyColour(theme, family)), "%s", row.label.c_str());
      if (!r) {
        ImGui::TableNextColumn(), ImGui::TextDisabled("not timed");
        continue;
      }
      if (!r->verified) {
        ImGui::TableNextColumn(), ImGui::TextColored(toVec(theme.error), "failed verification");
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip(r->verification);
        continue;
      }
      ImGui::TableNextColumn(), ImGui::Text("%.1f", r->medianMs);
      ImGui::TableNextColumn(), ImGui::TextUnformatted(formatNumber(r->gflops).c_str());
      ImGui::TableNextColumn();
      // Speed-up over the best naive block shape, which itself reads 1.00x in the highlight colour.
      if (bestNaive > 0.0) {
        const std::string x = format("%.2fx", r->gflops / bestNaive);
        if (best && i == *best)
          ImGui::TextColored(toVec(theme.highlight), "%s", x.c_str());
        else
          ImGui::TextUnformatted(x.c_str());
        if (ImGui::IsItemHovered()) tooltip("GFLOP/s relative to the best naive block shape, " + rows[*best].label);
      }
      ImGui::TableNextColumn();
      // A bar on a linear scale: the gap to cuBLAS is the point the lecture ends on.
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
      const float len = top > 0.0 ? float(r->gflops / top) * w : 0.0f;
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + h * 0.15f), ImVec2(at.x + len, at.y + h * 0.85f),
                                                familyColour(theme, family));
      ImGui::Dummy(ImVec2(w, h));
    }
    ImGui::EndTable();
  }
  disabledWrapped(
      "The lecture's own table (an older GPU) had (32,32) best at 1.92 s and (64,4) worst at 5.88 s. Wide "
      "blocks (x >= 32) come first, except (64,4): a block only 4 rows tall uses each N element it reads for "
      "only 4 outputs.");
}


// --- The ladder from fig. 5.9 to cuBLAS -------------------------------------------------
// Every rung next to cuBLAS at each N: the plot, then the percentages as a rung-by-N table.
// On a projector the rungs are named by their kernels (the tiling is in the tooltip), so that
// every N column keeps its percentages whole.
// The ladder table's width with these rung names: each column as wide as its widest text (a
// header, a name, "100.0 %", a cuBLAS rate), plus ImGui's padding.
float ladderTableWidth(const LadderTable& ladder, const std::vector<std::string>& names) {
  const float pad = ImGui::GetStyle().CellPadding.x * 2.0f;
  auto w = [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; };
  float first = w("% of cuBLAS");
  for (std::size_t i = 0; i < names.size(); ++i) first = std::max(first, w(std::to_string(ladder.rows[i].rung) + "  " + names[i]));
  float total = first + pad;
  for (std::size_t c = 0; c < ladder.sizes.size(); ++c) {
    float col = std::max({w("N = " + std::to_string(ladder.sizes[c])), w("100.0 %"), w("no cuBLAS")});
    if (ladder.cublas[c]) col = std::max(col, w(formatNumber(ladder.cublas[c]->gflops)));
    total += col + pad;
  }
  return total;
}

void drawLadderTable(PanelContext& ctx, const LadderTable& ladder) {
  const Theme& theme = ctx.theme();
  std::vector<std::string> names;
  for (const LadderRow& row : ladder.rows) names.push_back(row.label);
  // The kernels' names alone where the tilings would push the largest N off the panel (the
  // normal layout at 1280x720 cut N = 8192's column).
  if (ctx.state.lesson.presenter || ladderTableWidth(ladder, names) > ImGui::GetContentRegionAvail().x)
    shortenRungNames(names);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("ladderTable", int(ladder.sizes.size()) + 1, flags)) return;
  ImGui::TableSetupColumn("% of cuBLAS");
  for (int n : ladder.sizes) ImGui::TableSetupColumn(("N = " + std::to_string(n)).c_str());
  // The headers and figures are recorded: a lesson page's percentages are held to them.
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c <= int(ladder.sizes.size()); ++c) {
    ImGui::TableSetColumnIndex(c);
    const char* header = ImGui::TableGetColumnName(c);
    ImGui::TableHeader(header);
    recordText(ctx, "Timing", header);
  }
  for (std::size_t i = 0; i < ladder.rows.size(); ++i) {
    const LadderRow& row = ladder.rows[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(toVec(seriesColour(theme, familyOf(ladderCase(row.kernel, 1)), row.rung)), "%d  %s", row.rung,
                       names[i].c_str());
    if (names[i] != row.label && ImGui::IsItemHovered()) tooltip(row.label);
    for (const LadderCell& cell : row.cells) {
      ImGui::TableNextColumn();
      const TimingResult* r = cell.result;
      if (!r) {
        ImGui::TextDisabled("-");
      } else if (!r->verified) {  // no time, no percentage: only why
        ImGui::TextColored(toVec(theme.error), "failed");
        if (ImGui::IsItemHovered()) tooltip(r->verification);
      } else {
        const std::string shown = cell.percent ? format("%.1f %%", *cell.percent) : "no cuBLAS";
        ImGui::TextUnformatted(shown.c_str());
        recordText(ctx, "Timing", shown);
        if (ImGui::IsItemHovered())
          tooltip(row.label + ": " + formatNumber(r->gflops) + " GFLOP/s, " + format("%.3f ms", r->medianMs) +
                  (cell.percent ? "\n" + format("%.1f %% of cuBLAS SGEMM at the same N in the same run", *cell.percent)
                                : std::string("\nno verified cuBLAS result at this N in the same run")));
      }
    }
  }
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted("cuBLAS GFLOP/s");
  for (const TimingResult* r : ladder.cublas) {
    ImGui::TableNextColumn();
    if (!r) ImGui::TextDisabled("-");
    else if (!r->verified) ImGui::TextColored(toVec(theme.error), "failed");
    else {
      ImGui::TextUnformatted(formatNumber(r->gflops).c_str());
      recordText(ctx, "Timing", formatNumber(r->gflops));
    }
  }
  endTable(ctx, "ladder");
}

void drawLadderPage(PanelContext& ctx, const TimingState& t, const TimingDigest& digest) {
  const Theme& theme = ctx.theme();
  const TimingReport& report = *digest.report;
  if (report.recorded && !t.recordedLadder)
    disabledWrapped("No recorded ladder (" + t.recordedLadderError +
                    "): only rung 1, fig. 5.9 at T = 32, from the recorded results above.");
  if (digest.ladder.empty()) {
    textWrappedF(t.liveUnavailable.empty() ? "No ladder results yet: run the ladder sweep above."
                                           : "These results have no rung of the ladder.");
    return;
  }
  PlotSpec spec = gflopsBySize("ladder", report, theme);
  std::vector<const TimingSeries*> shown;
  std::vector<std::string> names;  // on a projector the kernels' names alone, as in the table
  for (const TimingSeries& s : digest.series)
    if (s.rung > 0 || s.family == Family::Cublas) shown.push_back(&s), names.push_back(s.label);
  if (ctx.state.lesson.presenter) shortenRungNames(names);
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const TimingSeries& s = *shown[i];
    PlotSeries ps{s.rung > 0 ? std::to_string(s.rung) + "  " + names[i] : names[i], seriesColour(theme, s.family, s.rung),
                  s.rung > 0 ? rungMarker(s.rung) : s.marker, s.family == Family::Cublas, {}};
    for (const SeriesPoint& p : s.points) ps.points.push_back({p.n, p.gflops, pointDetail(p, s.family)});
    spec.series.push_back(std::move(ps));
  }
  std::stable_sort(spec.series.begin(), spec.series.end(), [](const PlotSeries& a, const PlotSeries& b) {
    return !a.emphasised && b.emphasised;  // the rungs in rung order (the series' order), cuBLAS last
  });
  // Plot and table when both fit (on a projector, where the panel has the screen's width, the
  // plot may be lower); in a short panel the table of percentages alone, which is what the
  // lesson talks about; never a panel that scrolls.
  // The table's height as ImGui lays it out: a header, a row per rung and cuBLAS's, each a line
  // and its cell padding (the nine rungs of 2026-11-26 left a line-per-row estimate 1 px short
  // of the projector's panel, which then scrolled).
  const float rowH = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2.0f;
  const float tableH = rowH * float(digest.ladder.rows.size() + 2) + ImGui::GetStyle().ItemSpacing.y * 2.0f;
  const float minPlotH = ImGui::GetFontSize() * (ctx.state.lesson.presenter ? 6.0f : 12.0f);
  // On a projector the plot may be as low as four lines of data (three decades still read), so
  // that nine rungs' table and the plot share the panel without a scroll bar.
  if (ctx.state.lesson.presenter) spec.minDataLines = 4.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.y >= tableH + minPlotH || avail.y < tableH) {
    spec.size = ImVec2(avail.x, std::max(avail.y - tableH, std::min(minPlotH, avail.y)));
    drawPlot(spec, theme, ctx.layout);
    if (avail.y < tableH + minPlotH) return;
  }
  drawLadderTable(ctx, digest.ladder);
}

}  // namespace

void drawTimingPanel(PanelContext& ctx) {
  const TimingState& t = ctx.state.timing;
  if (!t.probed) {
    ImGui::TextDisabled("Looking for a GPU and the recorded timings...");
    return;
  }
  const bool ladderPage = t.view.page == TimingPage::Ladder;
  const TimingDigest* shown = ladderPage ? t.ladderShown() : t.shown();
  drawSource(ctx, t, shown ? shown->report.get() : nullptr,
             shown && shown == t.recordedLadder.get() ? t.recordedLadderPath : t.recordedPath);
  drawSweepControls(ctx, t);
  if (!shown) return;
  TimingView v = t.view;
  const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
  if (ImGui::RadioButton("GFLOP/s vs N", v.page == TimingPage::Plot)) v.page = TimingPage::Plot;
  const char* table = "block shapes";
  sameLineIfFits(ImGui::CalcTextSize(table).x + radio);
  if (ImGui::RadioButton(table, v.page == TimingPage::Table)) v.page = TimingPage::Table;
  if (ImGui::IsItemHovered()) tooltip("The lecture's block-shape experiment at N = 8192, with tiled and cuBLAS.");
  const char* ladder = "ladder to cuBLAS";
  sameLineIfFits(ImGui::CalcTextSize(ladder).x + radio);
  if (ImGui::RadioButton(ladder, v.page == TimingPage::Ladder)) v.page = TimingPage::Ladder;
  if (ImGui::IsItemHovered())
    tooltip("Every rung from fig. 5.9 towards cuBLAS, each at its own launch, with its percentage of cuBLAS "
            "at the same N in the same run.");
  setView(ctx, v);
  if (t.view.page == TimingPage::Plot)
    drawPlotPage(ctx, t, *shown);
  else if (t.view.page == TimingPage::Table)
    drawTablePage(ctx, t, *shown);
  else
    drawLadderPage(ctx, t, *shown);
}

}  // namespace tilescope::ui
