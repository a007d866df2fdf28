#include "ui/panels/panels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <imgui_internal.h>

#include "core/timeline/block_geometry.h"
#include "ui/model/occupancy_view.h"
#include "ui/model/start_page.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

// Each panel's draw function, by its symbol, in the list's order (state/panel_list.h).
using PanelFn = void (*)(PanelContext&);
constexpr PanelFn kDraws[]{
#define TILESCOPE_PANEL_FN(symbol, ...) draw##symbol##Panel,
    TILESCOPE_PANELS(TILESCOPE_PANEL_FN)
#undef TILESCOPE_PANEL_FN
};

void drawPanel(PanelContext& ctx, const PanelInfo& p) { kDraws[std::size_t(p.id)](ctx); }

struct Rect {
  float x, y, w, h;
};

// The projector layout (assets/guides/teacher.md, "At the projector"), in proportions of the
// screen so that 1280x720 and 1920x1080 look alike (its text scales with the height,
// presenterFontScale: a 36th of it, 20 px at 720 lines, readable from the back row). At that
// size four columns no longer fit, so there are three: the lesson's text on the left, with the
// Counters the page names or the followed thread's life under it, in the room the text leaves
// (more when the page names Thread life); the matrices in the centre as tall as the screen
// allows above the step in words and the timeline (the book's figure is as wide as it is tall:
// 4x4 cells of 56 px at 720 lines need 8 x 56 px plus their captions both ways); on the right
// the shared tiles beside the thread block, and under them the kernel source, which folds
// around the lines of the step (source.cpp) rather than shrink. A chart in front of the centre
// (PresenterRoom::Wide or Whole: Roofline, Occupancy, Coalescing, Bank conflicts, Timing) is
// the page's picture and takes the right column too, unless the page names a panel there.
// The ladder's tiles (Nds [bk][bn], rung 8's ring of stages) take more of the top right than
// the book's 2x2 ones, with its block beside them (its long kernels take the room under them),
// and its matrices (32x32 and more) are no longer cells to read one by one.
// What decides where the slots go this frame.
struct SlotPlan {
  ImVec2 display;
  float fontScale = 1;
  bool presenter = false;
  float lifeH = 0;  // the projector's panel under the lesson's text (0: none)
  float bandH = 0;  // the normal layout's timeline band
  float lowerLeftH = 0;  // the normal layout's panel under the controls (the Counters)
  PresenterRoom room = PresenterRoom::Centre;
  bool wideTiles = false;
  bool blockNamed = false;  // the page names the Thread block: its threads are the picture
};

// The projector's columns, in shares of the width: the lesson's text, the right column. In
// the right column, in shares of the height: the shared tiles (Mds beside Nds, the book's 2x2
// tiles at 56 px a cell at 720 lines), the thread block under them (2x2 threads at a sixteenth of the
// height, the barrier's bar beside them), the source the rest.
constexpr float kPresenterLeft = 0.27f, kPresenterRight = 0.32f;
constexpr float kPresenterSharedH = 0.27f, kPresenterBlockH = 0.2f, kPresenterWideSharedH = 0.3f;
constexpr float kPresenterWideTilesW = 0.6f;  // the ladder's tiles' share of the top right, its block the rest
// A page that names the Thread block is about its threads (a 16x16 block's warps): the block
// takes the source's room under the tiles, 16 rows of 21 px cells at 720 lines, two rows a
// warp, so each warp's band holds its label; the source is left out, as under a chart.

