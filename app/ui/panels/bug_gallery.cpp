// Bug gallery: the mistakes of the teaching material (app/core/teaching/bugs.h), each one click from
// its buggy launch and one click from its fix. When the run on screen is a gallery launch,
// the panel lists its measured symptoms: wrong P cells with expected and actual values,
// out-of-bounds loads, barriers per thread and the stale shared reads. The run worker
// measured them once per run (LoadedRun::gallery), the view words them once per run
// (model/hazards_view.h); this file only draws. The Matrices panel already paints the wrong P
// cells and the out-of-bounds loads.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "core/teaching/bugs.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

// The race detector's verdict (analysis/races.h) next to the stale values above: the stale
// reads say what a missing barrier did on this run, the hazards say which accesses it leaves
// unordered on any schedule.
void hazardReport(PanelContext& ctx) {
  if (!shownAnalysis(ctx)) return;  // says "Analysing..." while it is computed
  const HazardsView* hazards = shownHazardsView(ctx.state);
  if (!hazards) return;
  if (hazards->rows.empty()) {
    textWrappedF("No shared-memory hazards: every barrier the tiles need is there.");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().error);
  textWrappedF("%zu hazard groups between barriers (Hazards tab):", hazards->rows.size());
  ImGui::PopStyleColor();
  for (std::size_t i = 0; i < std::min<std::size_t>(hazards->rows.size(), 3); ++i)
    textWrappedF("  %s", hazards->rows[i].sentence.c_str());
}

}  // namespace

void drawBugGalleryPanel(PanelContext& ctx) {
  const uint64_t seed = ctx.state.request.config.seed;
  // On a projector the panel shows the bug on screen and its evidence; the list is a control.
  const bool listed = !(ctx.state.lesson.presenter && shownRun(ctx.state) && shownRun(ctx.state)->gallery);
  for (const Bug& bug : listed ? bugGallery() : std::span<const Bug>()) {
    ImGui::PushID(bug.id.data(), bug.id.data() + bug.id.size());
    // The title wraps beside the node's arrow (a tree node's own label would run past a narrow
    // column in large text); the node's row stays clickable across the column.
    const bool open = ImGui::TreeNodeEx("##bug", ImGuiTreeNodeFlags_SpanAvailWidth);
    ImGui::SameLine();
    textWrapped(bug.title);
    sameLineIfFits(ImGui::CalcTextSize("buggy").x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("buggy"))
      if (auto c = bugConfig(bug, false, seed)) ctx.emit(SetConfig{*c});
    sameLineIfFits(ImGui::CalcTextSize("fixed").x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("fixed"))
      if (auto c = bugConfig(bug, true, seed)) ctx.emit(SetConfig{*c});
    if (open) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      textWrappedF("%.*s -> %.*s, from %.*s", int(bug.buggyKernel.size()), bug.buggyKernel.data(),
                   int(bug.fixedKernel.size()), bug.fixedKernel.data(), int(bug.origin.size()), bug.origin.data());
      ImGui::PopStyleColor();
      textWrapped(bug.explanation);
      textWrappedF("Look for: %.*s", int(bug.lookFor.size()), bug.lookFor.data());
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (listed) ImGui::Separator();
  const BugGalleryView* view = shownBugGalleryView(ctx.state);
  if (!view) return;
  if (!view->gallery) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrappedF("The run on screen is not a gallery launch: press buggy or fixed above.");
    ImGui::PopStyleColor();
    return;
  }
  textWrapped(view->onScreen);
  for (const EvidenceLine& line : view->evidence) {
    if (line.bad) ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().error);
    textWrapped(line.text);  // wrapped: narrow columns and the projector's large text
    if (line.bad) ImGui::PopStyleColor();
  }
  hazardReport(ctx);
}

}  // namespace tilescope::ui
