// Bank heat map: for every phase, the 32 banks of the Mds and Nds reads and writes, each
// cell the most distinct words one request asked of that bank (1 = conflict-free).
#include <imgui.h>

#include <algorithm>

#include "panels.h"

namespace tilescope::ui {

void drawBanksPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  const BankReport& b = analysis->banks;
  // The padding lesson: tiled-transposed's row stride is T + pad, a run-time argument.
  const LaunchConfig& asked = ctx.state.request.config;
  if (asked.kernel == KernelId::TiledTransposed) {
    int pad = asked.pad;
    if (ImGui::SliderInt("pad (tile rows of T + pad floats)", &pad, 0, 4)) {
      LaunchConfig c = asked;
      c.pad = pad;
      ctx.emit(SetConfig{c});
    }
  }
  if (b.heat.empty()) {
    ImGui::TextDisabled("this kernel uses no shared memory");
    return;
  }
  ImGui::TextWrapped("shared loads: %llu requests, %llu wavefronts (%llu conflicts); stores: %llu, %llu",
                     (unsigned long long)b.loads.requests, (unsigned long long)b.loads.wavefronts,
                     (unsigned long long)b.loads.conflicts(), (unsigned long long)b.stores.requests,
                     (unsigned long long)b.stores.wavefronts);
  const char* kNote =
      "Source-level requests. nvcc may merge four Mds[ty][kk] reads into one 128-bit load when T is a compile-time "
      "multiple of 4 (tiled, tiled-bounds), so the GPU's counters show fewer, wider loads there; tiled-dynamic and "
      "tiled-transposed match ncu exactly. Try tiled-transposed with T = 32 and pad 0, then pad 1.";
  // The rows (four a phase: a long kernel has dozens) scroll inside the panel, above the note,
  // keeping at least three rows in view; the labels take what they need at this font.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row = ImGui::GetTextLineHeightWithSpacing();
  const float noteH = ImGui::CalcTextSize(kNote, nullptr, false, ImGui::GetContentRegionAvail().x).y + style.ItemSpacing.y;
  const float rowsH = float(b.heat.size()) * row + style.WindowPadding.y;
  const float height = std::min(rowsH, std::max(ImGui::GetContentRegionAvail().y - noteH, 3.0f * row));
  ImGui::BeginChild("heat", ImVec2(0, height), false);
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float labelW = ImGui::CalcTextSize("phase 00 Mds write").x + style.ItemSpacing.x;
  const float cell = std::max(4.0f, (ImGui::GetContentRegionAvail().x - labelW) / float(kBanks));
  for (const BankHeat& h : b.heat) {
    ImGui::Text("phase %2d %cds %-5s", h.phase, h.matrix, h.write ? "write" : "read");
    ImGui::SameLine(labelW);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    for (int bank = 0; bank < kBanks; ++bank) {
      const int words = h.maxWords[bank];
      // Conflict-free cells keep the idle colour; the error colour grows with the degree.
      const ImU32 base = words <= 1 ? theme.cellIdle : theme.error;
      const int alpha = words <= 1 ? 255 : std::min(255, 80 + 175 * (words - 1) / 31);
      const ImU32 fill = (base & 0x00ffffffu) | (ImU32(alpha) << 24);
      const ImVec2 a(p.x + float(bank) * cell, p.y), z(a.x + cell - 1, a.y + ImGui::GetTextLineHeight());
      draw->AddRectFilled(a, z, fill);
      if (ImGui::IsMouseHoveringRect(a, z))
        ImGui::SetTooltip("bank %d: up to %d distinct words in one request", bank, words);
    }
    ImGui::Dummy(ImVec2(cell * kBanks - 1, ImGui::GetTextLineHeight()));
  }
  ImGui::EndChild();
  ImGui::TextWrapped("%s", kNote);
}

}  // namespace tilescope::ui