Rect presenterSlotRect(Slot slot, const SlotPlan& plan) {
  const float W = plan.display.x, H = plan.display.y, lifeH = plan.lifeH;
  const PresenterRoom room = plan.room;
  const float left = std::round(W * kPresenterLeft), right = std::round(W * kPresenterRight);
  const float centreW = W - left - right;
  const float top = H - plan.bandH;
  const float sharedH = std::round(H * (plan.wideTiles ? kPresenterWideSharedH : kPresenterSharedH));
  // The ladder's blocks (16 to 256 threads) are not read thread by thread: they go beside its
  // tiles, and their room under them to the source, whose long kernels fold around the step.
  const float blockH = plan.wideTiles ? 0.0f : plan.blockNamed ? H - sharedH : std::round(H * kPresenterBlockH);
  const float tilesW = plan.wideTiles ? std::round(right * kPresenterWideTilesW) : right;
  // A chart takes the right column (the tiles', the block's and the source's room) as well.
  const float chartW = room == PresenterRoom::Centre ? centreW : W - left;
  if (room != PresenterRoom::Centre && slot != Slot::Left && slot != Slot::LeftBottom && slot != Slot::Center &&
      slot != Slot::Bottom)
    return {0, 0, 0, 0};
  switch (slot) {
    case Slot::Left: return {0, 0, left, H - lifeH};
    case Slot::Center: return {left, 0, chartW, top};
    case Slot::RightTop: return {W - right, 0, tilesW, sharedH};
    case Slot::RightMiddle:
      return plan.wideTiles ? Rect{W - right + tilesW, 0, right - tilesW, sharedH} : Rect{W - right, sharedH, right, blockH};
    case Slot::Bottom: return {left, top, chartW, plan.bandH};
    case Slot::RightBottom:
      if (plan.blockNamed && !plan.wideTiles) return {0, 0, 0, 0};
      return {W - right, sharedH + blockH, right, H - sharedH - blockH};
    case Slot::LeftBottom: return {0, H - lifeH, left, lifeH};  // the named Counters or the followed thread's life, if any
  }
  return {0, 0, W, H};
}

// Fixed columns so that nothing overlaps at any size down to 1280x720; presentation mode's
// larger fonts widen the side columns, and the timeline band is as tall as its content.
Rect slotRect(Slot slot, const SlotPlan& plan) {
  if (plan.presenter) return presenterSlotRect(slot, plan);
  const float W = plan.display.x, H = plan.display.y;
  const float grow = std::pow(plan.fontScale, 0.3f);
  const float left = std::round(std::clamp(W * 0.21f * grow, 240.0f, W * 0.34f));
  const float right = std::round(std::clamp(W * 0.26f * grow, 260.0f, W * 0.36f));
  const float bottom = plan.bandH, lowerLeft = plan.lowerLeftH;
  const float centerW = W - left - right;
  switch (slot) {
    case Slot::Left: return {0, 0, left, H - lowerLeft};
    case Slot::LeftBottom: return {0, H - lowerLeft, left, lowerLeft};
    case Slot::Center: return {left, 0, centerW, H - bottom};
    case Slot::Bottom: return {left, H - bottom, centerW, bottom};
    case Slot::RightTop: return {W - right, 0, right, std::round(H * 0.36f)};
    case Slot::RightMiddle: return {W - right, std::round(H * 0.36f), right, std::round(H * 0.30f)};
    case Slot::RightBottom:
      return {W - right, std::round(H * 0.66f), right, H - std::round(H * 0.66f)};
  }
  return {0, 0, W, H};
}

// The timeline band: as tall as its content was last frame (the step in words wraps to two or
// three lines in large text), so the transport is never scrolled off screen. The projector's,
// under the matrices, is at least 7.6 lines of its text (a caption of two lines and the
// transport), so the book's small matrices (cells read one by one) keep their size from page
// to page; a longer caption takes more. Under a chart or larger matrices it is as low as its
// content, the picture the page is about taller.
float timelineBandHeight(ImVec2 display, float fontScale, bool presenter, PresenterRoom room, bool bookSized) {
  float wanted = 130.0f * fontScale;
  if (const ImGuiWindow* w = ImGui::FindWindowByName("Timeline"); w && w->ContentSize.y > 0)
    wanted = w->ContentSize.y + w->WindowPadding.y * 2 + w->TitleBarHeight() + ImGui::GetStyle().ItemSpacing.y;
  if (presenter && room == PresenterRoom::Centre && bookSized)
    return std::round(std::clamp(wanted, kBaseFontPx * fontScale * 7.6f, display.y * 0.3f));
  if (presenter) return std::round(std::clamp(wanted, kBaseFontPx * fontScale * 3.0f, display.y * 0.3f));
  return std::round(std::clamp(wanted, 110.0f, display.y * 0.40f));
}

