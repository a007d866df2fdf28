// Matrices: M (j x k), N (k x l) and P (j x l) laid out as in the book's figures (N above P,
// M to its left). The current phase's tiles carry the highlight ring, each element coloured
// by the thread that loaded it; zero-filled elements are hatched, out-of-bounds ones red;
// P cells fill in as they are stored. Click a P cell to select its block.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/model/thread_story.h"
#include "ui/model/matrices_view.h"

namespace tilescope::ui {
namespace {

using gfx::CellStyle;

// One entry of the legend: a swatch and what it marks.
struct LegendEntry {
  Rgba colour;
  const char* label;
  uint32_t marks = 0;
};

std::vector<LegendEntry> legendEntries(const PanelContext& ctx, const MatricesView& v) {
  const Theme& theme = ctx.theme();
  std::vector<LegendEntry> entries;
  if (!v.shading) entries.push_back({theme.threadColour(0), "loaded by thread"});
  entries.push_back({theme.highlight, "current tile"});
  if (followedThread(ctx.state) >= 0) entries.push_back({theme.follow, "followed thread"});
  entries.push_back({theme.zeroFilled, "zero-filled", gfx::kMarkHatch});
  entries.push_back({theme.pStored, "P stored"});
  entries.push_back({theme.error, v.realOrder ? "wrong / out of bounds; framed: stale or spoiled" : "wrong / out of bounds"});
  return entries;
}

// The width of an entry on one line: its swatch, a space, its words.
float entryWidth(const LegendEntry& e) {
  return ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(e.label).x;
}

// Its words are recorded for the layout file: the tests check the legend is not cut off.
void legendSwatch(PanelContext& ctx, const LegendEntry& e) {
  const float side = ImGui::GetTextLineHeight();
  sameLineIfFits(entryWidth(e));
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, ImVec2(p.x + side, p.y + side), e.colour);
  if (e.marks & gfx::kMarkHatch)
    for (float d = 0; d < side; d += 4) draw->AddLine(ImVec2(p.x + d, p.y + side), ImVec2(p.x + side, p.y + d), IM_COL32(255, 255, 255, 120));
  ImGui::Dummy(ImVec2(side, side));
  ImGui::SameLine();
  ImGui::TextWrapped("%s", e.label);
  recordText(ctx, "Matrices", e.label);
}

// The shading's legend: a pale-to-dark bar from 1 to the naive kernel's count, and the most any
// element has been loaded so far.
std::string loadLegendText(int most, uint32_t highest) {
  char text[128];
  std::snprintf(text, sizeof text, "loads from global memory per element: 1 .. %d (the naive kernel's), most so far %u",
                most, highest);
  return text;
}

void loadLegend(PanelContext& ctx, int most, uint32_t highest) {
  const Theme& theme = ctx.theme();
  const float barW = ImGui::GetFontSize() * 6.0f, side = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilledMultiColor(p, ImVec2(p.x + barW, p.y + side), theme.loadsFew, theme.loadsMany, theme.loadsMany,
                                theme.loadsFew);
  if (most > 1 && highest > 0) {  // where the busiest element stands on the bar
    const float x = p.x + barW * loadShadeFraction(highest, most);
    draw->AddRectFilled(ImVec2(x - 1.5f, p.y - 2), ImVec2(x + 1.5f, p.y + side + 2), theme.highlight);
  }
  ImGui::Dummy(ImVec2(barW, side));
  const std::string text = loadLegendText(most, highest);
  ImGui::TextWrapped("%s", text.c_str());
  recordText(ctx, "Matrices", text);
}

// The height the legend takes drawn `width` wide, laid out as drawMatricesLegend lays it out:
// the entries flow along lines (an entry alone on a line too narrow for it wraps its words),
// then with load shading a blank line, the bar and its wrapped words.
float legendHeight(const std::vector<LegendEntry>& entries, const MatricesView& v, float width) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float side = ImGui::GetTextLineHeight();
  // The legend starts with an empty item: the first entry goes beside it where it fits.
  float height = 0.0f, right = 0.0f, lineH = 0.0f;
  for (const LegendEntry& e : entries) {
    const float w = entryWidth(e);
    if (right + style.ItemSpacing.x + w <= width) {
      right += style.ItemSpacing.x + w;
      lineH = std::max(lineH, side);
      continue;
    }
    height += lineH + style.ItemSpacing.y;
    const float wrap = std::max(1.0f, width - side - style.ItemSpacing.x);
    lineH = std::max(side, ImGui::CalcTextSize(e.label, nullptr, false, wrap).y);
    right = std::min(w, width);
  }
  height += lineH + style.ItemSpacing.y;
  if (v.shading)
    height += ImGui::GetTextLineHeightWithSpacing() + side + style.ItemSpacing.y +
              ImGui::CalcTextSize(loadLegendText(v.l, v.mostLoads).c_str(), nullptr, false, width).y + style.ItemSpacing.y;
  return height;
}

