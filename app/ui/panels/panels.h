// Panels: one file each (panels/<name>.cpp), one function each. A panel reads AppState,
// draws with ImGui (and grids through GridPainter), and changes nothing itself: it pushes
// intents and records what it drew in the frame's layout. The list of panels is plain data
// (state/panel_list.h). See app/README.md, "Adding a panel".
#pragma once
#include <span>
#include <string_view>

#include "ui/panels/grid_view.h"
#include "ui/state/app_state.h"
#include "ui/state/frame_layout.h"
#include "ui/state/panel_list.h"

namespace tilescope::ui {

inline constexpr float kBaseFontPx = 15.0f;  // the interface's text at font scale 1

// The projector layout's font scale for a screen `displayHeight` pixels high: the text takes
// the same share of the picture at 1280x720 as at 1920x1080 (1.75 there).
float presenterFontScale(float displayHeight);

struct PanelContext {
  const AppState& state;
  IntentQueue& intents;  // push what the user asked for; applied before the next frame
  GridPainter& grids;
  FrameLayout& layout;
  ImFont* monoFont = nullptr;  // for source code
  std::span<ImFont* const> codeFonts;  // the mono font at smaller sizes, largest first (Source fits the kernel)
  ImFont* captionFont = nullptr;       // the step in words, larger than the text
  const Theme& theme() const { return state.theme; }
  void emit(Intent intent) { intents.push_back(std::move(intent)); }
};

// Draws every slot's window with its panels (tabs when a slot has several).
void drawPanels(PanelContext& ctx);

// The panels, one file each (panels/<file>.cpp of its line in state/panel_list.h): draw<Symbol>Panel.
#define TILESCOPE_PANEL_DRAW(symbol, ...) void draw##symbol##Panel(PanelContext& ctx);
TILESCOPE_PANELS(TILESCOPE_PANEL_DRAW)
#undef TILESCOPE_PANEL_DRAW
// The analysis profile combo and its note (occupancy.cpp), shared by Roofline and Occupancy.
void drawAnalysisProfileChoice(PanelContext& ctx);
void drawKeyHelp(PanelContext& ctx);  // the overlay of keys (? and F1), over every panel
// The run's sliders (controls.cpp), shared by Controls and the presenter's lesson panel, where a
// teacher moves them without leaving the projector layout: true when `config` changed.
// Compact: on one line, each value naming itself inside its frame ("n = 64", "T = 16").
bool sizeSlider(LaunchConfig& config, bool compact = false);  // a square run's n
bool tileChoice(LaunchConfig& config, bool compact = false);  // the tiling, the tile width T or the block shape

// ImGui::EndTable, having recorded how wide each column's content was (FrameLayout::tables,
// under `name`): every panel ends its tables with it, so the layout tests see text a column cuts.
void endTable(PanelContext& ctx, std::string_view name);

// The analysis of the run on screen for the analysis panels, or null, having said why
// (no run yet, or its analysis still being computed: it follows the picture).
std::shared_ptr<const AnalysisReport> shownAnalysis(const PanelContext& ctx);

}  // namespace tilescope::ui
