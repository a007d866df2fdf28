// Coalescing: one warp's global requests of the selected block, each drawn as its lanes'
// addresses over 32-byte sectors and 128-byte lines, with the kernel's totals. Moving the
// block-shape slider reruns the kernel, so the lecture's shape table is seen happening.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>

#include "ui/model/coalescing_view.h"
#include "core/trace/memory_layout.h"
#include "kernels/ceil_div.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

constexpr const char* kPanel = "Coalescing";

// Where the request's array starts: addresses are drawn from it, the base said once.
uint64_t arrayBase(const GlobalLayout& g, const std::string& array) {
  return array == "M" ? g.baseM : array == "N" ? g.baseN : g.baseP;
}

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

// The request's 128-byte lines side by side, 4 sectors each, lanes as ticks at their byte, each
// line's bytes (from its array's start) under it.
void drawRequest(PanelContext& ctx, const GlobalRequest& g, uint64_t base) {
  const Theme& theme = ctx.theme();
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
    char label[48];
    const uint64_t first = line * kLineBytes - base;
    std::snprintf(label, sizeof label, "bytes %llu-%llu", (unsigned long long)first, (unsigned long long)(first + kLineBytes - 1));
    if (ImGui::CalcTextSize(label).x <= lineW - 2) {
      const ImVec2 at(x0 + 1, origin.y + h + 10);
      draw->AddText(at, theme.panelText, label);
      recordTextAt(ctx, kPanel, label, at, theme.panelText, theme.windowBg);
    }
  }
  ImGui::Dummy(ImVec2(width, h + 12 + ImGui::GetTextLineHeight()));
}

// One request of the warp: what it is in words, its picture, and each lane's byte address
// relative to its array's start, as many to a row as the panel has room for (lane:byte).
void drawOneRequest(PanelContext& ctx, const CoalescingRequestView& r, const GlobalLayout& arrays) {
  const GlobalRequest& g = r.request;
  const RequestPicture& pic = r.picture;
  const uint64_t base = arrayBase(arrays, pic.array);
  ctx.layout.warpRequests.push_back(pic);
  ImGui::Separator();
  char head[320];
  std::snprintf(head, sizeof head, "%s of %s, line %d: one request = warp %d's %zu lanes executing this load together. %zu "
                "sectors of 32 bytes in %zu lines of 128 bytes; efficiency %d of %d bytes moved = %.1f%%",
                pic.write ? "store" : "load", pic.array.c_str(), pic.line, pic.warp, pic.lanes.size(),
                pic.sectors.size(), pic.lines.size(), pic.bytesUsed, pic.bytesMoved,
                pic.bytesMoved ? 100.0 * pic.bytesUsed / pic.bytesMoved : 0.0);
  recordedWrapped(ctx, kPanel, head);
  drawRequest(ctx, g, base);
  const float each = ImGui::CalcTextSize("00:000000  ").x;
  const std::size_t perRow = std::max<std::size_t>(1, std::size_t(ImGui::GetContentRegionAvail().x / each));
  std::string text;
  for (std::size_t i = 0; i < pic.lanes.size(); ++i) {
    char one[48];
    std::snprintf(one, sizeof one, "%s%2d:%6llu", i % perRow ? "  " : (i ? "\n" : ""), pic.lanes[i],
                  (unsigned long long)(pic.addresses[i] - base));
    text += one;
  }
  const std::string lanes = "lane:byte of " + pic.array + "\n" + text;
  ImGui::TextUnformatted(lanes.c_str());
  recordText(ctx, kPanel, lanes);
}

// The selected warp: the followed thread's (scripts and lessons follow a thread), else the
// slider's, kept in ImGui's per-window storage.
int chooseWarp(PanelContext& ctx, int warps) {
  ImGuiStorage* store = ImGui::GetStateStorage();
  int* warp = store->GetIntRef(ImGui::GetID("warp"), 0);
  *warp = std::clamp(*warp, 0, warps - 1);
  if (const int followed = followedThread(ctx.state); followed >= 0) {
    *warp = std::min(followed / kWarpSize, warps - 1);
    char text[96];
    std::snprintf(text, sizeof text, "warp %d: the followed thread's (lanes = threads %d..%d)", *warp, *warp * kWarpSize,
                  *warp * kWarpSize + kWarpSize - 1);
    recordedWrapped(ctx, kPanel, text);
  } else {
    ImGui::SliderInt("warp", warp, 0, warps - 1);
  }
  return *warp;
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
  const int warp = chooseWarp(ctx, warps);
  const CoalescingView* view = shownCoalescingView(ctx.state, warp);
  if (!view) return;
  if (!view->warpAccesses) {
    ImGui::TextDisabled("this warp makes no global access");
    return;
  }
  if (view->requests.empty()) {
    textWrapped(view->none);
    return;
  }
  // The pictures scroll inside the panel: on a projector two requests with their addresses are
  // taller than the room.
  ImGui::BeginChild("requests", ImVec2(0, 0), false);
  // Each array's own bytes: M's element (r, c) is byte 4 (r k + c) of M, whatever its base.
  const GlobalLayout& arrays = view->arrays;
  {
    char text[200];
    std::snprintf(text, sizeof text, "Addresses count bytes from each array's start (M at %llu, N at %llu, P at %llu).",
                  (unsigned long long)arrays.baseM, (unsigned long long)arrays.baseN, (unsigned long long)arrays.baseP);
    recordedWrapped(ctx, kPanel, text);
  }
  for (const CoalescingRequestView& r : view->requests) drawOneRequest(ctx, r, arrays);
  textWrappedF(
      "Boxes: the 32-byte sectors of each 128-byte line the warp touches (filled: moved); ticks: each "
      "lane's address. Efficiency = bytes the lanes use / bytes the sectors move (lecture 18).");
  ImGui::EndChild();
}

}  // namespace tilescope::ui