// The normal layout's panel under the controls: as tall as its content was last frame (the
// Counters' rows whole, the last one too), between a third and a half of the height; the
// controls above it scroll.
float lowerLeftHeight(ImVec2 display) {
  float wanted = display.y * 0.34f;
  if (const ImGuiWindow* w = ImGui::FindWindowByName("##left-bottom"); w && w->ContentSize.y > 0)
    wanted = w->ContentSize.y + w->WindowPadding.y * 2 + ImGui::GetStyle().ItemSpacing.y;
  return std::round(std::clamp(wanted, display.y * 0.34f, display.y * 0.5f));
}

// Where a panel goes: its slot, or on a projector the centre for a table too large for a side
// column (the Occupancy panel).
Slot placeOf(const PanelInfo& p, bool presenter) { return presenter && p.centreForPresenter ? Slot::Center : p.slot; }

// The panel the projector layout shows under the lesson's text: the one the page names for that
// slot, else the followed thread's life, else none.
const PanelInfo* presenterLeftBottom(const PanelContext& ctx) {
  for (const std::string& name : ctx.state.lesson.pagePanels())
    if (const PanelInfo* p = findPanel(name); p && placeOf(*p, true) == Slot::LeftBottom) return p;
  return followedThread(ctx.state) >= 0 ? &panelInfo(PanelId::ThreadLife) : nullptr;
}

// The projector layout's room under the lesson's text for that panel: what the lesson's page
// left free last frame (its text whole), but at least a quarter of the height; a page that
// names Thread life is about fig. 5.8's table, which then gets at least 40 % of it.
float presenterLifeHeight(const PanelContext& ctx, ImVec2 display) {
  const PanelInfo* panel = ctx.state.lesson.presenter ? presenterLeftBottom(ctx) : nullptr;
  if (!panel) return 0;
  float lesson = display.y * 0.5f;
  if (const ImGuiWindow* w = ImGui::FindWindowByName("Lesson"))
    lesson = w->ContentSize.y + w->WindowPadding.y * 2 + w->TitleBarHeight() + ImGui::GetStyle().ItemSpacing.y;
  const bool named = panel->id == PanelId::ThreadLife && ctx.state.lesson.pageNames(panel->name);
  const float wanted = display.y - lesson;
  return std::round(std::clamp(wanted, display.y * (named ? 0.4f : 0.25f), display.y * (named ? 0.7f : 0.6f)));
}

// The followed thread's arrows over every window: each element it loaded in this phase to the
// shared slot it went to (the grids as drawn this frame).
void drawFollowArrows(PanelContext& ctx) {
  auto grid = [&](const char* name) -> const GridRect* {
    for (const GridRect& g : ctx.layout.grids)
      if (g.name == name) return &g;
    return nullptr;
  };
  // Only over the Matrices panel as drawn this frame: a chart in front of it builds no view.
  if (followedThread(ctx.state) < 0 || !grid("M")) return;
  const MatricesView* view = shownMatricesView(ctx.state);  // the followed thread's links come with it
  if (!view || !view->following) return;
  const Theme& theme = ctx.theme();
  for (const FollowLink& link : view->links) {
    const GridRect* from = grid(link.isN ? "N" : "M");
    const GridRect* to = grid(link.isN ? "Nds" : "Mds");
    if (!from || !to || link.element.row >= from->rows || link.element.col >= from->cols) continue;
    const ImVec2 a = cellCentre(*from, link.element), b = cellCentre(*to, link.slot);
    drawArrow(a, b, theme.follow, theme.background, std::max(2.0f, theme.followPx * 0.75f), to->cellWidth * 0.3f);
    ctx.layout.arrows.push_back({from->name, to->name, link.element.row, link.element.col, link.slot.row, link.slot.col,
                                 a.x, a.y, b.x, b.y});
  }
}

// Why the picture is not the newest request's, or "" when it is: a refused setting keeps the
// last picture (collectRun) and a slow one keeps it until the new run arrives; either way the
// centre says so, where the eyes are, instead of Controls alone.
std::string pictureNotice(const AppState& s) {
  const Request& r = s.request;
  if (!s.view.addressNotice.empty()) return s.view.addressNotice;  // a page's address, before its picture
  const bool lab = s.lab.pendingGeneration == r.generation;  // the Lab tab speaks for its own runs
  const bool previous = shownRun(s) != nullptr;
  // Too large to run here (app.cpp drops the old picture): no trace, and the plan is Occupancy's.
  if (!r.error.empty() && !lab && !previous && r.openFile.empty() && !r.refusedHere.empty())
    return "No trace: " + describe(r.config) + " is too large to run here; the Occupancy panel says why and "
           "shows its grid as planned";
  if (!r.error.empty() && !lab)
    return std::string(previous ? "Still showing the previous run. " : "") +
           (r.openFile.empty() ? "Cannot run " + describe(r.config) : "Cannot open " + r.openFile) + ": " + r.error;
  if (r.generation != r.shownGeneration && s.now - r.requestedAt > 0.5)
    return (lab ? std::string("Running the Lab tab's kernel") : "Running " + describe(r.config)) +
           (previous ? "... the picture shows the previous run until it is ready" : "...");
  return "";
}

