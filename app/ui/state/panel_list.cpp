#include "ui/state/panel_list.h"

#include <array>

namespace tilescope::ui {
namespace {

constexpr std::array kPanels{
    PanelInfo{"Controls", Slot::Left, true},
    PanelInfo{"Lesson", Slot::Left},
    PanelInfo{"Counters", Slot::LeftBottom, true},
    PanelInfo{"Matrices", Slot::Center},
    PanelInfo{"Shared memory", Slot::RightTop},
    PanelInfo{"Thread block", Slot::RightMiddle},
    PanelInfo{"Source", Slot::RightBottom},
    PanelInfo{"Bug gallery", Slot::RightBottom},
    PanelInfo{"Coalescing", Slot::Center, false, PresenterRoom::Wide},
    PanelInfo{"Copy engine", Slot::Center, false, PresenterRoom::Wide},
    PanelInfo{"Tensor core", Slot::Center, false, PresenterRoom::Wide},
    PanelInfo{"Bank conflicts", Slot::Center, false, PresenterRoom::Wide},
    PanelInfo{"Roofline", Slot::Center, false, PresenterRoom::Wide},
    PanelInfo{"Timing", Slot::Center, false, PresenterRoom::Whole},
    PanelInfo{"Lab", Slot::Center},
    PanelInfo{"Occupancy", Slot::LeftBottom, true, PresenterRoom::Wide, true},
    PanelInfo{"Thread life", Slot::LeftBottom},
    PanelInfo{"Hazards", Slot::RightBottom},
    PanelInfo{"Timeline", Slot::Bottom},
};

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

std::span<const PanelInfo> panelList() { return kPanels; }

const PanelInfo* findPanel(std::string_view name) {
  for (const PanelInfo& p : kPanels)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace tilescope::ui
