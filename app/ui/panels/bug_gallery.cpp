// Bug gallery: the mistakes of the teaching material (app/core/teaching/bugs.h), each one click from
// its buggy launch and one click from its fix. When the run on screen is a gallery launch,
// the panel lists its measured symptoms: wrong P cells with expected and actual values,
// out-of-bounds loads, barriers per thread and the stale shared reads. The run worker
// measured them once per run (LoadedRun::gallery); this file only draws. The Matrices panel
// already paints the wrong P cells and the out-of-bounds loads.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/analysis/races.h"
#include "core/teaching/bugs.h"
#include "core/timeline/cell_marks.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"

namespace tilescope::ui {
namespace {

void evidence(PanelContext& ctx, const BugEvidence& ev) {
  const ImU32 bad = ctx.theme().error;
  auto line = [&](bool isBad, const std::string& text) {
    if (isBad) ImGui::PushStyleColor(ImGuiCol_Text, bad);
    ImGui::TextWrapped("%s", text.c_str());
    if (isBad) ImGui::PopStyleColor();
  };
  line(!ev.wrongCells.empty(), ev.wrongCells.empty() ? "P matches the reference"
                                                     : std::to_string(ev.wrongCells.size()) + " wrong P cells");
  char buf[160];
  for (std::size_t i = 0; i < std::min<std::size_t>(ev.wrongCells.size(), 6); ++i) {
    const WrongCell& w = ev.wrongCells[i];
    std::snprintf(buf, sizeof buf, "  P(%d,%d): expected %+.4f, got %+.4f", w.row, w.col, w.expected,
                  double(w.actual));
    ImGui::TextWrapped("%s", buf);
  }
  line(!ev.outOfBounds.empty(), std::to_string(ev.outOfBounds.size()) + " out-of-bounds accesses");
  for (std::size_t i = 0; i < std::min<std::size_t>(ev.outOfBounds.size(), 4); ++i)
    ImGui::TextWrapped("  %s", ev.outOfBounds[i].describe().c_str());
  std::snprintf(buf, sizeof buf, "barriers: %u per thread over %d phases (2 per phase needed); P stores: %u per thread",
                ev.maxBarriersPerThread, ev.phases, ev.maxStoresPerThread);
  line(showsSymptom(Symptom::ExtraBarriers, ev), buf);
  line(!ev.staleReads.empty(), std::to_string(ev.staleReads.size()) + " stale shared-memory reads");
  for (std::size_t i = 0; i < std::min<std::size_t>(ev.staleReads.size(), 4); ++i) {
    const StaleRead& s = ev.staleReads[i];
    const Event& e = s.read;
    std::snprintf(buf, sizeof buf, " of block (%d,%d), phase %d: %s[%d][%d] = %+.4f%s", e.blockX, e.blockY,
                  int(e.phase), e.op == Op::ReadM ? "Mds" : "Nds", e.sharedRow, e.sharedCol, double(e.value),
                  s.expectedKnown ? "" : " (never loaded)");
    std::string text = "  " + threadName(e.threadX, e.threadY) + buf;
    if (s.expectedKnown) {
      std::snprintf(buf, sizeof buf, " (phase's value %+.4f)", double(s.expected));
      text += buf;
    }
    ImGui::TextWrapped("%s", text.c_str());  // wrapped: narrow columns and the projector's large text
  }
}

// The race detector's verdict (analysis/races.h) next to the stale values above: the stale
// reads say what a missing barrier did on this run, the hazards say which accesses it leaves
// unordered on any schedule.
void hazardReport(PanelContext& ctx) {
  const auto analysis = shownAnalysis(ctx);  // says "Analysing..." while it is computed
  if (!analysis) return;
  const auto& hazards = analysis->hazards;
  if (hazards.empty()) {
    ImGui::TextWrapped("No shared-memory hazards: every barrier the tiles need is there.");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().error);
  ImGui::TextWrapped("%zu hazard groups between barriers (Hazards tab):", hazards.size());
  ImGui::PopStyleColor();
  for (std::size_t i = 0; i < std::min<std::size_t>(hazards.size(), 3); ++i) {
    const Hazard& h = hazards[i];
    ImGui::TextWrapped("  %s in block (%d,%d), phase %d: %s %s line %d, %s %s line %d",
                       std::string(hazardName(h.type)).c_str(), h.blockX, h.blockY, h.phase(),
                       threadName(h.first.threadX, h.first.threadY).c_str(), h.first.write ? "writes" : "reads",
                       h.first.line, threadName(h.second.threadX, h.second.threadY).c_str(),
                       h.second.write ? "writes" : "reads", h.second.line);
  }
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
    ImGui::TextWrapped("%.*s", int(bug.title.size()), bug.title.data());
    sameLineIfFits(ImGui::CalcTextSize("buggy").x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("buggy"))
      if (auto c = bugConfig(bug, false, seed)) ctx.emit(SetConfig{*c});
    sameLineIfFits(ImGui::CalcTextSize("fixed").x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("fixed"))
      if (auto c = bugConfig(bug, true, seed)) ctx.emit(SetConfig{*c});
    if (open) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("%.*s -> %.*s, from %.*s", int(bug.buggyKernel.size()), bug.buggyKernel.data(),
                         int(bug.fixedKernel.size()), bug.fixedKernel.data(), int(bug.origin.size()), bug.origin.data());
      ImGui::PopStyleColor();
      ImGui::TextWrapped("%.*s", int(bug.explanation.size()), bug.explanation.data());
      ImGui::TextWrapped("Look for: %.*s", int(bug.lookFor.size()), bug.lookFor.data());
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (listed) ImGui::Separator();
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  if (!run->gallery) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("The run on screen is not a gallery launch: press buggy or fixed above.");
    ImGui::PopStyleColor();
    return;
  }
  const Bug& bug = *run->gallery->launch.bug;
  ImGui::TextWrapped("On screen: %.*s (%s)", int(bug.title.size()), bug.title.data(),
                     run->gallery->launch.fixed ? "fixed" : "buggy");
  evidence(ctx, run->gallery->evidence);
  hazardReport(ctx);
}

}  // namespace tilescope::ui
