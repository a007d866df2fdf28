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

#include "core/timeline/block_geometry.h"
#include "core/timeline/cell_marks.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/model/thread_story.h"
#include "ui/model/tile_state.h"

namespace tilescope::ui {
namespace {

using gfx::CellStyle;

struct Extent {
  int rows, cols;
};

// Tiled kernels are shown padded to whole tiles, so a boundary phase's elements outside the
// matrix (fig. 5.11) have cells to land in.
struct Padded {
  Extent m, n, p;
};

Padded paddedExtents(const LoadedRun& run) {
  const KernelLaunch& L = run.run.plan.launch;
  const int phases = run.run.plan.phases;
  Padded out{{L.j, L.k}, {L.k, L.l}, {L.j, L.l}};
  const int depth = L.tiling.bk > 0 ? L.tiling.bk : L.tile;  // k per phase
  if (depth > 0 && phases > 0) {
    const PTile tile = blockTileOfP(L, 0, 0);
    const int covK = phases * depth;
    const int covJ = int(L.gridY) * tile.rows, covL = int(L.gridX) * tile.cols;
    out.m = {std::max(L.j, covJ), std::max(L.k, covK)};
    out.n = {std::max(L.k, covK), std::max(L.l, covL)};
    out.p = {std::max(L.j, covJ), std::max(L.l, covL)};
  }
  return out;
}

std::vector<CellStyle> baseCells(Extent e, int realRows, int realCols, const Theme& theme) {
  std::vector<CellStyle> cells(std::size_t(e.rows) * std::size_t(e.cols));
  for (int r = 0; r < e.rows; ++r)
    for (int c = 0; c < e.cols; ++c)
      cells[std::size_t(r) * e.cols + c] = {(r < realRows && c < realCols) ? theme.cellIdle : theme.cellGhost,
                                            theme.cellOutline, 0, gfx::kMarkNone};
  return cells;
}

CellStyle* cellAt(std::vector<CellStyle>& cells, Extent e, int r, int c) {
  if (r < 0 || c < 0 || r >= e.rows || c >= e.cols) return nullptr;
  return &cells[std::size_t(r) * e.cols + c];
}

void legendSwatch(Rgba colour, const char* label, uint32_t marks = 0) {
  const float side = ImGui::GetTextLineHeight();
  sameLineIfFits(side + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(label).x);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, ImVec2(p.x + side, p.y + side), colour);
  if (marks & gfx::kMarkHatch)
    for (float d = 0; d < side; d += 4) draw->AddLine(ImVec2(p.x + d, p.y + side), ImVec2(p.x + side, p.y + d), IM_COL32(255, 255, 255, 120));
  ImGui::Dummy(ImVec2(side, side));
  ImGui::SameLine();
  ImGui::TextWrapped("%s", label);
}

Rgba mix(Rgba a, Rgba b, float t) {
  auto channel = [&](int shift) {
    const float x = float((a >> shift) & 0xff) * (1.0f - t) + float((b >> shift) & 0xff) * t;
    return uint32_t(std::lround(x)) << shift;
  };
  return channel(0) | channel(8) | channel(16) | 0xff000000u;
}

// Load-count shading: 0 loads keeps the idle fill; 1 .. `most` (the naive kernel's count for
// the element: once per output it feeds) runs from pale to dark.
Rgba loadShade(uint32_t count, int most, const Theme& theme) {
  if (count == 0) return theme.cellIdle;
  const float t = loadShadeFraction(count, most);
  return mix(theme.loadsFew, theme.loadsMany, t);
}

void shadeByLoads(std::vector<CellStyle>& cells, Extent e, const std::vector<uint32_t>& counts, int rows, int cols,
                  int most, const Theme& theme) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      cells[std::size_t(r) * e.cols + c].fill = loadShade(counts[std::size_t(r) * cols + c], most, theme);
}

// The shading's legend: a pale-to-dark bar from 1 to the naive kernel's count, and the most any
// element has been loaded so far.
void loadLegend(const Theme& theme, int most, uint32_t highest) {
  char text[128];
  std::snprintf(text, sizeof text, "loads from global memory per element: 1 .. %d (the naive kernel's), most so far %u",
                most, highest);
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
  ImGui::TextWrapped("%s", text);
}

