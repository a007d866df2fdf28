// One thread's life from the trace (app/core/timeline/thread_life.h) against the book's fig. 5.8,
// which tabulates the 4x4, T = 2 example of fig. 5.9 for the four threads of block (0,0),
// written out here by hand from the figure.
#include <gtest/gtest.h>

#include <set>

#include "core/run/run.h"
#include "core/timeline/load_index.h"
#include "core/timeline/thread_life.h"
#include "core/timeline/timeline.h"
#include "test_support.h"

namespace tilescope {
namespace {

// The entries of one phase as text, in order.
std::vector<std::string> texts(const LifePhase& p) {
  std::vector<std::string> out;
  for (const LifeEntry& e : p.entries) out.push_back(e.text());
  return out;
}

class Figure58 : public ::testing::Test {
 protected:
  tilescope::Run run = testing::runEmulated(testing::launchConfig(KernelId::Tiled, {4, 4, 4}, 2, 1), true);
  Timeline t = Timeline::build(*run.trace);
  BlockTimeline block = BlockTimeline::build(t, 0, 0);
};

// Fig. 5.8, row "thread_{r,c}" (row r = threadIdx.y, column c = threadIdx.x): phase 0 loads
// M_{r,c} into Mds_{r,c} and N_{r,c} into Nds_{r,c}, then PValue += Mds_{r,0} * Nds_{0,c} +
// Mds_{r,1} * Nds_{1,c}; phase 1 loads M_{r,c+2} and N_{r+2,c} into the same slots and
// multiplies the same slots. The barriers of fig. 5.9 are its lines 27 and 32.
TEST_F(Figure58, EveryThreadOfBlockZeroAsTheBookTabulatesIt) {
  struct Row {
    int tx, ty;
    std::vector<std::string> phase0, phase1;
    const char* store;
  };
  const Row rows[] = {
      {0, 0,
       {"M(0,0) -> Mds[0][0]", "N(0,0) -> Nds[0][0]", "wait (line 27)", "Mds[0][0] x Nds[0][0]", "Mds[0][1] x Nds[1][0]", "wait (line 32)"},
       {"M(0,2) -> Mds[0][0]", "N(2,0) -> Nds[0][0]", "wait (line 27)", "Mds[0][0] x Nds[0][0]", "Mds[0][1] x Nds[1][0]", "wait (line 32)"},
       "P(0,0)"},
      {1, 0,
       {"M(0,1) -> Mds[0][1]", "N(0,1) -> Nds[0][1]", "wait (line 27)", "Mds[0][0] x Nds[0][1]", "Mds[0][1] x Nds[1][1]", "wait (line 32)"},
       {"M(0,3) -> Mds[0][1]", "N(2,1) -> Nds[0][1]", "wait (line 27)", "Mds[0][0] x Nds[0][1]", "Mds[0][1] x Nds[1][1]", "wait (line 32)"},
       "P(0,1)"},
      {0, 1,
       {"M(1,0) -> Mds[1][0]", "N(1,0) -> Nds[1][0]", "wait (line 27)", "Mds[1][0] x Nds[0][0]", "Mds[1][1] x Nds[1][0]", "wait (line 32)"},
       {"M(1,2) -> Mds[1][0]", "N(3,0) -> Nds[1][0]", "wait (line 27)", "Mds[1][0] x Nds[0][0]", "Mds[1][1] x Nds[1][0]", "wait (line 32)"},
       "P(1,0)"},
      {1, 1,
       {"M(1,1) -> Mds[1][1]", "N(1,1) -> Nds[1][1]", "wait (line 27)", "Mds[1][0] x Nds[0][1]", "Mds[1][1] x Nds[1][1]", "wait (line 32)"},
       {"M(1,3) -> Mds[1][1]", "N(3,1) -> Nds[1][1]", "wait (line 27)", "Mds[1][0] x Nds[0][1]", "Mds[1][1] x Nds[1][1]", "wait (line 32)"},
       "P(1,1)"},
  };
  for (const Row& r : rows) {
    const ThreadLife life = threadLife(t, block, r.ty * 2 + r.tx);
    ASSERT_EQ(life.phases.size(), 2u);
    EXPECT_EQ(texts(life.phases[0]), r.phase0) << "thread (" << r.tx << "," << r.ty << ")";
    EXPECT_EQ(texts(life.phases[1]), r.phase1) << "thread (" << r.tx << "," << r.ty << ")";
    ASSERT_EQ(life.stores.size(), 1u);
    EXPECT_EQ(life.stores[0].text().substr(0, 6), r.store);
    // The value stored is the dot product of M's row and N's column (the host reference).
    const LifeEntry& s = life.stores[0];
    double dot = 0;
    for (int k = 0; k < 4; ++k) dot += double(run.m.at(s.row, k)) * double(run.n.at(k, s.col));
    EXPECT_NEAR(s.value, dot, 1e-4);
  }
}

// The steps: phase p's loads at step 5p, its barriers at 5p+1 and 5p+4, k = 0 and 1 at 5p+2
// and 5p+3; the store last, at step 10 (the timeline's steps, timeline_test.cpp).
TEST_F(Figure58, EntriesCarryTheirStepsAndTheCursorSaysWhichIsCurrent) {
  const ThreadLife life = threadLife(t, block, 2);
  const int steps[] = {0, 0, 1, 2, 3, 4};
  for (int p = 0; p < 2; ++p)
    for (std::size_t i = 0; i < 6; ++i) {
      EXPECT_EQ(life.phases[std::size_t(p)].entries[i].step, steps[i] + 5 * p);
      EXPECT_EQ(life.phases[std::size_t(p)].entries[i].phase, p);
    }
  EXPECT_EQ(life.phases[0].entries[3].k, 0);
  EXPECT_EQ(life.phases[1].entries[4].k, 1);
  EXPECT_EQ(life.stores[0].step, 10);
  // At the end of phase 1's loads (seek phase 1): phase 0 is behind, phase 1's loads current.
  const Cursor c = t.seekPhase(1);
  EXPECT_EQ(lifeTime(life.phases[0].entries[5], t, c), LifeTime::Done);
  EXPECT_EQ(lifeTime(life.phases[1].entries[0], t, c), LifeTime::Current);
  EXPECT_EQ(lifeTime(life.phases[1].entries[1], t, c), LifeTime::Current);
  EXPECT_EQ(lifeTime(life.phases[1].entries[2], t, c), LifeTime::Ahead);
  EXPECT_EQ(lifeTime(life.stores[0], t, c), LifeTime::Ahead);
  EXPECT_EQ(lifeTime(life.phases[0].entries[0], t, t.begin()), LifeTime::Ahead);
  EXPECT_EQ(lifeTime(life.stores[0], t, t.end()), LifeTime::Current);
}

// The naive kernel (fig. 5.1 style, 2x2 blocks): no tiles, so each k step multiplies M and N
// elements read straight from global memory: thread (1,0) of block (1,1) computes P(2,3) as
// M(2,k) x N(k,3) for k = 0..3.
TEST(ThreadLife, NaiveKernelMultipliesGlobalElements) {
  tilescope::Run run = testing::runEmulated(testing::naiveConfig({4, 4, 4}, 2, 2, 1), true);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline block = BlockTimeline::build(t, 1, 1);
  const ThreadLife life = threadLife(t, block, 1);
  ASSERT_EQ(life.phases.size(), 1u);
  EXPECT_EQ(texts(life.phases[0]), (std::vector<std::string>{"M(2,0) x N(0,3)", "M(2,1) x N(1,3)", "M(2,2) x N(2,3)",
                                                            "M(2,3) x N(3,3)"}));
  ASSERT_EQ(life.stores.size(), 1u);
  EXPECT_EQ(life.stores[0].text().substr(0, 6), "P(2,3)");
}

// Fig. 5.11's boundary case: 3x3 with T = 2, thread (1,1) of block (0,0) in phase 1 would load
// M(1,3) and N(3,1), outside the 3x3 matrices; the boundary check writes 0 instead (and the
// trace names no element, since none was read).
TEST(ThreadLife, ZeroFilledSlotsAreNamed) {
  tilescope::Run run = testing::runEmulated(testing::launchConfig(KernelId::TiledBounds, {3, 3, 3}, 2, 1), true);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline block = BlockTimeline::build(t, 0, 0);
  const ThreadLife life = threadLife(t, block, 3);
  ASSERT_EQ(life.phases.size(), 2u);
  EXPECT_EQ(life.phases[1].entries[0].text(), "0 (outside M) -> Mds[1][1]");
  EXPECT_EQ(life.phases[1].entries[1].text(), "0 (outside N) -> Nds[1][1]");
}


// Rung 4's outer product (lesson 14 page 2): regtile-2d at 8x8x4/2x2 has 16 threads, thread
// tx=1 computes rows 0..1 and columns 2..3 of the block's tile (threadRow = 1 / 4 = 0,
// threadCol = 1 % 4 = 1). Per k it reads Mds[0][k], Mds[1][k], Nds[k][2], Nds[k][3] and does
// all four products, each M read with each N read of the same k (not paired in the order the
// reads came, which would give two). Its loads: i = 1 and 17 of the 32 slots of each tile
// (r = i / 4, c = i % 4 for Mds; r = i / 8, c = i % 8 for Nds).
TEST(ThreadLife, RegisterTileMultipliesEveryMReadWithEveryNReadOfItsK) {
  LaunchConfig config = testing::launchConfig(KernelId::RegisterTile2d, {32, 32, 32}, 0, 3);
  config.tiling = {8, 8, 4, 0, 0, 2, 2};
  tilescope::Run run = testing::runEmulated(config, true);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline block = BlockTimeline::build(t, 0, 0);
  const ThreadLife life = threadLife(t, block, 1);
  ASSERT_EQ(life.phases.size(), 8u);  // 32 / BK
  const std::vector<std::string> p0 = texts(life.phases[0]);
  ASSERT_EQ(p0.size(), 4u + 1u + 16u + 1u) << ::testing::PrintToString(p0);
  EXPECT_EQ(std::vector<std::string>(p0.begin(), p0.begin() + 4),
            (std::vector<std::string>{"M(0,1) -> Mds[0][1]", "M(4,1) -> Mds[4][1]", "N(0,1) -> Nds[0][1]", "N(2,1) -> Nds[2][1]"}));
  for (int k = 0; k < 4; ++k) {
    const std::string ks = std::to_string(k);
    const std::vector<std::string> products(p0.begin() + 5 + 4 * k, p0.begin() + 9 + 4 * k);
    EXPECT_EQ(products, (std::vector<std::string>{"Mds[0][" + ks + "] x Nds[" + ks + "][2]", "Mds[0][" + ks + "] x Nds[" + ks + "][3]",
                                                  "Mds[1][" + ks + "] x Nds[" + ks + "][2]", "Mds[1][" + ks + "] x Nds[" + ks + "][3]"}));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(life.phases[0].entries[std::size_t(5 + 4 * k + i)].k, k);
  }
  // 2 x 2 elements, k = 32 each: 128 multiply-adds; four stores, P(0..1, 2..3).
  EXPECT_EQ(life.products, 128);
  ASSERT_EQ(life.stores.size(), 4u);
  EXPECT_EQ(life.stores[0].text().substr(0, 6), "P(0,2)");
  EXPECT_EQ(life.stores[3].text().substr(0, 6), "P(1,3)");
}

// Rung 8 (tma-pipeline) at its teaching tiling on 64^3, block (0,0), counted by hand from the
// kernel (copy_ring_test.cpp has the arithmetic): 8 k tiles in 3 stages, tile t in stage t % 3.
class RingLife : public ::testing::Test {
 protected:
  static LaunchConfig config() {
    LaunchConfig c = testing::launchConfig(KernelId::TmaPipeline, {64, 64, 64}, 0, 7);
    c.tiling = {32, 64, 8, 16, 32, 4, 4};
    return c;
  }
  tilescope::Run run = testing::runEmulated(config(), true);
  Timeline t = Timeline::build(*run.trace);
  BlockTimeline block = BlockTimeline::build(t, 0, 0);
};

// The producer, tx=128: the __syncthreads at line 53, then per tile t its wait on empty[t % 3]
// for parity (t / 3 + 1) % 2 (line 62), its arrival on full[t % 3] announcing 32x8 + 8x64 floats
// = 3072 bytes, and its two copies: M's 32x8 box at column 8t (1024 bytes) and N's 8x64 box at
// row 8t (2048 bytes). 1 + 8 x 4 = 33 events, none left out; no products, no stores.
TEST_F(RingLife, TheProducerWaitsArrivesAndIssuesSixteenCopies) {
  const ThreadLife life = threadLife(t, block, 128);
  EXPECT_EQ(life.events, 33);
  ASSERT_EQ(life.phases.size(), 8u);
  EXPECT_EQ(life.phases[0].entries.front().text(), "wait (line 53)");
  int copies = 0;
  for (int tile = 0; tile < 8; ++tile) {
    const std::string s = std::to_string(tile % 3), parity = std::to_string((tile / 3 + 1) % 2);
    const std::string k0 = std::to_string(8 * tile), k1 = std::to_string(8 * tile + 7);
    std::vector<std::string> got = texts(life.phases[std::size_t(tile)]);
    if (tile == 0) got.erase(got.begin());
    EXPECT_EQ(got, (std::vector<std::string>{"wait empty[" + s + "], parity " + parity, "arrive full[" + s + "], expect 3072 bytes",
                                             "copy M(0..31," + k0 + ".." + k1 + ") -> stage " + s + " (1024 bytes)",
                                             "copy N(" + k0 + ".." + k1 + ",0..63) -> stage " + s + " (2048 bytes)"}))
        << "tile " << tile;
    for (const LifeEntry& e : life.phases[std::size_t(tile)].entries) copies += e.kind == LifeEntry::Kind::Copy;
  }
  EXPECT_EQ(copies, 16);
  EXPECT_EQ(life.products, 0);
  EXPECT_TRUE(life.stores.empty());
}

// A consumer, thread 0: it initialises the six mbarriers (full[s] for 1 arrival, empty[s] for
// 128), waits at line 53, then per tile t waits on full[t % 3] for parity (t / 3) % 2, does
// two k steps of 4 rows x 4 k x 4 columns = 64 multiply-adds each (a float4 of Mds holds four k
// steps of a row), and arrives on empty[t % 3]. Its 4x4 elements of P times k = 64 is 1024
// multiply-adds; they are stored as four float4s.
TEST_F(RingLife, AConsumerWaitsOnFullMultipliesAndReleasesEachStage) {
  const ThreadLife life = threadLife(t, block, 0);
  ASSERT_EQ(life.phases.size(), 8u);
  std::vector<std::string> p0 = texts(life.phases[0]);
  ASSERT_EQ(p0.size(), 6u + 1u + 4u) << ::testing::PrintToString(p0);
  EXPECT_EQ(std::vector<std::string>(p0.begin(), p0.begin() + 7),
            (std::vector<std::string>{"init full[0] (1 arrival)", "init empty[0] (128 arrivals)", "init full[1] (1 arrival)",
                                      "init empty[1] (128 arrivals)", "init full[2] (1 arrival)", "init empty[2] (128 arrivals)",
                                      "wait (line 53)"}));
  for (int tile = 0; tile < 8; ++tile) {
    const LifePhase& p = life.phases[std::size_t(tile)];
    const std::size_t first = tile == 0 ? 7 : 0;
    ASSERT_EQ(p.entries.size(), first + 4) << "tile " << tile;
    const std::string s = std::to_string(tile % 3);
    EXPECT_EQ(p.entries[first].text(), "wait full[" + s + "], parity " + std::to_string(tile / 3 % 2));
    for (int k = 0; k < 2; ++k) {
      const LifeEntry& product = p.entries[first + 1 + std::size_t(k)];
      EXPECT_EQ(product.kind, LifeEntry::Kind::Multiply);
      EXPECT_EQ(product.k, k);
      EXPECT_EQ(product.products, 64);
      EXPECT_EQ(product.mReads, 4);
      EXPECT_EQ(product.nReads, 4);
    }
    EXPECT_EQ(p.entries[first + 3].text(), "arrive empty[" + s + "]");
  }
  EXPECT_EQ(life.products, 1024);
  ASSERT_EQ(life.stores.size(), 4u);
  EXPECT_EQ(life.stores[0].text().substr(0, 11), "P(0,0..3) =");
}

// Rung 9 (stream-k) in a persistent grid of 3 blocks at 64^3, teaching tiling: 2 tiles of P
// (32 x 64 each) of 8 k tiles, 16 iterations, block b taking [16b / 3, 16(b + 1) / 3): block 0
// iterations 0..4 (tile 0's first five), block 1 5..9 (tile 0's last three, tile 1's first two),
// block 2 10..15. A block runs its segments from the second (the kernel's `it` starts at
// begin + firstLength), so block 1's thread 0 first sums tile 1's first two k tiles and leaves
// that partial, its 4x4 values as four float4s at workspace ((1 x 4 + q) x 128) x 4 = 2048 +
// 512q, and publishes flag[1 x 128 + 0] (the launch's generation, 1 in a traced launch); then
// it finishes tile 0: waits for block 0's flag[0], reads block 0's partial at 512q, and stores.
TEST(ThreadLife, StreamKWaitsOnAFlagReadsTheWorkspaceAndPublishes) {
  LaunchConfig config = testing::launchConfig(KernelId::StreamK, {64, 64, 64}, 0, 5);
  config.tiling = {32, 64, 8, 16, 32, 4, 4};
  config.persistentBlocks = 3;
  tilescope::Run run = testing::runEmulated(config, true);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline block = BlockTimeline::build(t, 1, 0);
  const ThreadLife life = threadLife(t, block, 0);
  std::vector<std::string> workspace;
  for (const LifePhase& p : life.phases)
    for (const LifeEntry& e : p.entries)
      if (e.kind >= LifeEntry::Kind::WorkspaceRead) workspace.push_back(e.text());
  EXPECT_EQ(workspace, (std::vector<std::string>{"write workspace[2048..2051]", "write workspace[2560..2563]",
                                                 "write workspace[3072..3075]", "write workspace[3584..3587]",
                                                 "publish flag[128] = 1", "wait flag[0] (saw 1)", "read workspace[0..3]",
                                                 "read workspace[512..515]", "read workspace[1024..1027]",
                                                 "read workspace[1536..1539]"}));
  // Five k tiles of 2 k steps of 4 x 4 x 4 = 64 multiply-adds: 640.
  EXPECT_EQ(life.products, 640);
}

// What the Matrices legend counts: the copy engine's boxes are loads from global memory. The
// 64^3 launch has 1 x 2 blocks of 32 x 64: each copies its 32 rows of M once over its 8 k
// tiles and all of N once, so at the end every element of M has come once, every one of N twice.
TEST_F(RingLife, CopiesCountAsLoadsOfEveryElementOfTheirBox) {
  const LoadIndex loads = LoadIndex::build(t);
  const std::vector<uint32_t> m = loads.mCounts(t.end()), n = loads.nCounts(t.end());
  ASSERT_EQ(m.size(), 64u * 64u);
  EXPECT_EQ(std::count(m.begin(), m.end(), 1u), 64 * 64);
  EXPECT_EQ(std::count(n.begin(), n.end(), 2u), 64 * 64);
  const std::vector<uint32_t> none = loads.mCounts(t.begin());
  EXPECT_EQ(std::count(none.begin(), none.end(), 0u), 64 * 64);
}

// Rung 10: a lane's part of each mma.sync is one entry naming its fragments, never a load of
// M(-1,-1). Lane 5 is group 5 / 4 = 1, thread 5 % 4 = 1 in it; the PTX ISA's m16n8k8 TF32
// tables give it A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4], B[t][g], B[t+4][g] and the sums
// C[g][2t], C[g][2t+1], C[g+8][2t], C[g+8][2t+1]. At 32^3 with BK = 8 there are 4 phases of
// one 8-deep k step, and warp 0's 16 x 16 tile is two 16 x 8 MMAs: 8 entries.
TEST(ThreadLife, ALaneOfAWarpMmaHoldsItsFragments) {
  LaunchConfig config = testing::launchConfig(KernelId::MmaTf32, {32, 32, 32}, 0, 3);
  config.tiling = {32, 32, 8, 16, 16, 2, 4};
  const tilescope::Run run = testing::runEmulated(config, true);
  const Timeline t = Timeline::build(*run.trace);
  const ThreadLife life = threadLife(t, BlockTimeline::build(t, 0, 0), 5);
  std::vector<std::string> mmas;
  for (const LifePhase& p : life.phases)
    for (const LifeEntry& e : p.entries) {
      EXPECT_EQ(e.text().find("(-1"), std::string::npos) << e.text();
      if (e.kind == LifeEntry::Kind::Mma) mmas.push_back(e.text());
    }
  ASSERT_EQ(mmas.size(), 8u);
  // Rows 1 and 9 by columns 1 and 5 of A; rows 1 and 5, column 1 of B; rows 1 and 9 by columns 2, 3 of the sums.
  EXPECT_EQ(mmas.front(), "mma A[1,9][1,5] x B[1,5][1] -> C[1,9][2,3]");
}

// Rung 11: a warpgroup MMA reads A and B from shared memory, so a lane records only its sums,
// and only once, after the last MMA (while a group is in flight no thread may read them): one
// entry, none lost and none named M(-1,-1). Lesson 21's launch: 64^3 at 64x32x32/16x32/2x8.
TEST(ThreadLife, AWarpgroupMmaRecordsItsSumsOnceAfterTheLastGroup) {
  LaunchConfig config = testing::launchConfig(KernelId::WgmmaTf32, {64, 64, 64}, 0, 3);
  config.tiling = {64, 32, 32, 16, 32, 2, 8};
  const tilescope::Run run = testing::runEmulated(config, true);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline block = BlockTimeline::build(t, 0, 0);
  const ThreadLife life = threadLife(t, block, 0);
  std::size_t sums = 0, entries = 0;
  for (const LifePhase& p : life.phases)
    for (const LifeEntry& e : p.entries) {
      EXPECT_EQ(e.text().find("(-1"), std::string::npos) << e.text();
      if (e.kind != LifeEntry::Kind::Mma) continue;
      ++entries;
      sums += e.fragmentC.size();
      EXPECT_TRUE(e.fragmentA.empty() && e.fragmentB.empty()) << e.text();
      const std::set<std::pair<int, int>> distinct(e.fragmentC.begin(), e.fragmentC.end());
      EXPECT_EQ(distinct.size(), e.fragmentC.size()) << e.text();
    }
  std::size_t recorded = 0;  // thread 0's accumulator elements in the trace, every step
  for (int s = 0; s < t.steps(); ++s)
    for (uint32_t i : block.stepEvents(s))
      recorded += t.trace().events[i].op == Op::MmaC && linearThread(t.trace().events[i], t.trace().launch.blockX) == 0;
  EXPECT_EQ(entries, 1u);
  EXPECT_EQ(sums, 16u);  // 64 x 32 sums over 128 threads
  EXPECT_EQ(sums, recorded);
}

}  // namespace
}  // namespace tilescope
