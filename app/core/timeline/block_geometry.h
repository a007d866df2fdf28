// Where a block's work lies, for the views (GUI-free): the part of P a block computes, its
// threads as the Thread block panel draws them, the elements and slots one event touches (a
// 128-bit access touches four), and the shape of the ladder's shared tiles.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {

struct GridCell {
  int row = -1, col = -1;
  bool operator==(const GridCell&) const = default;
};

// The rectangle of P block (bx, by) computes: bm x bn for the ladder's register-tiled kernels
// (their one-dimensional block of threads covers more than one element each), else the block
// itself, blockY x blockX, one element per thread.
struct PTile {
  int row0 = 0, col0 = 0, rows = 0, cols = 0;
  bool contains(int r, int c) const { return r >= row0 && r < row0 + rows && c >= col0 && c < col0 + cols; }
};
PTile blockTileOfP(const KernelLaunch& L, int bx, int by);
// The block that computes P(row, col) by that geometry.
GridCell blockOfP(const KernelLaunch& L, int row, int col);  // {by, bx}

// Whether block (bx, by) is not tile (by, bx): a register-tiled launch on one row of blocks
// that is not one row of tiles (rung 9: a persistent grid, or its one block per tile numbered
// in bands of tile rows). Its blocks walk tiles; blockTileOfP does not say which.
bool blocksWalkTiles(const KernelLaunch& L);
// The tile grid the launch pads its matrices to: whole tiles (bm x bn, or the block) over P,
// tilesY x tilesX of them; the block grid where blocks are tiles, else ceil(j/bm) x ceil(l/bn).
GridCell tileGridOfP(const KernelLaunch& L);  // {tilesY, tilesX}
// The tiles of P a block works on, in the order it first touched them. Where blocks are tiles,
// blockTileOfP's one; where they walk tiles, read from what the block did (`blockEvents`, its
// events): each tensor-map copy of M names a tile row (its box's first row), the copy of N
// issued after it that tile's column, and each store of P its tile. A block of rung 9 that
// finishes one tile and begins the next works on two.
std::vector<PTile> blockTilesOfP(const KernelLaunch& L, std::span<const Event> blockEvents, int bx, int by);

// The threads as drawn: threadIdx.y rows of threadIdx.x, except a one-dimensional block of
// more than a warp, drawn a warp per row (rows of 32). Cell (r, c) is linear thread r * cols + c
// in both.
struct ThreadGrid {
  int rows = 1, cols = 1;
  bool byWarp = false;
};
ThreadGrid threadGrid(const KernelLaunch& L);
GridCell threadCell(const ThreadGrid& g, int linear);

// The elements (globalRow, globalCol) or slots (sharedRow, sharedCol) an event touches: one,
// or four consecutive in a row for a 128-bit access (kWide). count 0: it touches none.
struct EventCells {
  std::array<GridCell, 4> at{};
  int count = 0;
  const GridCell* begin() const { return at.data(); }
  const GridCell* end() const { return at.data() + count; }
};
// Inline: the timeline and the race finder ask this of every event.
inline EventCells eventCellsAt(int row, int col, uint8_t flags) {
  EventCells out;
  if (row < 0 || col < 0) return out;
  out.count = eventWidth(flags);
  for (int i = 0; i < out.count; ++i) out.at[std::size_t(i)] = {row, col + i};
  return out;
}
inline EventCells elementsOf(const Event& e) {
  if (e.op == Op::None || e.op == Op::Barrier) return {};
  return eventCellsAt(e.globalRow, e.globalCol, e.flags);
}
inline EventCells slotsOf(const Event& e) {
  if (e.op == Op::None || e.op == Op::Barrier || e.op == Op::StoreP) return {};
  return eventCellsAt(e.sharedRow, e.sharedCol, e.flags);
}
bool touchesElement(const Event& e, int row, int col);

// The ladder's shared tiles as the Shared memory panel draws them, from the kernel's facts:
// rows x columns of each (padding columns included), whether Mds holds M's tile transposed
// (one k per row: corner turning) and how many buffers each holds (2: double buffering, the
// halves one after the other, bk rows each). Empty for the chapter's kernels.
struct SharedTileShape {
  int mRows = 0, mCols = 0, nRows = 0, nCols = 0;
  bool mTransposed = false;
  int buffers = 1;
};
std::optional<SharedTileShape> ladderSharedShape(const KernelLaunch& L);

}  // namespace tilescope
