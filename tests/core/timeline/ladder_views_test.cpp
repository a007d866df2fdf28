// What the app's views take from a ladder rung's trace (app/core/timeline/block_geometry.h and the
// timeline's counters), checked against hand counts of the matrix product and the tilings,
// never against what the code under test produced.
#include <gtest/gtest.h>

#include <set>

#include "core/timeline/block_geometry.h"
#include "core/timeline/load_index.h"
#include "core/run/run.h"
#include "core/timeline/timeline.h"
#include "test_support.h"

namespace tilescope {
namespace {

Run runLadder(KernelId kernel, int size, Tiling tiling) {
  LaunchConfig c = testing::launchConfig(kernel, {size, size, size}, 0, 1);
  c.tiling = tiling;
  return testing::runEmulated(c, true);
}

constexpr Tiling kWarpTeaching{32, 32, 4, 16, 32, 4, 4};  // warptile's and double-buffered's teaching tiling

TEST(BlockGeometry, ABlocksTileOfPIsBmByBnOnTheLadderAndTheBlockElsewhere) {
  KernelLaunch L;
  L.tiling = {64, 32, 8, 0, 0, 8, 4};
  L.blockX = 64;  // (64/8) x (32/4) threads, one-dimensional
  const PTile t = blockTileOfP(L, 2, 1);
  EXPECT_EQ(t.row0, 64);
  EXPECT_EQ(t.col0, 64);
  EXPECT_EQ(t.rows, 64);
  EXPECT_EQ(t.cols, 32);
  EXPECT_EQ(blockOfP(L, 70, 95), (GridCell{1, 2}));
  KernelLaunch book;  // fig. 5.9, T = 2: the block is the tile
  book.tile = 2;
  book.blockX = book.blockY = 2;
  const PTile b = blockTileOfP(book, 1, 0);
  EXPECT_EQ(b.row0, 0);
  EXPECT_EQ(b.col0, 2);
  EXPECT_EQ(b.rows * b.cols, 4);
}

TEST(BlockGeometry, OneDimensionalBlocksOfMoreThanAWarpAreDrawnAWarpPerRow) {
  KernelLaunch L;
  L.blockX = 64;
  L.blockY = 1;
  const ThreadGrid g = threadGrid(L);
  EXPECT_TRUE(g.byWarp);
  EXPECT_EQ(g.rows, 2);
  EXPECT_EQ(g.cols, 32);
  EXPECT_EQ(threadCell(g, 33), (GridCell{1, 1}));  // warp 1, lane 1
  L.blockX = 16;
  L.blockY = 16;  // the chapter's 2-D blocks keep threadIdx rows
  EXPECT_FALSE(threadGrid(L).byWarp);
  EXPECT_EQ(threadGrid(L).rows, 16);
}

TEST(BlockGeometry, AWideEventTouchesFourConsecutiveElementsAndSlots) {
  Event e{};
  e.op = Op::LoadN;
  e.flags = kInBounds | kWide;
  e.globalRow = 3;
  e.globalCol = 8;
  e.sharedRow = 1;
  e.sharedCol = 4;
  const EventCells g = elementsOf(e), s = slotsOf(e);
  ASSERT_EQ(g.count, 4);
  ASSERT_EQ(s.count, 4);
  EXPECT_EQ(g.at[3], (GridCell{3, 11}));
  EXPECT_EQ(s.at[3], (GridCell{1, 7}));
  EXPECT_TRUE(touchesElement(e, 3, 11));
  EXPECT_FALSE(touchesElement(e, 3, 12));
  e.flags = kInBounds;
  EXPECT_EQ(elementsOf(e).count, 1);
}

TEST(BlockGeometry, TheLaddersSharedTilesAreDrawnAsDeclared) {
  KernelLaunch L;
  L.kernel = KernelId::DoubleBuffered;
  L.j = L.k = L.l = 64;
  L.tiling = kWarpTeaching;
  const auto s = ladderSharedShape(L);
  ASSERT_TRUE(s);
  // Mds[2][BK][BM + 4] and Nds[2][BK][BN] (kernels/ladder/double_buffered.cuh).
  EXPECT_EQ(s->mRows, 8);
  EXPECT_EQ(s->mCols, 36);
  EXPECT_EQ(s->nRows, 8);
  EXPECT_EQ(s->nCols, 32);
  EXPECT_TRUE(s->mTransposed);
  EXPECT_EQ(s->buffers, 2);
  L.kernel = KernelId::RegisterTile2d;  // Mds[BM][BK]: not transposed, one buffer
  L.tiling = {8, 8, 4, 0, 0, 2, 2};
  const auto r = ladderSharedShape(L);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->mRows, 8);
  EXPECT_EQ(r->mCols, 4);
  EXPECT_FALSE(r->mTransposed);
  EXPECT_EQ(r->buffers, 1);
  L.kernel = KernelId::Tiled;
  L.tiling = {};
  EXPECT_FALSE(ladderSharedShape(L));
}

// 64^3 has 262144 multiply-adds whatever the kernel; a BM x BN block tile loads
// j*k*l*(1/BM + 1/BN) elements (each block reads BM rows of M and BN columns of N over all k).
TEST(LadderCounters, MultiplyAddsAreTheOuterProductsAndStagedValuesLoadOnce) {
  for (KernelId id : {KernelId::RegisterTile2d, KernelId::Vectorized, KernelId::WarpTile, KernelId::DoubleBuffered}) {
    const Tiling t = id == KernelId::RegisterTile2d ? Tiling{8, 8, 4, 0, 0, 2, 2}
                     : id == KernelId::Vectorized   ? Tiling{16, 16, 4, 0, 0, 4, 4}
                                                    : kWarpTeaching;
    tilescope::Run run = runLadder(id, 64, t);
    ASSERT_TRUE(run.trace) << kernelInfo(id).name;
    const Timeline tl = Timeline::build(*run.trace);
    const Counters c = tl.countersAt(tl.end());
    const uint64_t n3 = 64ull * 64 * 64;
    EXPECT_EQ(c.fmas, n3) << kernelInfo(id).name;
    EXPECT_EQ(c.globalLoads, n3 / uint64_t(t.bm) + n3 / uint64_t(t.bn)) << kernelInfo(id).name;
    EXPECT_EQ(c.stores, 64ull * 64) << kernelInfo(id).name;
    // Every M and N element is loaded by 64/BN and 64/BM blocks: the load index counts the
    // four elements of a 128-bit load, and a staged value once.
    const LoadIndex index = LoadIndex::build(tl);
    const auto& counts = index.mCounts(tl.end());
    for (uint32_t x : counts) ASSERT_EQ(x, uint32_t(64 / t.bn)) << kernelInfo(id).name;
  }
}

TEST(LadderCounters, EveryElementOfAWideStoreKnowsItsStore) {
  tilescope::Run run = runLadder(KernelId::WarpTile, 64, kWarpTeaching);
  ASSERT_TRUE(run.trace);
  const Timeline tl = Timeline::build(*run.trace);
  // Thread 0 of block (0,0) stores 4x4 pieces; all 16 elements of its register tile point at
  // its own stores, and its tile lies inside the block's 32x32 tile of P.
  std::set<std::pair<int, int>> mine;
  for (int r = 0; r < 64; ++r)
    for (int col = 0; col < 64; ++col) {
      const int64_t e = tl.pStoreEvent(r, col);
      ASSERT_GE(e, 0) << r << "," << col;
      const Event& s = run.trace->events[std::size_t(e)];
      if (s.blockX == 0 && s.blockY == 0 && s.threadX == 0) mine.insert({r, col});
    }
  EXPECT_EQ(mine.size(), 16u);
  for (const auto& [r, col] : mine) EXPECT_TRUE(blockTileOfP(run.trace->launch, 0, 0).contains(r, col));
}

}  // namespace
}  // namespace tilescope