// A page's address that could not be had: the same notice, with the start one click away and a
// way to close it (the nearest scene it could open is on screen behind it).
void drawAddressNotice(PanelContext& ctx, const Rect& centre) {
  const float width = centre.w * 0.8f;
  ImGui::SetNextWindowPos(ImVec2(centre.x + centre.w * 0.1f, centre.y + centre.h * 0.55f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(ctx.theme().error));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin("##address notice", nullptr, flags)) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(ctx.layout.notice.c_str());
    ImGui::PopTextWrapPos();
    const StartPage start = startPage();
    if (ImGui::Button(start.button.c_str())) {
      ctx.emit(OpenLesson{start.lesson});
      ctx.emit(DismissAddressNotice{});
    }
    ImGui::SameLine();
    if (ImGui::Button("Close")) ctx.emit(DismissAddressNotice{});
  }
  ImGui::End();
  ImGui::PopStyleColor();
}

// The notice in the centre slot's window, wrapped to most of its width.
void drawNotice(PanelContext& ctx, const Rect& centre) {
  ctx.layout.notice = pictureNotice(ctx.state);
  if (ctx.layout.notice.empty() || centre.w <= 0) return;
  if (!ctx.state.view.addressNotice.empty()) return drawAddressNotice(ctx, centre);
  const float pad = ImGui::GetFontSize() * 0.6f, width = centre.w * 0.8f;
  const ImVec2 size = ImGui::CalcTextSize(ctx.layout.notice.c_str(), nullptr, false, width - 2 * pad);
  // At the foot of the centre, over the matrices' legend rather than over the cells.
  const ImVec2 lo(centre.x + (centre.w - size.x) * 0.5f - pad, centre.y + centre.h - size.y - 3 * pad);
  const ImVec2 hi(lo.x + size.x + 2 * pad, lo.y + size.y + 2 * pad);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  draw->AddRectFilled(lo, hi, ctx.theme().windowBg, 4.0f);
  draw->AddRect(lo, hi, ctx.state.request.error.empty() ? ctx.theme().panelText : ctx.theme().error, 4.0f, 0, 2.0f);
  draw->AddText(nullptr, 0.0f, ImVec2(lo.x + pad, lo.y + pad), ctx.theme().panelText, ctx.layout.notice.c_str(), nullptr,
                width - 2 * pad);
}

// The tabs of a slot that fit its bar with their labels whole, the front one always among
// them, in the registry's order; the others behind a last tab, "+N", that lists them (ImGui
// would otherwise shrink every label to "Matric..." when large text meets a narrow column).
std::vector<const PanelInfo*> tabsThatFit(const std::vector<const PanelInfo*>& entries, const PanelInfo* front,
                                           float avail) {
  const float gap = ImGui::GetStyle().ItemInnerSpacing.x;
  auto width = [](std::string_view label) { return ImGui::TabItemCalcSize(std::string(label).c_str(), false).x; };
  float all = -gap;
  for (const PanelInfo* p : entries) all += width(p->name) + gap;
  if (all <= avail) return entries;
  const std::string more = "+" + std::to_string(entries.size());
  float used = width(front->name) + gap + width(more);  // the front tab and the "+N" tab
  std::vector<bool> keep(entries.size(), false);
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i] == front) keep[i] = true;
    else if (used + width(entries[i]->name) + gap <= avail) used += width(entries[i]->name) + gap, keep[i] = true;
  std::vector<const PanelInfo*> fit;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (keep[i]) fit.push_back(entries[i]);
  return fit;
}