// "Pvalue = 3.5 after phase 1, k = 0 (+= 1.5 x 2)", the running sum of the thread computing it.
std::string runningSumText(const Timeline& timeline, Cursor c, int row, int col) {
  const PartialSum* p = timeline.runningSum(c, row, col);
  if (!p) return timeline.partialSums(row, col).empty() ? "" : "Pvalue = 0 (no product yet)";
  const StepInfo& st = timeline.step(p->step);
  char text[160];
  std::snprintf(text, sizeof text, "Pvalue = %.4g after phase %d, k = %d (+= %.4g x %.4g)", double(p->sum), st.phase,
                st.k, double(p->m), double(p->n));
  return text;
}

// The running Pvalue written in each P cell that is wide enough for it (fig. 5.8's last
// column, read off the screen); the tooltip always has it. The ink is black or white, whichever
// reads on the cell's fill (a stored element's pale paper, a pending one's dark), and recorded
// with that fill for the contrast test.
void drawRunningSums(PanelContext& ctx, GridRect& g, const LoadedRun& run, Cursor c) {
  const Theme& theme = ctx.theme();
  const Timeline& timeline = run.timeline;
  const KernelLaunch& L = timeline.trace().launch;
  if (g.cellWidth < ImGui::CalcTextSize("-00.0").x + 4.0f || g.cellHeight < ImGui::GetTextLineHeight()) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int r = 0; r < int(L.j) && r < g.rows; ++r)
    for (int col = 0; col < int(L.l) && col < g.cols; ++col) {
      const PartialSum* p = timeline.runningSum(c, r, col);
      if (!p) continue;
      // Three significant digits where they fit, fewer where not: a small sum such as
      // -0.000123 is written -0.0001 or -1e-04 rather than left out of its cell.
      char text[24] = "";
      ImVec2 size;
      for (const char* format : {"%.3g", "%.2g", "%.1g", "%.0e"}) {
        std::snprintf(text, sizeof text, format, double(p->sum));
        size = ImGui::CalcTextSize(text);
        if (size.x + 4.0f <= g.cellWidth) break;
      }
      if (size.x + 4.0f > g.cellWidth) continue;
      const ImVec2 at(g.x + g.cellWidth * (float(col) + 0.5f) - size.x * 0.5f, g.y + g.cellHeight * (float(r) + 0.5f) - size.y * 0.5f);
      const Rgba fill = !timeline.pStored(c, r, col) ? theme.pPending : run.wrongAt(r, col) ? theme.error : theme.pStored;
      const Rgba ink = readableOn(fill);
      draw->AddText(at, ink, text);
      g.texts.push_back({r, col, text});
      ctx.layout.texts.push_back({"Matrices", text, at.x, at.y, ImGui::GetFontSize(), ink, fill});
    }
}

// What M, N and P show at the cursor, computed before anything is drawn: each cell's fill,
// ring and marks, the marks the layout file records, the P elements a race spoiled.
struct MatricesView {
  Padded ext;
  std::vector<CellStyle> m, n, p;
  std::vector<CellMark> marks;
  std::vector<CellIndex> spoiled;
  bool shading = false;
  int loadStep = -1;
};

// The current tiles: every element this block loads in the current load step is ringed; the
// ones already loaded take their loader's colour (hatched when zero-filled, crossed out of bounds).
void ringCurrentTiles(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c, const Theme& theme) {
  const Timeline& timeline = run.timeline;
  const auto& events = timeline.trace().events;
  const KernelLaunch& L = run.run.plan.launch;
  for (int step : currentLoadSteps(timeline, block, c))
    for (uint32_t i : block.stepEvents(step)) {
      const Event& e = events[i];
      if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
      auto& cells = e.op == Op::LoadM ? v.m : v.n;
      const bool done = timeline.done(c, step, linearThread(e, L.blockX));
      for (const GridCell& at : elementsOf(e)) {  // a 128-bit load colours its four elements
        CellStyle* cell = cellAt(cells, e.op == Op::LoadM ? v.ext.m : v.ext.n, at.row, at.col);
        if (!cell) continue;
        cell->highlight = theme.highlight;
        if (!done) continue;
        if (zeroFilled(e)) {
          cell->fill = theme.zeroFilled;
          cell->marks |= gfx::kMarkHatch;
        } else if (!inBounds(e)) {
          cell->fill = theme.error;
          cell->marks |= gfx::kMarkCross;
          CellMark mark;
          mark.grid = e.op == Op::LoadM ? "M" : "N", mark.row = at.row, mark.col = at.col;
          mark.kind = CellMark::Kind::OutOfBounds;
          mark.readerX = e.threadX, mark.readerY = e.threadY, mark.line = e.line, mark.value = e.value;
          v.marks.push_back(mark);
        } else if (!v.shading) {
          cell->fill = theme.threadColour(linearThread(e, L.blockX));
        }
      }
    }
}

