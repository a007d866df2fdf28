// Counters: what the grid has done up to the cursor (all blocks in lockstep): global loads
// against what the naive kernel would need for the same multiply-adds, bytes, FLOPs, OP/B.
// Every line fits the narrow column: a figure too wide is shortened (1.97M) with the exact one
// in its tooltip, and names wrap.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"

namespace tilescope::ui {
namespace {

struct Line {
  const char* name;
  std::string exact, shortened;  // shortened: "" when the exact figure is short already
  const char* tip = nullptr;
};

std::string fixed(const char* format, double x) {
  char v[64];
  std::snprintf(v, sizeof v, format, x);
  return v;
}

// "now / total" exactly and shortened.
Line pair(const char* name, unsigned long long now, unsigned long long total, const char* tip = nullptr) {
  return {name, std::to_string(now) + " / " + std::to_string(total), shortCount(now) + " / " + shortCount(total), tip};
}
Line count(const char* name, unsigned long long n, const char* tip = nullptr, const char* unit = "") {
  const std::string space = *unit ? " " : "";
  return {name, std::to_string(n) + space + unit, shortCount(n, unit), tip};
}

}  // namespace

void drawCountersPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const Timeline& t = run->timeline;
  const Cursor c = t.normalize(ctx.state.shown.cursor);
  const Counters now = t.countersAt(c);
  const Counters total = t.countersAt(t.end());
  std::vector<Line> lines;
  // Worded so the two lines cannot be read as "tiling loads more": before the first multiply-add
  // the tiles are in (32 / 64) and the naive kernel, doing the same multiply-adds, has loaded 0.
  lines.push_back(pair("loaded so far / run", now.globalLoads, total.globalLoads,
                       "reads of M and N from global memory so far / in the whole run"));
  lines.push_back(count("naive, same k steps", now.naiveLoads(),
                        "what the naive kernel loads for the multiply-adds done so far: 2 elements each"));
  if (now.globalLoads && now.fmas)
    lines.push_back({"saving", fixed("%.2fx", double(now.naiveLoads()) / double(now.globalLoads)), "",
                     "tiling divides global loads by the tile width"});
  lines.push_back(count("bytes loaded", now.bytesLoaded(), nullptr, "B"));
  lines.push_back(count("FLOPs", now.flops(), "2 per multiply-add"));
  lines.push_back({"OP/B", fixed("%.3f", now.flopsPerByte()), "",
                   "FLOPs per byte loaded from global memory: 0.25 for naive, 0.25 T for tiled"});
  lines.push_back(count("shared reads", now.sharedReads));
  if (now.fmas) {  // the two ratios the ladder's rungs lower (lesson "the ladder to cuBLAS")
    lines.push_back({"loads / multiply-add", fixed("%.3f", double(now.globalLoads) / double(now.fmas)), "",
                     "global loads per multiply-add: 2 for naive, 2/T for tiled, 1/BM + 1/BN for a BM x BN block tile"});
    lines.push_back({"shared reads / multiply-add", fixed("%.3f", double(now.sharedReads) / double(now.fmas)), "",
                     "2 for tiled; (TM + TN) / (TM x TN) for a TM x TN register tile"});
  }
  lines.push_back(count("zero-filled", now.zeroFills));
  lines.push_back(count("out-of-bounds", now.outOfBounds, "accesses outside their matrix (the unchecked kernel on odd sizes)"));
  lines.push_back(pair("P stored", now.stores, (unsigned long long)run->run.config.dims.j * run->run.config.dims.l));
  lines.push_back(pair("phases done", (unsigned long long)t.phasesDone(c), (unsigned long long)t.phases()));
  // On a projector the Counters are a strip under the lesson's text: the saving the pages speak
  // of (loads against the naive kernel's, the ratio, OP/B, loads per multiply-add), nothing more.
  if (ctx.state.lesson.presenter) {
    constexpr std::string_view kStrip[] = {"loaded so far / run", "naive, same k steps", "saving", "OP/B",
                                           "loads / multiply-add"};
    std::erase_if(lines, [&](const Line& l) { return std::find(std::begin(kStrip), std::end(kStrip), l.name) == std::end(kStrip); });
  }

  // The figures get the width the widest of them needs once shortened (or the room the widest
  // name leaves, if more); a figure exactly that wide or narrower is shown exactly. The names
  // wrap in the rest.
  float nameWidth = 0, valueWidth = 0;
  for (const Line& l : lines) {
    nameWidth = std::max(nameWidth, ImGui::CalcTextSize(l.name).x);
    valueWidth = std::max(valueWidth, ImGui::CalcTextSize((l.shortened.empty() ? l.exact : l.shortened).c_str()).x);
  }
  valueWidth = std::max(valueWidth, ImGui::GetContentRegionAvail().x - nameWidth - ImGui::GetStyle().CellPadding.x * 4);
  for (Line& l : lines)
    if (ImGui::CalcTextSize(l.exact.c_str()).x <= valueWidth) l.shortened.clear();
  if (!ImGui::BeginTable("counters", 2)) return;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, valueWidth);
  for (const Line& l : lines) {
    const std::string& shown = l.shortened.empty() ? l.exact : l.shortened;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", l.name);
    if (l.tip && ImGui::IsItemHovered()) tooltip(l.tip);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(shown.c_str());
    if (!l.shortened.empty() && ImGui::IsItemHovered()) tooltip(l.exact);
    ctx.layout.counters.push_back({l.name, shown, l.exact});
  }
  endTable(ctx, "counters");
}

}  // namespace tilescope::ui