// A slot's panels as tabs (the ones that fit whole, and "+N" for the rest); returns the panel
// drawn, and records each tab's width against its label's in `rect` for the layout tests.
std::string drawTabs(PanelContext& ctx, const std::vector<const PanelInfo*>& entries, const PanelInfo* front,
                     const std::string& slotName, WindowRect& rect) {
  std::string shown;
  const std::vector<const PanelInfo*> fit = tabsThatFit(entries, front, ImGui::GetContentRegionAvail().x);
  if (!ImGui::BeginTabBar("tabs")) return shown;
  const auto active = ctx.state.view.activeTab.find(slotName);
  for (const PanelInfo* p : fit) {
    const bool select = active != ctx.state.view.activeTab.end() && active->second == p->name;
    if (ImGui::BeginTabItem(std::string(p->name).c_str(), nullptr, select ? ImGuiTabItemFlags_SetSelected : 0)) {
      drawPanel(ctx, *p);
      shown = p->name;
      ImGui::EndTabItem();
    }
  }
  for (const PanelInfo* p : entries)
    if (std::find(fit.begin(), fit.end(), p) == fit.end()) rect.behindMore.emplace_back(p->name);
  if (!rect.behindMore.empty()) {
    if (ImGui::TabItemButton(("+" + std::to_string(rect.behindMore.size())).c_str(), ImGuiTabItemFlags_Trailing))
      ImGui::OpenPopup("more panels");
    if (ImGui::BeginPopup("more panels")) {
      for (const std::string& name : rect.behindMore)
        if (ImGui::Selectable(name.c_str())) ctx.emit(ShowPanel{name});
      ImGui::EndPopup();
    }
  }
  if (const ImGuiTabBar* bar = GImGui->CurrentTabBar)
    for (const ImGuiTabItem& tab : bar->Tabs)
      if (tab.LastFrameVisible == ImGui::GetFrameCount())
        rect.tabs.push_back({bar->GetTabName(&tab), tab.Width, tab.ContentWidth});
  ImGui::EndTabBar();
  // A tab clicked by hand is remembered, so the presenter layout shows what was in front.
  if (!shown.empty() && shown != front->name && active == ctx.state.view.activeTab.end()) ctx.emit(ShowPanel{shown});
  return shown;
}

// How much the window's content took this frame against the room inside it.
void measureWindow(WindowRect& w) {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  w.contentWidth = window->DC.CursorMaxPos.x - window->DC.CursorStartPos.x;
  w.contentHeight = window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y;
  w.innerWidth = window->ContentRegionRect.GetWidth();
  w.innerHeight = window->ContentRegionRect.GetHeight();
}

}  // namespace

// A 36th of the height (a slide of 36 lines): 20 px at 720 lines, 30 at 1080.
float presenterFontScale(float displayHeight) { return std::clamp(displayHeight / (36.0f * kBaseFontPx), 1.0f, 3.0f); }


std::shared_ptr<const AnalysisReport> shownAnalysis(const PanelContext& ctx) {
  if (!shownRun(ctx.state)) return nullptr;
  if (!ctx.state.shown.analysis) ImGui::TextDisabled("Analysing the trace...");
  return ctx.state.shown.analysis;
}

void endTable(PanelContext& ctx, std::string_view name) {
  if (const ImGuiTable* table = ImGui::GetCurrentTable()) {
    TableRect t{std::string(name), {}, {}};
    for (int i = 0; i < table->ColumnsCount; ++i) {
      const ImGuiTableColumn& c = table->Columns[i];
      if (!c.IsEnabled) continue;
      // ImGui resets these to the column's left edge each frame and raises them per cell.
      t.contentRight.push_back(std::max({c.ContentMaxXUnfrozen, c.ContentMaxXFrozen, c.ContentMaxXHeadersUsed}));
      t.right.push_back(c.ClipRect.Max.x);
    }
    ctx.layout.tables.push_back(std::move(t));
  }
  ImGui::EndTable();
}

