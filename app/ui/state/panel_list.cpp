#include "ui/state/panel_list.h"

#include <array>

namespace tilescope::ui {
namespace {

constexpr std::array kPanels{
#define TILESCOPE_PANEL_INFO(symbol, file, label, where, ...) \
  PanelInfo{.id = PanelId::symbol, .name = label, .slot = where __VA_OPT__(, ) __VA_ARGS__},
    TILESCOPE_PANELS(TILESCOPE_PANEL_INFO)
#undef TILESCOPE_PANEL_INFO
};
// The list's order is the enum's: panelInfo reads a panel by its id.
static_assert([] {
  for (std::size_t i = 0; i < kPanels.size(); ++i)
    if (kPanels[i].id != PanelId(i)) return false;
  return true;
}());

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

const PanelInfo& panelInfo(PanelId id) { return kPanels[std::size_t(id)]; }

std::string_view panelName(PanelId id) { return panelInfo(id).name; }

const PanelInfo* findPanel(std::string_view name) {
  for (const PanelInfo& p : kPanels)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace tilescope::ui