// Elements whose shared slot is read at this k step get a dot.
void dotReadElements(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c) {
  const auto& events = run.timeline.trace().events;
  const TileState tiles = tileStateAt(run, block, c);
  for (bool isM : {true, false})
    for (int r = 0; r < tiles.dims(isM).rows && tiles.reading; ++r)
      for (int col = 0; col < tiles.dims(isM).cols; ++col) {
        const SlotState& s = tiles.slot(isM, r, col);
        if (s.readers.empty() || s.loadEvent < 0) continue;
        const Event& e = events[std::size_t(s.loadEvent)];
        // A 128-bit load filled four slots from four consecutive elements.
        const int offset = (e.flags & kWide) && e.sharedRow == r ? col - e.sharedCol : 0;
        if (CellStyle* cell = cellAt(isM ? v.m : v.n, isM ? v.ext.m : v.ext.n, e.globalRow, e.globalCol + offset))
          cell->marks |= gfx::kMarkDot;
      }
}

// P: stored so far (all blocks in lockstep), wrong ones red; a race's spoiled elements; the
// selected block's tile ringed.
void fillP(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c, const Theme& theme) {
  const Timeline& timeline = run.timeline;
  const KernelLaunch& L = run.run.plan.launch;
  for (int r = 0; r < L.j; ++r)
    for (int col = 0; col < L.l; ++col) {
      if (!timeline.pStored(c, r, col)) continue;
      CellStyle& cell = v.p[std::size_t(r) * v.ext.p.cols + col];
      const bool wrong = run.wrongAt(r, col);
      cell.fill = wrong ? theme.error : theme.pStored;
      if (!wrong) continue;
      cell.marks |= gfx::kMarkCross;
      CellMark mark;
      mark.grid = "P", mark.row = r, mark.col = col, mark.kind = CellMark::Kind::Wrong;
      mark.value = run.run.p.at(r, col);
      v.marks.push_back(mark);
    }
  // A race: P elements whose running sum took a stale value, from that step on (framed red,
  // before the wrong value is stored).
  for (const CellMark& mark : raceMarks(timeline, c, block.bx(), block.by()))
    if (mark.grid == "P") {
      v.spoiled.push_back({mark.row, mark.col});
      v.marks.push_back(mark);
    }
  const PTile blockTile = blockTileOfP(L, block.bx(), block.by());  // bm x bn on the ladder
  for (int r = 0; r < blockTile.rows; ++r)
    for (int col = 0; col < blockTile.cols; ++col)
      if (CellStyle* cell = cellAt(v.p, v.ext.p, blockTile.row0 + r, blockTile.col0 + col)) cell->highlight = theme.highlight;
}

MatricesView matricesView(const LoadedRun& run, const BlockTimeline& block, Cursor c, const Theme& theme, bool shading) {
  const KernelLaunch& L = run.run.plan.launch;
  MatricesView v;
  v.ext = paddedExtents(run);
  v.shading = shading;
  v.m = baseCells(v.ext.m, L.j, L.k, theme);
  v.n = baseCells(v.ext.n, L.k, L.l, theme);
  v.p = baseCells(v.ext.p, L.j, L.l, theme);
  // Across all blocks, how often each element has come from global memory so far.
  if (shading) {
    shadeByLoads(v.m, v.ext.m, run.loads.mCounts(c), L.j, L.k, L.l, theme);
    shadeByLoads(v.n, v.ext.n, run.loads.nCounts(c), L.k, L.l, L.j, theme);
  }
  v.loadStep = block.loadStepAt(c.step);
  ringCurrentTiles(v, run, block, c, theme);
  dotReadElements(v, run, block, c);
  fillP(v, run, block, c, theme);
  return v;
}

