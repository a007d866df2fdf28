// Coalescing: one warp's global requests of the selected block, each drawn as its lanes'
// addresses over 32-byte sectors and 128-byte lines, with the kernel's totals. Moving the
// block-shape slider reruns the kernel, so the lecture's shape table is seen happening.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>

#include "kernels/ceil_div.h"
#include "panels.h"

namespace tilescope::ui {
namespace {

void totalsRow(const char* name, const CoalescingTotals& t) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  ImGui::Text("%llu", (unsigned long long)t.requests);
  ImGui::TableNextColumn();
  ImGui::Text("%llu", (unsigned long long)t.sectors);
  ImGui::TableNextColumn();
  ImGui::Text("%.2f", t.sectorsPerRequest());
  ImGui::TableNextColumn();
  ImGui::Text("%.1f%%", 100.0 * t.efficiency());
}

// The request's 128-byte lines side by side, 4 sectors each, lanes as ticks at their byte.
void drawRequest(const GlobalRequest& g, const Theme& theme) {
  std::set<uint64_t> lines;
  for (const auto& l : g.request.lanes) lines.insert(l.address / kLineBytes);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x - 8.0f);
  const float lineW = std::min(256.0f, width / float(std::max<std::size_t>(lines.size(), 1)));
  const float h = 34.0f;
  int i = 0;
  for (uint64_t line : lines) {
    const float x0 = origin.x + float(i++) * lineW;
    std::set<uint64_t> touched;
    for (const auto& l : g.request.lanes)
      if (l.address / kLineBytes == line) touched.insert(l.address / kSectorBytes);
    for (int s = 0; s < 4; ++s) {
      const float sx = x0 + lineW * float(s) / 4.0f;
      const bool used = touched.count(line * 4 + uint64_t(s)) > 0;
      draw->AddRectFilled(ImVec2(sx, origin.y), ImVec2(sx + lineW / 4.0f, origin.y + h),
                          used ? theme.readRing : theme.cellIdle);
      draw->AddRect(ImVec2(sx, origin.y), ImVec2(sx + lineW / 4.0f, origin.y + h), theme.cellOutline);
    }
    draw->AddRect(ImVec2(x0, origin.y), ImVec2(x0 + lineW, origin.y + h), theme.highlight, 0.0f, 0, 2.0f);
    for (const auto& l : g.request.lanes) {
      if (l.address / kLineBytes != line) continue;
      const float x = x0 + lineW * float(l.address % kLineBytes) / float(kLineBytes);
      draw->AddLine(ImVec2(x + 1, origin.y + h), ImVec2(x + 1, origin.y + h + 8), theme.threadColour(l.lane), 2.0f);
    }
  }
  ImGui::Dummy(ImVec2(width, h + 12));
}

}  // namespace

void drawCoalescingPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  const CoalescingReport& c = analysis->coalescing;
  if (ImGui::BeginTable("coalescing totals", 5, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    for (const char* h : {"", "requests", "sectors", "per request", "efficiency"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    totalsRow("loads of M", c.loadsM);
    totalsRow("loads of N", c.loadsN);
    totalsRow("stores of P", c.stores);
    endTable(ctx, "coalescing totals");
  }
  // The selected block's warps; widget state lives in ImGui's per-window storage.
  const KernelLaunch& L = run->run.plan.launch;
  const int warps = ceilDiv(int(L.blockX * L.blockY), kWarpSize);
  ImGuiStorage* store = ImGui::GetStateStorage();
  int* warp = store->GetIntRef(ImGui::GetID("warp"), 0);
  *warp = std::clamp(*warp, 0, warps - 1);
  ImGui::SliderInt("warp", warp, 0, warps - 1);
  std::vector<const GlobalRequest*> mine;
  for (const auto& g : c.requests)
    if (g.request.blockX == ctx.state.shown.bx && g.request.blockY == ctx.state.shown.by && g.request.warp == *warp)
      mine.push_back(&g);
  if (mine.empty()) {
    ImGui::TextDisabled("this warp makes no global access");
    return;
  }
  int* pick = store->GetIntRef(ImGui::GetID("request"), 0);
  *pick = std::clamp(*pick, 0, int(mine.size()) - 1);
  ImGui::SliderInt("request", pick, 0, int(mine.size()) - 1);
  const GlobalRequest& g = *mine[std::size_t(*pick)];
  // Wrapped: a projector's panel is narrower than the line. The loads of a tile have no k.
  const std::string k = g.request.k >= 0 ? ", k " + std::to_string(g.request.k) : "";
  ImGui::TextWrapped("%s line %d, phase %d%s: %zu lanes -> %d sectors, %d lines, %d of %d bytes used",
                     std::string(opName(g.request.op)).c_str(), g.request.line, g.request.phase, k.c_str(),
                     g.request.lanes.size(), g.sectors, g.lines, g.bytesUsed, g.sectors * int(kSectorBytes));
  drawRequest(g, ctx.theme());
  ImGui::TextWrapped("Boxes: 32-byte sectors of each 128-byte line the warp touches (filled: fetched); ticks: "
                     "each lane's address. Fewer sectors per request = better coalescing (lecture 18).");
}

}  // namespace tilescope::ui
