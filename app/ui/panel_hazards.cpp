// Hazards: shared-memory races found between barriers, with both threads, the phase and
// both source lines, next to what the race did to P on this run.
#include <imgui.h>

#include <algorithm>

#include "panels.h"

namespace tilescope::ui {

void drawHazardsPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  const auto& hazards = analysis->hazards;
  const std::size_t wrong = run->wrongCount;
  ImGui::TextWrapped("%s", run->run.verification.summary().c_str());
  if (wrong > 0) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx.theme().error), "%zu P elements are wrong "
                                    "(marked in the P grid)", wrong);
  if (hazards.empty()) {
    ImGui::TextUnformatted("No hazards: every shared address written in a barrier interval is touched by one "
                           "thread only until the next barrier.");
    return;
  }
  ImGui::Text("%zu hazard groups", hazards.size());
  if (!ImGui::BeginTable("hazards", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp))
    return;
  for (const char* h : {"type", "block", "phase", "first (thread, line)", "second (thread, line)", "pairs"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const Hazard& h : hazards) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(std::string(hazardName(h.type)).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("(%d,%d)", h.blockX, h.blockY);
    ImGui::TableNextColumn();
    ImGui::Text("%d", h.phase());
    ImGui::TableNextColumn();
    ImGui::Text("(%d,%d) %s l.%d", h.first.threadX, h.first.threadY, h.first.write ? "writes" : "reads", h.first.line);
    ImGui::TableNextColumn();
    ImGui::Text("(%d,%d) %s l.%d", h.second.threadX, h.second.threadY, h.second.write ? "writes" : "reads",
                h.second.line);
    ImGui::TableNextColumn();
    ImGui::Text("%llu", (unsigned long long)h.pairs);
  }
  endTable(ctx, "hazards");
}

}  // namespace tilescope::ui
