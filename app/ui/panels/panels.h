// Panels: one file each (panels/<name>.cpp), one function each. A panel reads AppState,
// draws with ImGui (and grids through GridPainter), and changes nothing itself: it pushes
// intents and records what it drew in the frame's layout. The list of panels is plain data
// (state/panel_list.h). See README.md, "For contributors: adding a panel".
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

using PanelFn = void (*)(PanelContext&);
// A panel's draw function, by its name in panelList() (state/panel_list.h), or null.
PanelFn panelDraw(std::string_view name);

// Draws every slot's window with its panels (tabs when a slot has several).
void drawPanels(PanelContext& ctx);

// The panels (one file each).
void drawControlsPanel(PanelContext& ctx);
void drawCountersPanel(PanelContext& ctx);
void drawMatricesPanel(PanelContext& ctx);
void drawSharedPanel(PanelContext& ctx);
void drawThreadBlockPanel(PanelContext& ctx);
void drawSourcePanel(PanelContext& ctx);
void drawTimelinePanel(PanelContext& ctx);
// The analysis panels (README.md, "Memory-access analysis").
void drawCoalescingPanel(PanelContext& ctx);
void drawCopyEnginePanel(PanelContext& ctx);  // rung 8: the ring of stages the copy engine fills
void drawTensorCorePanel(PanelContext& ctx);  // rung 10: a warp's MMA, each element by the lane holding it
void drawBanksPanel(PanelContext& ctx);
void drawRooflinePanel(PanelContext& ctx);
void drawOccupancyPanel(PanelContext& ctx);
void drawHazardsPanel(PanelContext& ctx);
// The analysis profile combo and its note (panel_occupancy.cpp), shared by Roofline and Occupancy.
void drawAnalysisProfileChoice(PanelContext& ctx);
void drawBugGalleryPanel(PanelContext& ctx);  // teaching
void drawTimingPanel(PanelContext& ctx);      // live and recorded timings (README.md, "Timing in the app")
void drawLessonPanel(PanelContext& ctx);      // the guided lesson: page text, next/back, presenter
void drawLabPanel(PanelContext& ctx);         // the kernel lab: editor, launch, verdict, exercises (README.md, "The kernel lab")
void drawThreadLifePanel(PanelContext& ctx);  // the followed thread's life, as fig. 5.8 tabulates it
void drawKeyHelp(PanelContext& ctx);          // the overlay of keys (? and F1), over every panel

// ImGui::EndTable, having recorded how wide each column's content was (FrameLayout::tables,
// under `name`): every panel ends its tables with it, so the layout tests see text a column cuts.
void endTable(PanelContext& ctx, std::string_view name);

// The analysis of the run on screen for the analysis panels, or null, having said why
// (no run yet, or its analysis still being computed: it follows the picture).
std::shared_ptr<const AnalysisReport> shownAnalysis(const PanelContext& ctx);

}  // namespace tilescope::ui