// Where the three grids go: N above P, M left of P, captions above each grid, the legend in the
// corner the book's layout leaves empty (above M, left of N) when it fits there, else under them.
struct MatricesPlace {
  float line = 0, gap = 0, side = 0, maxCell = 0, leftW = 0, topH = 0;
  bool legendInCorner = false;
  ImVec2 origin;
  char pCaption[96] = {};
};

MatricesPlace placeMatrices(const PanelContext& ctx, const MatricesView& v, const KernelLaunch& L, const BlockTimeline& block) {
  MatricesPlace at;
  at.line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  at.gap = at.line + 6.0f;
  const int wideCells = v.ext.m.cols + v.ext.p.cols, tallCells = v.ext.n.rows + v.ext.p.rows;
  // The projector layout lets the cells grow to fill the centre; presentation mode (the P key)
  // grows them with the text, as far as the room allows.
  at.maxCell = ctx.state.lesson.presenter ? 240.0f : 56.0f * ctx.state.view.fontScale;
  at.side = GridPainter::cellSide(tallCells, wideCells, ImVec2(avail.x - at.gap, avail.y - 2 * at.gap), at.maxCell);
  // The swatches (one wraps), and with load shading its bar and two lines under it.
  const float legendW = ImGui::GetFontSize() * 7.0f, legendH = at.line * (v.shading ? 10.0f : 6.5f);
  at.legendInCorner = at.side * float(v.ext.m.cols) >= legendW && at.side * float(v.ext.n.rows) + at.gap >= legendH;
  if (!at.legendInCorner)
    at.side = GridPainter::cellSide(tallCells, wideCells,
                                    ImVec2(avail.x - at.gap, avail.y - 2 * at.gap - at.line * (v.shading ? 6.5f : 3.5f)),
                                    at.maxCell);  // the shading's bar and its wrapped words under the swatches
  at.leftW = at.side * float(v.ext.m.cols) + at.gap;
  at.topH = at.side * float(v.ext.n.rows) + 2 * at.gap;
  // P's caption names the ringed block where it fits beside M (the legend says what the ring is).
  std::snprintf(at.pCaption, sizeof at.pCaption, "P (%d x %d), block (%d,%d) ringed", L.j, L.l, block.bx(), block.by());
  if (at.leftW + ImGui::CalcTextSize(at.pCaption).x > avail.x)
    std::snprintf(at.pCaption, sizeof at.pCaption, "P (%d x %d)", L.j, L.l);
  // On a projector the grids stand in the middle of the centre, not at its left edge.
  const float rightW = std::max(at.side * float(v.ext.p.cols), ImGui::CalcTextSize(at.pCaption).x);
  const float spare = ctx.state.lesson.presenter ? std::max(0.0f, avail.x - at.leftW - rightW) : 0.0f;
  at.origin = ImVec2(ImGui::GetCursorPos().x + std::floor(spare * 0.5f), ImGui::GetCursorPos().y);
  return at;
}

// A P cell picks its block and the thread that computes it, whose life the views then follow.
// Who computes it comes from the trace (the thread that stores it), else from the block tiling.
struct Owner {
  int bx, by, tx, ty;
};
Owner ownerOf(const LoadedRun& run, CellIndex at) {
  const KernelLaunch& L = run.run.plan.launch;
  if (at.row < L.j && at.col < L.l)
    if (const int64_t e = run.timeline.pStoreEvent(at.row, at.col); e >= 0) {
      const Event& s = run.timeline.trace().events[std::size_t(e)];
      return {s.blockX, s.blockY, s.threadX, s.threadY};
    }
  const GridCell b = blockOfP(L, at.row, at.col);
  const PTile t = blockTileOfP(L, b.col, b.row);
  return {b.col, b.row, at.col - t.col0, at.row - t.row0};
}

