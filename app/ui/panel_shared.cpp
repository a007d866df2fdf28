// Shared memory: the selected block's Mds and Nds. Each slot takes the colour of the thread
// that wrote it in the current phase (hatched when a boundary check wrote 0); at a k step the
// slots being read get a dot, and hovering one lists its readers: a row of Mds and a column
// of Nds are broadcast to a whole row / column of threads.
#include <imgui.h>

#include <string>

#include "event_text.h"
#include "panels.h"
#include "thread_story.h"
#include "tile_state.h"

namespace tilescope::ui {
namespace {

std::vector<gfx::CellStyle> slotCells(const TileState& tiles, bool isM, const Theme& theme,
                                      const EventVector& events, unsigned blockX) {
  std::vector<gfx::CellStyle> cells(std::size_t(tiles.rows) * std::size_t(tiles.cols));
  for (int r = 0; r < tiles.rows; ++r)
    for (int c = 0; c < tiles.cols; ++c) {
      const SlotState& s = tiles.slot(isM, r, c);
      gfx::CellStyle& cell = cells[std::size_t(r) * tiles.cols + c];
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
  if (tiles.rows == 0 || L.tile == 0) {
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
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 each((avail.x - ImGui::GetStyle().ItemSpacing.x) * 0.5f, avail.y - line);
  std::optional<CellIndex> hover[2];
  for (int i = 0; i < 2; ++i) {
    const bool isM = i == 0;
    if (i) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextUnformatted(isM ? "Mds[ty][k]" : "Nds[k][tx]");
    hover[i] = ctx.grids.draw({isM ? "Mds" : "Nds", tiles.rows, tiles.cols,
                               slotCells(tiles, isM, theme, events, L.blockX), each,
                               ctx.state.lesson.presenter ? 120.0f : 48.0f},
                              theme, ctx.layout);
    // The followed thread's slots: those it wrote this phase, and those it reads at this k step.
    if (followed >= 0) {
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
        text += " (" + std::to_string(s.readers[k] % int(L.blockX)) + "," + std::to_string(s.readers[k] / int(L.blockX)) + ")";
      if (s.readers.size() > 16) text += " ...";
    }
    tooltip(text);
  }
}

}  // namespace tilescope::ui
