#include "panels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace tilescope::ui {
namespace {

constexpr std::array kPanels{
    PanelEntry{"Controls", Slot::Left, drawControlsPanel, true},
    PanelEntry{"Lesson", Slot::Left, drawLessonPanel},
    PanelEntry{"Counters", Slot::LeftBottom, drawCountersPanel, true},
    PanelEntry{"Matrices", Slot::Center, drawMatricesPanel},
    PanelEntry{"Shared memory", Slot::RightTop, drawSharedPanel},
    PanelEntry{"Thread block", Slot::RightMiddle, drawThreadBlockPanel},
    PanelEntry{"Source", Slot::RightBottom, drawSourcePanel},
    PanelEntry{"Bug gallery", Slot::RightBottom, drawBugGalleryPanel},
    PanelEntry{"Coalescing", Slot::Center, drawCoalescingPanel},
    PanelEntry{"Bank conflicts", Slot::Center, drawBanksPanel},
    PanelEntry{"Roofline", Slot::Center, drawRooflinePanel},
    PanelEntry{"Timing", Slot::Center, drawTimingPanel},
    PanelEntry{"Occupancy", Slot::LeftBottom, drawOccupancyPanel, true},
    PanelEntry{"Hazards", Slot::RightBottom, drawHazardsPanel},
    PanelEntry{"Timeline", Slot::Bottom, drawTimelinePanel},
};

struct Rect {
  float x, y, w, h;
};

// Fixed columns so that nothing overlaps at any size down to 1280x720; presentation mode's
// larger fonts widen the side columns and the timeline band.
Rect slotRect(Slot slot, ImVec2 display, float fontScale, bool presenter) {
  const float W = display.x, H = display.y;
  const float grow = std::pow(fontScale, 0.3f);
  const float left = std::round(std::clamp(W * 0.21f * grow, 240.0f, W * 0.34f));
  // The projector layout keeps the side panels and the timeline at their normal size, so the
  // large text goes to the lesson and the room to the matrices.
  const float right = presenter ? std::round(std::max(W * 0.24f, 260.0f))
                                : std::round(std::clamp(W * 0.26f * grow, 260.0f, W * 0.36f));
  const float bottom = presenter ? std::round(std::clamp(110.0f * grow, 110.0f, H * 0.25f))
                                 : std::round(std::clamp(130.0f * fontScale, 110.0f, H * 0.40f));
  const float centerW = W - left - right;
  switch (slot) {
    // The projector layout gives the whole left column to the lesson text.
    case Slot::Left: return {0, 0, left, presenter ? H : std::round(H * 0.66f)};
    case Slot::LeftBottom: return {0, std::round(H * 0.66f), left, H - std::round(H * 0.66f)};
    case Slot::Center: return {left, 0, centerW, H - bottom};
    case Slot::Bottom: return {left, H - bottom, centerW, bottom};
    case Slot::RightTop: return {W - right, 0, right, std::round(H * 0.36f)};
    case Slot::RightMiddle: return {W - right, std::round(H * 0.36f), right, std::round(H * 0.30f)};
    case Slot::RightBottom:
      return {W - right, std::round(H * 0.66f), right, H - std::round(H * 0.66f)};
  }
  return {0, 0, W, H};
}

}  // namespace

std::string_view slotTitle(Slot slot) {
  switch (slot) {
    case Slot::Left: return "left";
    case Slot::LeftBottom: return "left-bottom";
    case Slot::Center: return "center";
    case Slot::RightTop: return "right-top";
    case Slot::RightMiddle: return "right-middle";
    case Slot::RightBottom: return "right-bottom";
    case Slot::Bottom: return "bottom";
  }
  return "?";
}

std::span<const PanelEntry> panelRegistry() { return kPanels; }

std::shared_ptr<const AnalysisReport> shownAnalysis(const PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return nullptr;
  auto analysis = run->analysis();
  if (!analysis) ImGui::TextDisabled("Analysing the trace...");
  return analysis;
}

const PanelEntry* findPanel(std::string_view name) {
  for (const auto& p : kPanels)
    if (p.name == name) return &p;
  return nullptr;
}

void drawPanels(PanelContext& ctx) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  for (int s = 0; s < kSlotCount; ++s) {
    const Slot slot = Slot(s);
    std::vector<const PanelEntry*> entries;
    for (const auto& p : kPanels)
      if (p.slot == slot && !(p.hiddenForPresenter && ctx.state.lesson.presenter)) entries.push_back(&p);
    if (entries.empty()) continue;
    const Rect r = slotRect(slot, display, ctx.state.view.fontScale, ctx.state.lesson.presenter);
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
    // One panel: the window is the panel. Several: a tab bar, titled by the slot.
    const std::string title = entries.size() == 1 ? std::string(entries[0]->name) : "##" + std::string(slotTitle(slot));
    ImGuiWindowFlags flags = kFlags | (entries.size() > 1 ? ImGuiWindowFlags_NoTitleBar : 0);
    std::string shown;  // the panel drawn in this window this frame
    if (ImGui::Begin(title.c_str(), nullptr, flags)) {
      if (entries.size() == 1) {
        entries[0]->draw(ctx);
        shown = entries[0]->name;
      } else if (ImGui::BeginTabBar("tabs")) {
        const auto active = ctx.state.view.activeTab.find(std::string(slotTitle(slot)));
        for (const PanelEntry* p : entries) {
          const bool select = active != ctx.state.view.activeTab.end() && active->second == p->name;
          if (ImGui::BeginTabItem(std::string(p->name).c_str(), nullptr, select ? ImGuiTabItemFlags_SetSelected : 0)) {
            p->draw(ctx);
            shown = p->name;
            ImGui::EndTabItem();
          }
        }
        ImGui::EndTabBar();
      }
    }
    ctx.layout.windows.push_back({entries.size() == 1 ? std::string(entries[0]->name) : std::string(slotTitle(slot)),
                                  r.x, r.y, r.w, r.h, shown});
    ImGui::End();
  }
}

}  // namespace tilescope::ui