// The running Pvalue written in each P cell that is wide enough for it (fig. 5.8's last
// column, read off the screen); the tooltip always has it. The ink is black or white, whichever
// reads on the cell's fill (a stored element's pale paper, a pending one's dark), and recorded
// with that fill for the contrast test.
void drawRunningSums(PanelContext& ctx, GridRect& g, const MatricesView& v) {
  // The room inside the thickest frame a cell may get (the followed thread's, the current
  // tile's), on both sides: a sum drawn wider loses its first digit under the frame.
  const float margin = 2.0f * (std::max(ctx.theme().followPx, g.highlightPx) + 1.0f);
  if (g.cellWidth < ImGui::CalcTextSize("-00.0").x + margin || g.cellHeight < ImGui::GetTextLineHeight()) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const RunningSum& s : v.sums) {
    if (s.row >= g.rows || s.col >= g.cols) continue;
    // Three significant digits where they fit, fewer where not: a small sum such as
    // -0.000123 is written -0.0001 or -1e-04 rather than left out of its cell.
    char text[24] = "";
    ImVec2 size;
    for (const char* format : {"%.3g", "%.2g", "%.1g", "%.0e"}) {
      std::snprintf(text, sizeof text, format, double(s.sum));
      size = ImGui::CalcTextSize(text);
      if (size.x + margin <= g.cellWidth) break;
    }
    if (size.x + margin > g.cellWidth) continue;
    const ImVec2 at(g.x + g.cellWidth * (float(s.col) + 0.5f) - size.x * 0.5f,
                    g.y + g.cellHeight * (float(s.row) + 0.5f) - size.y * 0.5f);
    const Rgba ink = s.ink;
    draw->AddText(at, ink, text);
    g.texts.push_back({s.row, s.col, text});
    ctx.layout.texts.push_back({"Matrices", text, at.x, at.y, ImGui::GetFontSize(), ink, s.fill});
  }
}

// Where the three grids go: N above P, M left of P, captions above each grid, the legend in the
// corner the book's layout leaves empty (above M, left of N) when it fits there, else under them.
struct MatricesPlace {
  float line = 0, gap = 0, side = 0, maxCell = 0, leftW = 0, topH = 0;
  bool legendInCorner = false;
  ImVec2 origin;
  char pCaption[96] = {};
};