// What is drawn over the grids: every block's current tiles faintly (load shading), a race's
// spoiled P elements, the running sums, the followed thread's footprint.
void drawOverGrids(PanelContext& ctx, const MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c) {
  const Theme& theme = ctx.theme();
  GridRect* rects[3] = {};  // N, M, P as drawn
  for (GridRect& g : ctx.layout.grids)
    for (int i = 0; i < 3; ++i)
      if (g.name == std::array{"N", "M", "P"}[std::size_t(i)]) rects[i] = &g;
  if (v.shading && rects[0] && rects[1] && v.loadStep >= 0) {
    const Rgba faint = (theme.highlight & 0x00ffffffu) | 0x90000000u;
    for (const TileBox& box : run.loads.tilesOfStep(v.loadStep))
      frameBox(*rects[box.isN ? 0 : 1], box.row0, box.col0, box.row1, box.col1, faint, 1.5f);
  }
  if (rects[2]) frameCells(*rects[2], v.spoiled, theme.error, theme.followPx * 1.6f);
  if (rects[2]) drawRunningSums(ctx, *rects[2], run, c);
  if (const int followed = followedThread(ctx.state); followed >= 0 && rects[0] && rects[1] && rects[2]) {
    const ThreadFootprint f = threadFootprint(run, block, c, followed);
    frameCells(*rects[1], f.mLoads, theme.follow, theme.followPx);
    frameCells(*rects[0], f.nLoads, theme.follow, theme.followPx);
    if (f.pTile.size() > 1)  // a register tile: every element it computes
      frameCells(*rects[2], f.pTile, theme.follow, f.stored ? theme.followPx * 1.6f : theme.followPx);
    else if (f.p.row >= 0)
      frameCells(*rects[2], {f.p}, theme.follow, f.stored ? theme.followPx * 1.6f : theme.followPx);
  }
}

// Tooltips of M and N: the element and the event that last touched it at the cursor.
void elementTip(const char* name, std::optional<CellIndex> at, int rows, int cols, const Matrix& values,
                const BlockTimeline& block, const LoadedRun& run, Cursor c, Op op) {
  if (!at) return;
  std::string text = std::string(name) + "(row " + std::to_string(at->row) + ", col " + std::to_string(at->col) + ")";
  if (at->row < rows && at->col < cols) {
    char v[32];
    std::snprintf(v, sizeof v, " = %.4g", double(values.at(at->row, at->col)));
    text += v;
  } else {
    text += " (outside the matrix)";
  }
  const int64_t e = block.lastEventAt(c, std::array<Op, 1>{op}, at->row, at->col);
  text += e >= 0 ? "\n" + describeEvent(run.timeline.trace().events[std::size_t(e)]) : "\nnot touched by this block yet";
  tooltip(text);
}

// P's tooltip: stored or not, its running sum, a race's mark, whether it is wrong, what a click does.
void pTip(CellIndex at, const BlockTimeline& block, const LoadedRun& run, Cursor c) {
  const Timeline& timeline = run.timeline;
  const KernelLaunch& L = run.run.plan.launch;
  std::string text = "P(row " + std::to_string(at.row) + ", col " + std::to_string(at.col) + ")";
  if (at.row < L.j && at.col < L.l) {
    const int64_t e = timeline.pStoreEvent(at.row, at.col);
    const bool stored = timeline.pStored(c, at.row, at.col);
    text += stored ? "\n" + describeEvent(timeline.trace().events[std::size_t(e)]) : "\nnot stored yet";
    text += "\n" + runningSumText(timeline, c, at.row, at.col);
    if (const int64_t s = timeline.spoiledBy(c, at.row, at.col); s >= 0)
      for (const CellMark& mark : raceMarks(timeline, c, block.bx(), block.by()))
        if (mark.grid == "P" && mark.row == at.row && mark.col == at.col) text += "\n" + describeMark(mark);
    if (stored && run.wrongAt(at.row, at.col)) text += "\nWRONG: differs from the host reference";
  } else {
    text += " (outside the matrix: no thread may store here)";
  }
  const Owner o = ownerOf(run, at);
  text += "\nclick: select block (" + std::to_string(o.bx) + "," + std::to_string(o.by) + ") and follow " +
          threadName(o.tx, o.ty);
  tooltip(text);
}

