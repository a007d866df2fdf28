// Hazards: shared-memory races found between barriers, with both threads, the phase and
// both source lines, next to what the race did to P on this run. The words are the view's
// (model/hazards_view.h, built once per run and analysis); this file only draws.
#include <imgui.h>

#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {

void drawHazardsPanel(PanelContext& ctx) {
  if (!shownAnalysis(ctx)) return;  // says "Analysing..." while it is computed
  const HazardsView* view = shownHazardsView(ctx.state);
  if (!view) return;
  textWrapped(view->verification);
  if (view->wrong > 0)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx.theme().error), "%zu P elements are wrong (marked in the P grid)",
                       view->wrong);
  if (view->rows.empty()) {
    textWrappedF(
        "No hazards: every shared address written in a barrier interval is touched by one "
        "thread only until the next barrier.");
    return;
  }
  ImGui::Text("%zu hazard groups", view->rows.size());
  if (!view->order.empty()) textWrapped(view->order);
  // Four columns whose text wraps: nothing is cut at 1280x800.
  if (!ImGui::BeginTable("hazards", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("race", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("first", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("then", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("pairs", ImGuiTableColumnFlags_WidthStretch, 0.4f);
  ImGui::TableHeadersRow();
  for (const HazardRow& h : view->rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    textWrapped(h.race);
    ImGui::TableNextColumn();
    textWrapped(h.first);
    ImGui::TableNextColumn();
    textWrapped(h.second);
    ImGui::TableNextColumn();
    ImGui::Text("%llu", h.pairs);
  }
  endTable(ctx, "hazards");
}

}  // namespace tilescope::ui
