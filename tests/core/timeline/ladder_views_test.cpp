// What the app's views take from a ladder rung's trace (app/core/timeline/block_geometry.h and the
// timeline's counters), checked against hand counts of the matrix product and the tilings,
// never against what the code under test produced.
#include <gtest/gtest.h>

#include <set>

#include "core/timeline/block_geometry.h"
#include "core/timeline/copy_ring.h"
#include "core/timeline/load_index.h"
#include "core/timeline/thread_life.h"
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

// Rung 11 (kernels/ladder/wgmma_tf32.cuh) at lesson 21's launch: 64^3, tiling 64x32x32/16x32/2x8,
// block (0,0). Counted by hand from the kernel's text: consumers = bm / 64 * 128 = 128 (threads
// 0..127), two producer warpgroups (threads 128..383) taking turns at the k tiles; k tiles =
// 64 / 32 = 2 in a ring of 4 stages, so stages 2 and 3 are never filled; full[s] needs 1 + 128
// arrivals (the tile's warpgroup's first thread's expect_tx, then each of its 128 threads),
// empty[s] 128; one copy per k tile, M's 64 x 32 box (8192 bytes): N's tile is written by the
// producers, not copied, bn x bk = 32 x 32 floats a stage. With one group of MMAs in flight a
// consumer hands back stage t - 1 after issuing tile t, so stage 0 is handed back and the last
// tile's stage 1 never is (nothing waits to refill it): empty[0] completes, empty[1] does not.
class Rung11 : public ::testing::Test {
 protected:
  tilescope::Run run = runLadder(KernelId::WgmmaTf32, 64, Tiling{64, 32, 32, 16, 32, 2, 8});
  Timeline t = Timeline::build(*run.trace);
  BlockTimeline block = BlockTimeline::build(t, 0, 0);
};

// The consumers read N's tile after waiting for the producers' arrivals on full[s]: the run
// verifies, so every read saw its producer's write. The trace's canonical order (consumers,
// threads 0..127, before producers) is not the order the emulator ran them in, so it is no
// evidence of a stale read: the timeline draws the ring in lockstep, not thread by thread.
TEST_F(Rung11, TheRingIsDrawnInLockstepNotAsARace) {
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  EXPECT_TRUE(t.staleReads().empty());
  EXPECT_FALSE(t.realOrder());
  for (int s = 0; s < t.steps(); ++s) ASSERT_EQ(t.step(s).thread, -1) << t.stepLabel(s);
}

