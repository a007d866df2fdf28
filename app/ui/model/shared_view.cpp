// The Shared memory panel's view (shared_view.h).
#include "ui/model/shared_view.h"

#include "kernels/catalog.h"

namespace tilescope::ui {
namespace {

std::vector<gfx::CellStyle> slotCells(const TileState& tiles, bool isM, const Theme& theme, const EventVector& events,
                                      unsigned blockX) {
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

}  // namespace

SharedView sharedView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme,
                      const SharedViewOptions& options) {
  const auto& events = run.timeline.trace().events;
  const KernelLaunch& L = run.run.plan.launch;
  const Cursor c = run.timeline.normalize(cursor);
  SharedView v;
  v.tiles = tileStateAt(run, block, c);
  const auto shape = ladderSharedShape(L);
  v.kernelName = kernelName(run.run);  // a lab kernel's own name: its launch names no built-in
  v.noShared = v.tiles.empty() || (L.tile == 0 && !shape);
  if (v.noShared) return v;
  v.bx = block.bx(), v.by = block.by();
  v.blockX = std::max(int(L.blockX), 1);
  v.reading = v.tiles.reading;
  v.ladder = shape.has_value();
  v.buffers = shape ? shape->buffers : 1;
  v.wideM = shape && shape->mCols > shape->mRows;
  v.following = options.followed >= 0;
  const ThreadFootprint f = v.following ? threadFootprint(run, block, c, options.followed) : ThreadFootprint{};
  // A race, where it happens: the slots read stale in this barrier interval so far.
  const std::vector<CellMark> marks = raceMarks(run.timeline, c, block.bx(), block.by());
  for (int i = 0; i < 2; ++i) {
    const bool isM = i == 0;
    SharedTileView& t = v.tile[std::size_t(i)];
    t.name = isM ? "Mds" : "Nds";
    t.caption = tileCaption(isM, shape, L.tiling);
    t.dims = v.tiles.dims(isM);
    t.cells = slotCells(v.tiles, isM, theme, events, L.blockX);
    for (const CellMark& m : marks)
      if (m.grid == t.name) t.stale.push_back(m), t.staleCells.push_back({m.row, m.col});
    if (v.following && shape && v.tiles.reading) t.warpReads = warpReads(v.tiles, isM, options.followed / kWarpSize);
    t.written = isM ? f.mdsWritten : f.ndsWritten;
    t.read = isM ? f.mdsRead : f.ndsRead;
  }
  return v;
}

}  // namespace tilescope::ui
