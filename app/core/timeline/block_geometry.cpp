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