TEST_F(Rung11, TheCopyEngineCountsWhatTheRunDid) {
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  const CopySchedule schedule = CopySchedule::build(t, block);
  ASSERT_TRUE(schedule.applies());
  const CopyRing end = schedule.at(t.end());
  EXPECT_EQ(end.consumers, 128);
  EXPECT_EQ(end.copiesTotal, 2);
  // Each producer warpgroup's first thread (128 + 128 * first) issues its tiles' copies: k tile 0
  // by thread 128, k tile 1 by thread 256.
  EXPECT_EQ(end.producer, "threads tx=128 and tx=256, taking turns, have issued all 2 copies");
  EXPECT_TRUE(end.nByThreads);
  EXPECT_EQ(end.stageCount, 4);
  ASSERT_EQ(end.barriers.size(), 8u) << "full[0..3], empty[0..3]";
  int full = 0;
  for (const RingBarrier& b : end.barriers) {
    const bool used = b.index < 2;  // stages 0 and 1 held k tiles 0 and 1
    const bool handedBack = b.index == 0;
    full += b.role == BarrierRole::Full;
    EXPECT_EQ(b.completed, b.role == BarrierRole::Full ? (used ? 1 : 0) : (handedBack ? 1 : 0)) << b.name();
    EXPECT_EQ(b.needed, b.role == BarrierRole::Full ? 129 : 128) << b.name();
    // An unused stage's full barrier is still a full barrier: no copy, no "consumers" (fewer
    // k tiles than stages), whatever its arrival count.
    if (b.role == BarrierRole::Full && !used) EXPECT_EQ(b.text(), b.name() + ": phase 0, no copy issued yet");
    if (b.role == BarrierRole::Full && used)
      EXPECT_EQ(b.text(), b.name() + ": phase 0 complete, 8192 of 8192 bytes, 129 of 129 arrivals");
    if (b.role == BarrierRole::Empty && handedBack)
      EXPECT_EQ(b.text(), b.name() + ": phase 0 complete, 128 of 128 consumers done");
    if (b.role == BarrierRole::Empty && b.index == 1) EXPECT_EQ(b.text(), b.name() + ": phase 0, 0 of 128 consumers done");
  }
  EXPECT_EQ(full, 4);
  for (int s = 0; s < 4; ++s) {
    const RingStage& st = end.stages[std::size_t(s)];
    EXPECT_EQ(st.m.tile, s < 2 ? s : -1) << "stage " << s;
    // N's tile is no copy: the 128 producers write its 32 x 32 floats (4096 bytes) themselves.
    EXPECT_EQ(st.n.tile, s < 2 ? s : -1) << "stage " << s;
    EXPECT_EQ(st.n.byThreads, s < 2) << "stage " << s;
    EXPECT_EQ(st.n.bytes, s < 2 ? 32 * 32 * 4 : 0) << "stage " << s;
    EXPECT_EQ(st.n.bytesWritten, st.n.bytes) << "stage " << s;
    EXPECT_EQ(st.state, s == 0 ? StageState::Released : s == 1 ? StageState::Reading : StageState::Empty)
        << "stage " << s << ": " << stageStateName(st.state);
    EXPECT_EQ(st.released, s == 0 ? 128 : 0) << "stage " << s;
  }
}

// A consumer's own work is its waits, its arrivals, its sums and its stores; the tensor cores'
// descriptor reads that the trace records in its name are listed as theirs, never as the
// thread's products. Per k tile, 4 MMAs (kk = 0, 8, 16, 24), each reading A's 64 rows as 128
// chunks (one per thread) and B's 32 rows as 64 chunks (threads 0..63): thread 0 records 8
// reads a tile, thread 100 four (A only); the sums recorded once, at the last wait (the wait for
// the group before records nothing: its sums are still being added to on a GPU); one arrival,
// on empty[0] (stage 1 is the last and is not handed back); 16 sums a thread (bn / 2), stored
// once each.
TEST_F(Rung11, ThreadLifeListsDescriptorReadsAsTheTensorCoresNotAsProducts) {
  for (const auto& [thread, readsPerTile] : {std::pair{0, 8}, std::pair{100, 4}}) {
    const ThreadLife life = threadLife(t, block, thread);
    int descriptorReads = 0, multiplies = 0, mmas = 0, entries = 0, waits = 0, arrivals = 0;
    for (const LifePhase& p : life.phases)
      for (const LifeEntry& e : p.entries) {
        ++entries;
        descriptorReads += e.kind == LifeEntry::Kind::DescriptorRead;
        multiplies += e.kind == LifeEntry::Kind::Multiply;
        mmas += e.kind == LifeEntry::Kind::Mma;
        waits += e.kind == LifeEntry::Kind::MbarrierWait;
        arrivals += e.kind == LifeEntry::Kind::MbarrierArrive;
        if (e.kind == LifeEntry::Kind::DescriptorRead)
          EXPECT_NE(e.text().find("for the warpgroup's MMA"), std::string::npos) << e.text();
      }
    EXPECT_EQ(descriptorReads, 2 * readsPerTile) << "thread " << thread;
    EXPECT_EQ(multiplies, 0) << "thread " << thread;
    EXPECT_EQ(life.products, 0) << "thread " << thread;
    EXPECT_EQ(mmas, 1) << "the sums once, after the last group, thread " << thread;
    EXPECT_EQ(waits, 2) << "full[0], full[1]";
    EXPECT_EQ(arrivals, 1) << "empty[0]";
    EXPECT_EQ(life.stores.size(), 16u);
  }
}

}  // namespace
}  // namespace tilescope
