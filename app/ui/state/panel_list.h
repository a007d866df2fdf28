// The panels as plain data: each one's name, the slot of the window it lives in, and how the
// projector layout places it. The state (showing a panel, a lesson's `show`), script mode and
// the panels themselves read this one list; panels/panels.cpp pairs each name with its draw
// function, so nothing below the panels needs to know how a panel draws.
#pragma once
#include <span>
#include <string_view>

namespace tilescope::ui {

// Where a panel lives: the window is laid out by slot (panels.cpp) so that nothing
// overlaps at 1280x720; panels sharing a slot become tabs of its window.
enum class Slot { Left, LeftBottom, Center, RightTop, RightMiddle, RightBottom, Bottom };
inline constexpr int kSlotCount = 7;
std::string_view slotTitle(Slot slot);

// How much room a panel in front of the projector's centre takes: the matrices' (beside the
// shared tiles and the block), the block's column too (a chart), or the source's as well (a
// plot over a table as wide as the screen: the ladder's percentages).
enum class PresenterRoom { Centre, Wide, Whole };

struct PanelInfo {
  std::string_view name;  // tab label, and the name `show` takes in scripts
  Slot slot;
  bool hiddenForPresenter = false;  // the projector layout leaves it out (the controls)
  PresenterRoom presenterRoom = PresenterRoom::Centre;
  bool centreForPresenter = false;  // on a projector it goes to the centre (a table too large for a side column)
};

// Every panel, in tab order. A new panel is a line here and its draw function in panels.cpp.
std::span<const PanelInfo> panelList();
const PanelInfo* findPanel(std::string_view name);

}  // namespace tilescope::ui
