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

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/model/shared_view.h"

namespace tilescope::ui {
namespace {

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

// A tile's caption broken into lines of at most `width`, at a space or after a ']': ImGui's own
// wrap breaks a word wider than the line anywhere, which cut rung 8's "Nds[3][8][64]:" inside
// its 64 on a projector's narrow column. A piece wider than the line is a line of its own.
std::string wrapCaption(const std::string& caption, float width) {
  std::string out, line;
  std::size_t start = 0;
  while (start < caption.size()) {
    std::size_t end = caption.find_first_of(" ]", start);
    end = end == std::string::npos ? caption.size() : end + 1;
    const std::string piece = caption.substr(start, end - start);
    if (!line.empty() && ImGui::CalcTextSize((line + piece).c_str()).x > width) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
      line.clear();
    }
    line += piece;
    start = end;
  }
  return out + line;
}

// Mds and Nds side by side or one above the other: whichever gives the smaller of the two
// tiles' cells the larger side, their captions wrapped to the width each gets (a narrow column
// on a projector stacks the book's 2x2 tiles; wide, flat ladder tiles stack anywhere).
struct TileArrangement {
  bool stacked = false;
  ImVec2 each;  // the room of each tile with its caption
};
TileArrangement arrangeTiles(const SharedView& v, ImVec2 avail, float maxCell) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 beside((avail.x - style.ItemSpacing.x) * 0.5f, avail.y);
  const ImVec2 above(avail.x, (avail.y - style.ItemSpacing.y) * 0.5f);
  auto smallerCell = [&](ImVec2 each) {
    float least = maxCell;
    for (const SharedTileView& t : v.tile) {
      const float caption = ImGui::CalcTextSize(wrapCaption(t.caption, each.x).c_str()).y + style.ItemSpacing.y;
      least = std::min(least, GridPainter::cellSide(t.dims.rows, t.dims.cols, ImVec2(each.x, each.y - caption), maxCell));
    }
    return least;
  };
  const float sideBySide = smallerCell(beside), stacked = smallerCell(above);
  const bool stack = stacked != sideBySide ? stacked > sideBySide : v.wideM;
  return {stack, stack ? above : beside};
}

}  // namespace

void drawSharedPanel(PanelContext& ctx) {
  const SharedView* view = shownSharedView(ctx.state);
  if (!view) return;
  const SharedView& v = *view;
  const Theme& theme = ctx.theme();
  if (v.noShared) {
    textWrappedF("%s reads M and N straight from global memory: no shared memory.", v.kernelName.c_str());
    return;
  }
  // On a projector the caption says what the step does: the tiles get the room instead.
  if (!ctx.state.lesson.presenter)
    textWrappedF("block (%d,%d), %s", v.bx, v.by,
                 v.reading ? "dots: slots read at this k step" : "slot colour: the thread that wrote it");
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // On a projector (and in presentation mode) the tiles grow with the text.
  const float maxCell = ctx.state.lesson.presenter ? 120.0f : 48.0f * ctx.state.view.fontScale;
  const auto [stacked, each] = arrangeTiles(v, avail, maxCell);
  std::optional<CellIndex> hover[2];
  for (int i = 0; i < 2; ++i) {
    const SharedTileView& t = v.tile[std::size_t(i)];
    if (i && !stacked) ImGui::SameLine();
    ImGui::BeginGroup();
    const std::string caption = wrapCaption(t.caption, each.x);
    ImGui::TextUnformatted(caption.c_str());
    recordText(ctx, "Shared memory", caption);
    const ImVec2 space(each.x, each.y - ImGui::GetItemRectSize().y - ImGui::GetStyle().ItemSpacing.y);
    const float gutter = v.ladder ? bufferGutter(v.buffers, t.dims, space, maxCell) : 0.0f;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + gutter);
    hover[i] = ctx.grids.draw({t.name, t.dims.rows, t.dims.cols, t.cells, ImVec2(space.x - gutter, space.y), maxCell},
                              theme, ctx.layout);
    if (v.ladder) labelBuffers(ctx.layout.grids.back(), v.buffers, gutter, theme);
    ctx.layout.marks.insert(ctx.layout.marks.end(), t.stale.begin(), t.stale.end());
    frameCells(ctx.layout.grids.back(), t.staleCells, theme.error, theme.followPx * 1.6f);
    // The followed thread's slots: those it wrote this phase, and those it reads at this k step;
    // on the ladder also what its whole warp reads (one request per warp: its footprint).
    if (v.following) {
      if (!t.warpReads.empty()) frameCells(ctx.layout.grids.back(), t.warpReads, theme.follow, 1.0f);
      frameCells(ctx.layout.grids.back(), t.written, theme.follow, theme.followPx);
      frameCells(ctx.layout.grids.back(), t.read, theme.follow, theme.followPx * 1.6f);
    }
    ImGui::EndGroup();
  }
  // A hovered slot's tooltip (who wrote it, who reads it now, a race's mark), from the view cache.
  for (int i = 0; i < 2; ++i)
    if (const CellTip* tip = hover[i] ? shownCellTip(ctx.state, v.tile[std::size_t(i)].name, *hover[i]) : nullptr)
      tooltip(tip->text);
}

}  // namespace tilescope::ui
