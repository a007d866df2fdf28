// The panels as plain data: each one's name, the slot of the window it lives in, and how the
// projector layout places it. The state (showing a panel, a lesson's `show`), script mode and
// the panels themselves read this one list; panels/panels.cpp expands the same list into each
// panel's draw function, so nothing below the panels needs to know how a panel draws.
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

// The panels, one line each, in tab order: X(Symbol, file, "Tab name", Slot, options...).
// The panel is app/ui/panels/<file>.cpp, defining `void draw<Symbol>Panel(PanelContext&)`;
// CMake compiles the file from this line (app/ui/CMakeLists.txt), panels.cpp draws it by its
// symbol, and its tab name is the name `show` takes in scripts and lessons. The options are
// PanelInfo's fields after the slot, by name (.hiddenForPresenter = true, ...). A new panel is
// its file and its line here (app/README.md, "Adding a panel").
// clang-format off
#define TILESCOPE_PANELS(X)                                                                  \
  X(Controls, controls, "Controls", Slot::Left, .hiddenForPresenter = true)                  \
  X(Lesson, lesson, "Lesson", Slot::Left)                                                    \
  X(Counters, counters, "Counters", Slot::LeftBottom, .hiddenForPresenter = true)            \
  X(Matrices, matrices, "Matrices", Slot::Center)                                            \
  X(Shared, shared, "Shared memory", Slot::RightTop)                                         \
  X(ThreadBlock, thread_block, "Thread block", Slot::RightMiddle)                            \
  X(Source, source, "Source", Slot::RightBottom)                                             \
  X(BugGallery, bug_gallery, "Bug gallery", Slot::RightBottom)                               \
  X(Coalescing, coalescing, "Coalescing", Slot::Center, .presenterRoom = PresenterRoom::Wide) \
  X(CopyEngine, copy_engine, "Copy engine", Slot::Center, .presenterRoom = PresenterRoom::Wide) \
  X(TensorCore, tensor_core, "Tensor core", Slot::Center, .presenterRoom = PresenterRoom::Wide) \
  X(Banks, banks, "Bank conflicts", Slot::Center, .presenterRoom = PresenterRoom::Wide)      \
  X(Roofline, roofline, "Roofline", Slot::Center, .presenterRoom = PresenterRoom::Wide)      \
  X(Timing, timing, "Timing", Slot::Center, .presenterRoom = PresenterRoom::Whole)           \
  X(Lab, lab, "Lab", Slot::Center)                                                           \
  X(Occupancy, occupancy, "Occupancy", Slot::LeftBottom, .hiddenForPresenter = true,         \
    .presenterRoom = PresenterRoom::Wide, .centreForPresenter = true)                        \
  X(ThreadLife, thread_life, "Thread life", Slot::LeftBottom)                                \
  X(Hazards, hazards, "Hazards", Slot::RightBottom)                                          \
  X(Timeline, timeline, "Timeline", Slot::Bottom)
// clang-format on

// Each panel by its symbol: code that means a panel names it so (a typo does not compile).
enum class PanelId {
#define TILESCOPE_PANEL_ID(symbol, ...) symbol,
  TILESCOPE_PANELS(TILESCOPE_PANEL_ID)
#undef TILESCOPE_PANEL_ID
};

struct PanelInfo {
  PanelId id;
  std::string_view name;  // tab label, and the name `show` takes in scripts
  Slot slot;
  bool hiddenForPresenter = false;  // the projector layout leaves it out (the controls)
  PresenterRoom presenterRoom = PresenterRoom::Centre;
  bool centreForPresenter = false;  // on a projector it goes to the centre (a table too large for a side column)
};

// Every panel, in tab order (the list above).
std::span<const PanelInfo> panelList();
const PanelInfo& panelInfo(PanelId id);
std::string_view panelName(PanelId id);
// The panel a script or a lesson names, or null.
const PanelInfo* findPanel(std::string_view name);

}  // namespace tilescope::ui