MatricesPlace placeMatrices(const PanelContext& ctx, const MatricesView& v) {
  MatricesPlace at;
  at.line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  at.gap = at.line + 6.0f;
  const int wideCells = v.m.cols + v.p.cols, tallCells = v.n.rows + v.p.rows;
  // The projector layout lets the cells grow to fill the centre; presentation mode (the P key)
  // grows them with the text, as far as the room allows.
  at.maxCell = ctx.state.lesson.presenter ? 240.0f : 56.0f * ctx.state.view.fontScale;
  at.side = GridPainter::cellSide(tallCells, wideCells, ImVec2(avail.x - at.gap, avail.y - 2 * at.gap), at.maxCell);
  // The legend in the corner where it fits there as the corner's width lays it out (and the
  // corner is wide enough for its words), else under the grids, as wide as the panel: the cells
  // then shrink to leave it the height it takes at that width.
  const std::vector<LegendEntry> entries = legendEntries(ctx, v);
  const float cornerW = at.side * float(v.m.cols);
  at.legendInCorner = cornerW >= ImGui::GetFontSize() * 7.0f &&
                      legendHeight(entries, v, cornerW) <= at.side * float(v.n.rows) + at.gap;
  if (!at.legendInCorner)
    at.side = GridPainter::cellSide(tallCells, wideCells,
                                    ImVec2(avail.x - at.gap, avail.y - 2 * at.gap - 4.0f - legendHeight(entries, v, avail.x)),
                                    at.maxCell);
  at.leftW = at.side * float(v.m.cols) + at.gap;
  at.topH = at.side * float(v.n.rows) + 2 * at.gap;
  // P's caption names the ringed block where it fits beside M (the legend says what the ring is).
  std::snprintf(at.pCaption, sizeof at.pCaption, "P (%d x %d), block (%d,%d) ringed", v.j, v.l, v.bx, v.by);
  if (at.leftW + ImGui::CalcTextSize(at.pCaption).x > avail.x)
    std::snprintf(at.pCaption, sizeof at.pCaption, "P (%d x %d)", v.j, v.l);
  // On a projector the grids stand in the middle of the centre, not at its left edge.
  const float rightW = std::max(at.side * float(v.p.cols), ImGui::CalcTextSize(at.pCaption).x);
  const float spare = ctx.state.lesson.presenter ? std::max(0.0f, avail.x - at.leftW - rightW) : 0.0f;
  at.origin = ImVec2(ImGui::GetCursorPos().x + std::floor(spare * 0.5f), ImGui::GetCursorPos().y);
  return at;
}

// The number of the thread that loaded each thread-coloured cell, where the block has more
// threads than the palette has colours (rows 0 and 2 of a 4x4 tile share a hue, not a number)
// and the cell is wide enough for it; ink black or white, whichever reads on the fill.
void drawThreadNumbers(PanelContext& ctx, GridRect& g, const MatricesView& v, bool isN) {
  if (g.cellHeight < ImGui::GetTextLineHeight()) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const ThreadLabel& t : v.threadLabels) {
    if (t.isN != isN || t.row >= g.rows || t.col >= g.cols) continue;
    const std::string text = std::to_string(t.thread);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (size.x + 4.0f > g.cellWidth) continue;
    const ImVec2 at(g.x + g.cellWidth * (float(t.col) + 0.5f) - size.x * 0.5f,
                    g.y + g.cellHeight * (float(t.row) + 0.5f) - size.y * 0.5f);
    const Rgba ink = readableOn(t.fill);
    draw->AddText(at, ink, text.c_str());
    g.texts.push_back({t.row, t.col, text});
    ctx.layout.texts.push_back({"Matrices", text, at.x, at.y, ImGui::GetFontSize(), ink, t.fill});
  }
}

// What is drawn over the grids: every block's current tiles faintly (load shading), a race's
// spoiled P elements, the running sums, the followed thread's footprint.
void drawOverGrids(PanelContext& ctx, const MatricesView& v) {
  const Theme& theme = ctx.theme();
  GridRect* rects[3] = {};  // N, M, P as drawn
  for (GridRect& g : ctx.layout.grids)
    for (int i = 0; i < 3; ++i)
      if (g.name == std::array{"N", "M", "P"}[std::size_t(i)]) rects[i] = &g;
  if (rects[0] && rects[1]) {
    const Rgba faint = (theme.highlight & 0x00ffffffu) | 0x90000000u;
    for (const TileBox& box : v.tileBoxes)
      frameBox(*rects[box.isN ? 0 : 1], box.row0, box.col0, box.row1, box.col1, faint, 1.5f);
  }
  if (rects[2]) frameCells(*rects[2], v.spoiled, theme.error, theme.followPx * 1.6f);
  if (rects[2]) drawRunningSums(ctx, *rects[2], v);
  if (rects[0]) drawThreadNumbers(ctx, *rects[0], v, true);
  if (rects[1]) drawThreadNumbers(ctx, *rects[1], v, false);
  if (v.following && rects[0] && rects[1] && rects[2]) {
    const ThreadFootprint& f = v.footprint;
    frameCells(*rects[1], f.mLoads, theme.follow, theme.followPx);
    frameCells(*rects[0], f.nLoads, theme.follow, theme.followPx);
    if (f.pTile.size() > 1)  // a register tile: every element it computes
      frameCells(*rects[2], f.pTile, theme.follow, f.stored ? theme.followPx * 1.6f : theme.followPx);
    else if (f.p.row >= 0)
      frameCells(*rects[2], {f.p}, theme.follow, f.stored ? theme.followPx * 1.6f : theme.followPx);
  }
}