void drawMatricesLegend(const PanelContext& ctx, const MatricesView& v, const MatricesPlace& at, const LoadedRun& run,
                        Cursor c) {
  const Theme& theme = ctx.theme();
  if (at.legendInCorner) {
    ImGui::SetCursorPos(at.origin);
    ImGui::BeginChild("legend", ImVec2(at.side * float(v.ext.m.cols), at.side * float(v.ext.n.rows) + at.gap), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoInputs);
  } else {
    ImGui::SetCursorPos(ImVec2(at.origin.x, at.origin.y + at.topH + at.side * v.ext.p.rows + 4.0f));
  }
  ImGui::Dummy(ImVec2(0, 0));
  if (!v.shading) legendSwatch(theme.threadColour(0), "loaded by thread");
  legendSwatch(theme.highlight, "current tile");
  if (followedThread(ctx.state) >= 0) legendSwatch(theme.follow, "followed thread");
  legendSwatch(theme.zeroFilled, "zero-filled", gfx::kMarkHatch);
  legendSwatch(theme.pStored, "P stored");
  legendSwatch(theme.error, run.timeline.realOrder() ? "wrong / out of bounds; framed: stale or spoiled" : "wrong / out of bounds");
  if (v.shading) {
    ImGui::NewLine();
    uint32_t highest = 0;
    for (uint32_t x : run.loads.mCounts(c)) highest = std::max(highest, x);
    loadLegend(theme, run.run.plan.launch.l, highest);
  }
  if (at.legendInCorner) ImGui::EndChild();
}

}  // namespace

void drawMatricesPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  const BlockTimeline* block = ctx.state.shown.block.get();
  if (!run || !block) {
    // A refused first request never runs: the centre's notice says why (panels.cpp).
    ImGui::TextDisabled("%s", ctx.state.request.error.empty() ? "Running the kernel..." : "Nothing to show yet");
    return;
  }
  const Theme& theme = ctx.theme();
  const KernelLaunch& L = run->run.plan.launch;
  const Cursor c = run->timeline.normalize(ctx.state.shown.cursor);
  MatricesView v = matricesView(*run, *block, c, theme, loadShadingOn(ctx.state));
  ctx.layout.marks.insert(ctx.layout.marks.end(), v.marks.begin(), v.marks.end());

  const MatricesPlace at = placeMatrices(ctx, v, L, *block);
  auto place = [&](float x, float y, const char* caption) {
    ImGui::SetCursorPos(ImVec2(at.origin.x + x, at.origin.y + y));
    ImGui::TextUnformatted(caption);
    ImGui::SetCursorPos(ImVec2(at.origin.x + x, at.origin.y + y + at.line));
  };
  auto grid = [&](const char* name, Extent e, std::vector<CellStyle>& cells) {
    return ctx.grids.draw({name, e.rows, e.cols, std::move(cells), ImVec2(at.side * e.cols, at.side * e.rows), at.maxCell},
                          theme, ctx.layout);
  };
  char caption[96];
  std::snprintf(caption, sizeof caption, "N (%d x %d)", L.k, L.l);
  place(at.leftW, 0, caption);
  const auto hoverN = grid("N", v.ext.n, v.n);
  std::snprintf(caption, sizeof caption, "M (%d x %d)", L.j, L.k);
  place(0, at.topH - at.gap, caption);
  const auto hoverM = grid("M", v.ext.m, v.m);
  place(at.leftW, at.topH - at.gap, at.pCaption);
  const auto hoverP = grid("P", v.ext.p, v.p);
  if (hoverP && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    const Owner o = ownerOf(*run, *hoverP);
    ctx.emit(SelectBlock{o.bx, o.by});
    ctx.emit(FollowThread{o.tx, o.ty});
  }
  drawOverGrids(ctx, v, *run, *block, c);
  elementTip("M", hoverM, L.j, L.k, run->run.m, *block, *run, c, Op::LoadM);
  elementTip("N", hoverN, L.k, L.l, run->run.n, *block, *run, c, Op::LoadN);
  if (hoverP) pTip(*hoverP, *block, *run, c);
  drawMatricesLegend(ctx, v, at, *run, c);
}

}  // namespace tilescope::ui