void drawPanels(PanelContext& ctx) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float lifeH = presenterLifeHeight(ctx, display);
  const bool presenter = ctx.state.lesson.presenter;
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  // The projector leaves out the controls, but never a panel the page's text names.
  auto slotEntries = [&](Slot slot) {
    std::vector<const PanelInfo*> entries;
    for (const PanelInfo& p : panelList())
      if (placeOf(p, presenter) == slot && !(p.hiddenForPresenter && presenter && !ctx.state.lesson.pageNames(p.name)))
        entries.push_back(&p);
    return entries;
  };
  // The panel last brought forward in a slot (the first one until then).
  auto frontOf = [&](Slot slot, const std::vector<const PanelInfo*>& entries) {
    if (presenter)  // a panel the page names comes first (Occupancy is shown in the centre there)
      for (const std::string& name : ctx.state.lesson.pagePanels())
        for (const PanelInfo* p : entries)
          if (p->name == name) return p;
    const auto recorded = ctx.state.view.slotPanel.find(std::string(slotTitle(slot)));
    const PanelInfo* front = entries[0];
    for (const PanelInfo* p : entries)
      if (recorded != ctx.state.view.slotPanel.end() && recorded->second == p->name) front = p;
    return front;
  };
  // A wide chart takes the shared tiles' and the block's room (and the Timing panel the
  // source's) unless the page names one of the panels it would hide.
  PresenterRoom room = presenter ? frontOf(Slot::Center, slotEntries(Slot::Center))->presenterRoom : PresenterRoom::Centre;
  for (const std::string& name : ctx.state.lesson.pagePanels())
    if (const PanelInfo* p = findPanel(name); p && (p->slot == Slot::RightTop || p->slot == Slot::RightMiddle ||
                                                    p->slot == Slot::RightBottom))
      room = PresenterRoom::Centre;
  const LoadedRun* run = shownRun(ctx.state);
  const bool bookSized = !run || std::max({run->run.plan.launch.j, run->run.plan.launch.k, run->run.plan.launch.l}) <= 16;
  const SlotPlan plan{display, ctx.state.view.fontScale, presenter, lifeH, timelineBandHeight(display, ctx.state.view.fontScale, presenter, room, bookSized),
                      lowerLeftHeight(display), room, run && ladderSharedShape(run->run.plan.launch).has_value(),
                      ctx.state.lesson.pageNames(panelInfo(PanelId::ThreadBlock).name)};
  for (int s = 0; s < kSlotCount; ++s) {
    const Slot slot = Slot(s);
    std::vector<const PanelInfo*> entries = slotEntries(slot);
    if (entries.empty()) continue;
    const Rect r = slotRect(slot, plan);
    // Nothing in the projector layout: the left column's lower panel when the page names none
    // and no thread is followed, the right column under a wide chart.
    if (r.w <= 0 || r.h <= 0) continue;
    const std::string slotName(slotTitle(slot));
    const PanelInfo* front = presenter && slot == Slot::LeftBottom ? presenterLeftBottom(ctx) : frontOf(slot, entries);
    // On a projector a slot shows one panel, titled by it: no tab bar to truncate labels.
    if (presenter) entries = {front};
    ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
    // One panel: the window is the panel. Several: a tab bar, titled by the slot.
    const std::string title = entries.size() == 1 ? std::string(entries[0]->name) : "##" + slotName;
    ImGuiWindowFlags flags = kFlags | (entries.size() > 1 ? ImGuiWindowFlags_NoTitleBar : 0);
    std::string shown;  // the panel drawn in this window this frame
    WindowRect rect;
    rect.name = entries.size() == 1 ? std::string(entries[0]->name) : slotName;
    rect.x = r.x, rect.y = r.y, rect.width = r.w, rect.height = r.h;
    if (ImGui::Begin(title.c_str(), nullptr, flags)) {
      if (entries.size() == 1) {
        drawPanel(ctx, *entries[0]);
        shown = entries[0]->name;
      } else {
        shown = drawTabs(ctx, entries, front, slotName, rect);
      }
      measureWindow(rect);
    }
    rect.tab = shown;
    ctx.layout.windows.push_back(rect);
    ImGui::End();
  }
  drawFollowArrows(ctx);
  // The sentences about the GPU the panels show (the layout file's record of them).
  for (const std::string* note : {&ctx.state.gpuCodeNote, &ctx.state.cudaUnavailable, &ctx.state.analysis.noDevice,
                                  &ctx.state.timing.liveUnavailable})
    if (!note->empty()) ctx.layout.gpuNotes.push_back(*note);
  drawKeyHelp(ctx);
  drawNotice(ctx, slotRect(Slot::Center, plan));
}

}  // namespace tilescope::ui
