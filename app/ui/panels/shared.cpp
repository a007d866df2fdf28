// Shared memory: the selected block's Mds and Nds. Each slot takes the colour of the thread
// that wrote it in the current phase (hatched when a boundary check wrote 0); at a k step the
// slots being read get a dot, and hovering one lists its readers: a row of Mds and a column
// of Nds are broadcast to a whole row / column of threads. The ladder's tiles are drawn as
// declared: Mds transposed ([k][m], rows padded to bm + 4) from the vectorized rung on, and the
// double buffer's two halves one above the other, labelled; a followed thread's warp has its
// footprint (every slot its lanes read at this step) framed.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "core/timeline/block_geometry.h"
#include "core/timeline/cell_marks.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/model/thread_story.h"
#include "ui/model/tile_state.h"

namespace tilescope::ui {
namespace {

std::vector<gfx::CellStyle> slotCells(const TileState& tiles, bool isM, const Theme& theme,
                                      const EventVector& events, unsigned blockX) {
  const TileDims d = tiles.dims(isM);
  std::vector<gfx::CellStyle> cells(std::size_t(d.rows) * std::size_t(d.cols));
  for (int r = 0; r < d.rows; ++r)
    for (int c = 0; c < d.cols; ++c) {
      const SlotState& s = tiles.slot(isM, r, c);
      gfx::CellStyle& cell = cells[std::size_t(r) * d.cols + c];
      cell = {theme.cellIdle, theme.cellOutline, 0, gfx::kMarkNone};
      if (s.loaded) {
        const Event& e = events[std::size_t(s.loadEvent)];
        if (zeroFilled(e)) cell.fill = theme.zeroFilled, cell.marks |= gfx::kMarkHatch;
        else if (!inBounds(e)) cell.fill = theme.error, cell.marks |= gfx::kMarkCross;
        else cell.fill = theme.threadColour(linearThread(e, blockX));
      }
      if (!s.readers.empty()) {
        cell.marks |= gfx::kMarkDot;
        cell.highlight = theme.readRing;
      }
    }
  return cells;
}

// The slots any lane of `warp` reads at this step.
std::vector<CellIndex> warpReads(const TileState& tiles, bool isM, int warp) {
  std::vector<CellIndex> out;
  const TileDims d = tiles.dims(isM);
  for (int r = 0; r < d.rows; ++r)
    for (int c = 0; c < d.cols; ++c)
      for (int reader : tiles.slot(isM, r, c).readers)
        if (reader / kWarpSize == warp) {
          out.push_back({r, c});
          break;
        }
  return out;
}

// The caption over each tile: its declaration, read the way the kernel indexes it.
std::string tileCaption(bool isM, const std::optional<SharedTileShape>& shape, const Tiling& t) {
  if (!shape) return isM ? "Mds[ty][k]" : "Nds[k][tx]";
  const std::string bk = std::to_string(t.bk), buffers = shape->buffers > 1 ? "[" + std::to_string(shape->buffers) + "]" : "";
  if (isM)
    return shape->mTransposed ? "Mds" + buffers + "[" + bk + "][" + std::to_string(shape->mCols) + "]: M's tile transposed, [k][m]"
                              : "Mds[" + std::to_string(shape->mRows) + "][" + bk + "]: [m][k]";
  return "Nds" + buffers + "[" + bk + "][" + std::to_string(shape->nCols) + "]: [k][n]";
}

// The double buffer's halves: a line between them, and each one's name in the gutter left of
// its first row, so that no label covers a cell.
void labelBuffers(const GridRect& g, int buffers, float gutter, const Theme& theme) {
  if (buffers < 2 || g.rows == 0) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int rowsEach = g.rows / buffers;
  for (int b = 0; b < buffers; ++b) {
    const float y = g.y + g.cellHeight * float(b * rowsEach);
    if (b > 0) draw->AddLine(ImVec2(g.x - gutter, y), ImVec2(g.x + g.width + 4, y), theme.highlight, 3.0f);
    if (gutter <= 0) continue;  // the line alone
    const float half = g.cellHeight * float(rowsEach), text = ImGui::GetTextLineHeight();
    draw->AddText(ImVec2(g.x - gutter, y + std::max(0.0f, (half - text) * 0.5f)), theme.panelText,
                  ("buffer " + std::to_string(b)).c_str());
  }
}

// The width of the labels' gutter: none when a half would be lower than a line of text (the
// line between the halves says it alone).
float bufferGutter(int buffers, const TileDims& d, ImVec2 space, float maxCell) {
  if (buffers < 2) return 0;
  const float gutter = ImGui::CalcTextSize("buffer 0").x + ImGui::GetStyle().ItemSpacing.x;
  const float side = GridPainter::cellSide(d.rows, d.cols, ImVec2(space.x - gutter, space.y), maxCell);
  return side * float(d.rows / buffers) >= ImGui::GetTextLineHeight() ? gutter : 0.0f;
}

// Mds and Nds side by side or one above the other: whichever gives the smaller of the two
// tiles' cells the larger side, their captions wrapped to the width each gets (a narrow column
// on a projector stacks the book's 2x2 tiles; wide, flat ladder tiles stack anywhere).
struct TileArrangement {
  bool stacked = false;
  ImVec2 each;  // the room of each tile with its caption
};
TileArrangement arrangeTiles(const TileState& tiles, const std::optional<SharedTileShape>& shape, const Tiling& t,
                             ImVec2 avail, float maxCell) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 beside((avail.x - style.ItemSpacing.x) * 0.5f, avail.y);
  const ImVec2 above(avail.x, (avail.y - style.ItemSpacing.y) * 0.5f);
  auto smallerCell = [&](ImVec2 each) {
    float least = maxCell;
    for (bool isM : {true, false}) {
      const float caption = ImGui::CalcTextSize(tileCaption(isM, shape, t).c_str(), nullptr, false, each.x).y +
                            style.ItemSpacing.y;
      const TileDims d = tiles.dims(isM);
      least = std::min(least, GridPainter::cellSide(d.rows, d.cols, ImVec2(each.x, each.y - caption), maxCell));
    }
    return least;
  };
  const float sideBySide = smallerCell(beside), stacked = smallerCell(above);
  const bool stack = stacked != sideBySide ? stacked > sideBySide : shape && shape->mCols > shape->mRows;
  return {stack, stack ? above : beside};
}

}  // namespace

void drawSharedPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  const BlockTimeline* block = ctx.state.shown.block.get();
  if (!run || !block) return;
  const Theme& theme = ctx.theme();
  const auto& events = run->timeline.trace().events;
  const KernelLaunch& L = run->run.plan.launch;
  const Cursor c = run->timeline.normalize(ctx.state.shown.cursor);
  const TileState tiles = tileStateAt(*run, *block, c);
  const auto shape = ladderSharedShape(L);
  if (tiles.empty() || (L.tile == 0 && !shape)) {
    ImGui::TextWrapped("%s reads M and N straight from global memory: no shared memory.",
                       std::string(kernelInfo(L.kernel).name).c_str());
    return;
  }
  // On a projector the caption says what the step does: the tiles get the room instead.
  if (!ctx.state.lesson.presenter)
    ImGui::TextWrapped("block (%d,%d), %s", block->bx(), block->by(),
                       tiles.reading ? "dots: slots read at this k step" : "slot colour: the thread that wrote it");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int followed = followedThread(ctx.state);
  const ThreadFootprint f = followed >= 0 ? threadFootprint(*run, *block, c, followed) : ThreadFootprint{};
  // On a projector (and in presentation mode) the tiles grow with the text.
  const float maxCell = ctx.state.lesson.presenter ? 120.0f : 48.0f * ctx.state.view.fontScale;
  const auto [stacked, each] = arrangeTiles(tiles, shape, L.tiling, avail, maxCell);
  // A race, where it happens: the slots read stale in this barrier interval so far.
  const std::vector<CellMark> marks = raceMarks(run->timeline, c, block->bx(), block->by());
  std::optional<CellIndex> hover[2];
  for (int i = 0; i < 2; ++i) {
    const bool isM = i == 0;
    if (i && !stacked) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + each.x);
    ImGui::TextWrapped("%s", tileCaption(isM, shape, L.tiling).c_str());
    ImGui::PopTextWrapPos();
    const TileDims d = tiles.dims(isM);
    const ImVec2 space(each.x, each.y - ImGui::GetItemRectSize().y - ImGui::GetStyle().ItemSpacing.y);
    const float gutter = shape ? bufferGutter(shape->buffers, d, space, maxCell) : 0.0f;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + gutter);
    hover[i] = ctx.grids.draw({isM ? "Mds" : "Nds", d.rows, d.cols, slotCells(tiles, isM, theme, events, L.blockX),
                               ImVec2(space.x - gutter, space.y), maxCell},
                              theme, ctx.layout);
    if (shape) labelBuffers(ctx.layout.grids.back(), shape->buffers, gutter, theme);
    std::vector<CellIndex> stale;
    for (const CellMark& m : marks)
      if (m.grid == (isM ? "Mds" : "Nds")) {
        stale.push_back({m.row, m.col});
        ctx.layout.marks.push_back(m);
      }
    frameCells(ctx.layout.grids.back(), stale, theme.error, theme.followPx * 1.6f);
    // The followed thread's slots: those it wrote this phase, and those it reads at this k step;
    // on the ladder also what its whole warp reads (one request per warp: its footprint).
    if (followed >= 0) {
      if (shape && tiles.reading)
        frameCells(ctx.layout.grids.back(), warpReads(tiles, isM, followed / kWarpSize), theme.follow, 1.0f);
      frameCells(ctx.layout.grids.back(), isM ? f.mdsWritten : f.ndsWritten, theme.follow, theme.followPx);
      frameCells(ctx.layout.grids.back(), isM ? f.mdsRead : f.ndsRead, theme.follow, theme.followPx * 1.6f);
    }
    ImGui::EndGroup();
  }
  for (int i = 0; i < 2; ++i) {
    if (!hover[i]) continue;
    const SlotState& s = tiles.slot(i == 0, hover[i]->row, hover[i]->col);
    std::string text = std::string(i == 0 ? "Mds" : "Nds") + "[" + std::to_string(hover[i]->row) + "][" +
                       std::to_string(hover[i]->col) + "]\n";
    text += s.loaded ? describeEvent(events[std::size_t(s.loadEvent)]) : "not written in this phase yet";
    if (!s.readers.empty()) {
      text += "\nread at this step by " + std::to_string(s.readers.size()) + " thread(s):";
      for (std::size_t k = 0; k < s.readers.size() && k < 16; ++k)
        text += (k ? "; " : " ") + threadName(s.readers[k] % int(L.blockX), s.readers[k] / int(L.blockX));
      if (s.readers.size() > 16) text += " ...";
    }
    for (const CellMark& m : marks)
      if (m.grid == (i == 0 ? "Mds" : "Nds") && m.row == hover[i]->row && m.col == hover[i]->col) text += "\n" + describeMark(m);
    tooltip(text);
  }
}

}  // namespace tilescope::ui
