// Counters: what the grid has done up to the cursor (all blocks in lockstep): global loads
// against what the naive kernel would need for the same multiply-adds, bytes, FLOPs, OP/B.
// Every line fits the narrow column: a figure too wide is shortened (1.97M) with the exact one
// in its tooltip, and names wrap. The figures are the view's (model/counters_view.h); this
// file only decides which shortening fits and draws.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {

void drawCountersPanel(PanelContext& ctx) {
  const CountersView* view = shownCountersView(ctx.state);
  if (!view) return;
  // The figures get the width the widest of them needs once shortened (or the room the widest
  // name leaves, if more); a figure exactly that wide or narrower is shown exactly. The names
  // wrap in the rest.
  float nameWidth = 0, valueWidth = 0;
  for (const CounterLine& l : view->lines) {
    nameWidth = std::max(nameWidth, ImGui::CalcTextSize(l.name.c_str()).x);
    valueWidth = std::max(valueWidth, ImGui::CalcTextSize((l.shortened.empty() ? l.exact : l.shortened).c_str()).x);
  }
  valueWidth = std::max(valueWidth, ImGui::GetContentRegionAvail().x - nameWidth - ImGui::GetStyle().CellPadding.x * 4);
  if (!ImGui::BeginTable("counters", 2)) return;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, valueWidth);
  for (const CounterLine& l : view->lines) {
    const bool shortened = !l.shortened.empty() && ImGui::CalcTextSize(l.exact.c_str()).x > valueWidth;
    const std::string& shown = shortened ? l.shortened : l.exact;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    textWrapped(l.name);
    if (!l.tip.empty() && ImGui::IsItemHovered()) tooltip(l.tip);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(shown.c_str());
    if (shortened && ImGui::IsItemHovered()) tooltip(l.exact);
    ctx.layout.counters.push_back({l.name, shown, l.exact});
  }
  endTable(ctx, "counters");
}

}  // namespace tilescope::ui