// A hovered cell's tooltip, from the view cache (built once per cell and cursor); a click on a
// P cell picks its block and the thread that computes it, whose life the views then follow.
void cellTip(PanelContext& ctx, const char* grid, std::optional<CellIndex> at) {
  if (!at) return;
  const CellTip* tip = shownCellTip(ctx.state, grid, *at);
  if (!tip) return;
  if (grid[0] == 'P' && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    ctx.emit(SelectBlock{tip->owner.bx, tip->owner.by});
    ctx.emit(FollowThread{tip->owner.tx, tip->owner.ty});
  }
  tooltip(tip->text);
}

void drawMatricesLegend(PanelContext& ctx, const MatricesView& v, const MatricesPlace& at) {
  if (at.legendInCorner) {
    ImGui::SetCursorPos(at.origin);
    ImGui::BeginChild("legend", ImVec2(at.side * float(v.m.cols), at.side * float(v.n.rows) + at.gap), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoInputs);
  } else {
    ImGui::SetCursorPos(ImVec2(at.origin.x, at.origin.y + at.topH + at.side * v.p.rows + 4.0f));
  }
  ImGui::Dummy(ImVec2(0, 0));
  for (const LegendEntry& e : legendEntries(ctx, v)) legendSwatch(ctx, e);
  if (v.shading) {
    ImGui::NewLine();
    loadLegend(ctx, v.l, v.mostLoads);
  }
  if (at.legendInCorner) ImGui::EndChild();
}

}  // namespace

void drawMatricesPanel(PanelContext& ctx) {
  const MatricesView* view = shownMatricesView(ctx.state);
  if (!view) {
    // A refused first request never runs: the centre's notice says why (panels.cpp).
    ImGui::TextDisabled("%s", ctx.state.request.error.empty() ? "Running the kernel..." : "No trace to show: this launch did not run (the notice says why)");
    return;
  }
  const MatricesView& v = *view;
  const Theme& theme = ctx.theme();
  ctx.layout.marks.insert(ctx.layout.marks.end(), v.marks.begin(), v.marks.end());

  const MatricesPlace at = placeMatrices(ctx, v);
  auto place = [&](float x, float y, const char* caption) {
    ImGui::SetCursorPos(ImVec2(at.origin.x + x, at.origin.y + y));
    ImGui::TextUnformatted(caption);
    ImGui::SetCursorPos(ImVec2(at.origin.x + x, at.origin.y + y + at.line));
  };
  auto grid = [&](const char* name, GridExtent e, const std::vector<gfx::CellStyle>& cells) {
    return ctx.grids.draw({name, e.rows, e.cols, cells, ImVec2(at.side * e.cols, at.side * e.rows), at.maxCell}, theme,
                          ctx.layout);
  };
  char caption[96];
  std::snprintf(caption, sizeof caption, "N (%d x %d)", v.k, v.l);
  place(at.leftW, 0, caption);
  const auto hoverN = grid("N", v.n, v.nCells);
  std::snprintf(caption, sizeof caption, "M (%d x %d)", v.j, v.k);
  place(0, at.topH - at.gap, caption);
  const auto hoverM = grid("M", v.m, v.mCells);
  place(at.leftW, at.topH - at.gap, at.pCaption);
  const auto hoverP = grid("P", v.p, v.pCells);
  drawOverGrids(ctx, v);
  cellTip(ctx, "M", hoverM);
  cellTip(ctx, "N", hoverN);
  cellTip(ctx, "P", hoverP);
  drawMatricesLegend(ctx, v, at);
}

}  // namespace tilescope::ui
