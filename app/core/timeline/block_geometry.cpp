#include "core/timeline/block_geometry.h"

#include <algorithm>

#include "kernels/ceil_div.h"

namespace tilescope {
namespace {

bool registerTiled(const KernelLaunch& L) { return !L.tiling.empty() && L.tiling.bm > 0 && L.tiling.bn > 0; }

}  // namespace

PTile blockTileOfP(const KernelLaunch& L, int bx, int by) {
  const int rows = registerTiled(L) ? L.tiling.bm : int(L.blockY);
  const int cols = registerTiled(L) ? L.tiling.bn : int(L.blockX);
  return {by * rows, bx * cols, rows, cols};
}

GridCell blockOfP(const KernelLaunch& L, int row, int col) {
  const PTile one = blockTileOfP(L, 0, 0);
  return {row / std::max(one.rows, 1), col / std::max(one.cols, 1)};
}

bool blocksWalkTiles(const KernelLaunch& L) {
  if (!registerTiled(L) || L.gridY != 1) return false;
  return L.persistentBlocks > 0 || int(L.gridX) != ceilDiv(L.l, L.tiling.bn) || ceilDiv(L.j, L.tiling.bm) > 1;
}

GridCell tileGridOfP(const KernelLaunch& L) {
  if (!blocksWalkTiles(L)) return {int(L.gridY), int(L.gridX)};
  return {ceilDiv(L.j, L.tiling.bm), ceilDiv(L.l, L.tiling.bn)};
}

std::vector<PTile> blockTilesOfP(const KernelLaunch& L, std::span<const Event> blockEvents, int bx, int by) {
  if (!blocksWalkTiles(L)) return {blockTileOfP(L, bx, by)};
  std::vector<PTile> out;
  auto add = [&](int tileRow, int tileCol) {
    const PTile t = blockTileOfP(L, tileCol, tileRow);
    const bool known = std::any_of(out.begin(), out.end(), [&](const PTile& o) { return o.row0 == t.row0 && o.col0 == t.col0; });
    if (!known) out.push_back(t);
  };
  int copiedRow = -1;  // the tile row of the last copy of M, waiting for its copy of N
  for (const Event& e : blockEvents) {
    if (e.op == Op::CopyM) copiedRow = e.globalRow / L.tiling.bm;
    if (e.op == Op::CopyN && copiedRow >= 0) add(copiedRow, e.globalCol / L.tiling.bn), copiedRow = -1;
    if (e.op == Op::StoreP && e.globalRow >= 0 && e.globalCol >= 0) add(e.globalRow / L.tiling.bm, e.globalCol / L.tiling.bn);
  }
  return out;
}

ThreadGrid threadGrid(const KernelLaunch& L) {
  if (L.blockY == 1 && L.blockX > unsigned(kWarpSize))
    return {ceilDiv(int(L.blockX), kWarpSize), kWarpSize, true};
  return {int(L.blockY), int(L.blockX), false};
}

GridCell threadCell(const ThreadGrid& g, int linear) { return {linear / g.cols, linear % g.cols}; }

bool touchesElement(const Event& e, int row, int col) {
  return e.globalRow == row && col >= e.globalCol && col < e.globalCol + eventWidth(e.flags);
}

std::optional<SharedTileShape> ladderSharedShape(const KernelLaunch& L) {
  if (L.labTiles || !registerTiled(L)) return std::nullopt;
  const SharedTileLayout t = kernelSharedTiles(L);
  if (t.bytes == 0 || t.strideM <= 0 || t.strideN <= 0) return std::nullopt;
  SharedTileShape s;
  s.mCols = t.strideM;
  s.mRows = int((t.baseN - t.baseM) / 4u) / t.strideM;
  s.nCols = t.strideN;
  s.nRows = int((t.bytes - t.baseN) / 4u) / t.strideN;
  for (const SharedArrayFacts& a : kernelSharedArrays(L))
    if (a.matrix == MatrixRole::M) s.mTransposed = !a.tileRowIsMatrixRow;
  // Nds holds bk rows of k per buffer in every rung.
  s.buffers = std::max(1, s.nRows / std::max(L.tiling.bk, 1));
  return s;
}

}  // namespace tilescope
