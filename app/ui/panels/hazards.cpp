// Hazards: shared-memory races found between barriers, with both threads, the phase and
// both source lines, next to what the race did to P on this run.
#include <imgui.h>

#include <algorithm>

#include "core/timeline/cell_marks.h"
#include "ui/panels/panels.h"

namespace tilescope::ui {

void drawHazardsPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  const auto& hazards = analysis->hazards;
  const std::size_t wrong = std::size_t(run->run.verification.wrong);
  ImGui::TextWrapped("%s", run->run.verification.summary().c_str());
  if (wrong > 0) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx.theme().error), "%zu P elements are wrong "
                                    "(marked in the P grid)", wrong);
  if (hazards.empty()) {
    ImGui::TextWrapped("No hazards: every shared address written in a barrier interval is touched by one "
                       "thread only until the next barrier.");
    return;
  }
  ImGui::Text("%zu hazard groups", hazards.size());
  // Where the race shows: the views replay the emulator's order (or say why they cannot).
  const Timeline& t = run->timeline;
  if (t.realOrder())
    ImGui::TextWrapped("The views follow the order the emulator ran: each thread runs to its barrier before the "
                       "next starts. Red frames in Mds and Nds: slots read stale (%zu reads in all); in P: running "
                       "sums that took a stale value.", t.staleReads().size());
  else if (!t.orderNote().empty())
    ImGui::TextWrapped("%s. The table is what the race detector finds in the trace.", t.orderNote().c_str());
  // Four columns whose text wraps: nothing is cut at 1280x800.
  if (!ImGui::BeginTable("hazards", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("race", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("first", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("then", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("pairs", ImGuiTableColumnFlags_WidthStretch, 0.4f);
  ImGui::TableHeadersRow();
  auto access = [](const HazardAccess& a) {
    return threadName(a.threadX, a.threadY) + (a.write ? " writes" : " reads") + ", line " + std::to_string(a.line);
  };
  for (const Hazard& h : hazards) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s, block (%d,%d), phase %d, %cds[%d][%d]", std::string(hazardName(h.type)).c_str(), h.blockX,
                       h.blockY, h.phase(), h.matrix, h.sharedRow, h.sharedCol);
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", access(h.first).c_str());
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", access(h.second).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%llu", (unsigned long long)h.pairs);
  }
  endTable(ctx, "hazards");
}

}  // namespace tilescope::ui
