// Rung 8 (kernels/ladder/tma_pipeline.cuh) on the emulator: P against the double-precision reference
// at sizes that are not multiples of its tiles (the copy engine zero-fills what a box holds
// past the matrix's edge, and the emulator does exactly that), the launches a tensor map
// cannot describe refused, and its trace counted by hand: one copy event per tile with its
// box, slot and bytes, and every mbarrier's initialisation, arrivals and waits.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/analysis/bank_conflicts.h"
#include "core/analysis/coalescing.h"
#include "core/analysis/traffic.h"
#include "core/timeline/timeline.h"
#include "core/run/run.h"
#include "core/trace/trace.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::runEmulated;

constexpr Tiling kTeaching{32, 64, 8, 16, 32, 4, 4};      // 128 consumers, 3 stages
constexpr Tiling kH100{128, 256, 32, 64, 64, 8, 16};      // 256 consumers, 4 stages

LaunchConfig tmaConfig(Dims dims, Tiling tiling, uint64_t seed) {
  LaunchConfig c = testing::launchConfig(KernelId::TmaPipeline, dims, 0, seed);
  c.tiling = tiling;
  return c;
}

struct Case {
  Dims dims;
  Tiling tiling;
};

class TmaPipelineMatchesReference : public ::testing::TestWithParam<Case> {};

TEST_P(TmaPipelineMatchesReference, OnRandomInputs) {
  const Case& c = GetParam();
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "plain");
    const tilescope::Run run = runEmulated(tmaConfig(c.dims, c.tiling, seed), traced);
    EXPECT_TRUE(run.verification.passed) << run.verification.summary();
    EXPECT_EQ(run.verification.checked, long(c.dims.j) * c.dims.l) << "every element must be checked";
    EXPECT_EQ(run.verification.nonFinite, 0);
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
    EXPECT_TRUE(run.outcome.divergences.empty());
  }
}

// k and l multiples of 4 (a tensor map's row stride), nothing else a multiple of a tile.
INSTANTIATE_TEST_SUITE_P(
    NonMultipleSizes, TmaPipelineMatchesReference,
    ::testing::Values(Case{{40, 20, 68}, kTeaching}, Case{{1, 4, 4}, kTeaching}, Case{{37, 44, 100}, kTeaching},
                      Case{{70, 132, 36}, kTeaching}, Case{{131, 68, 260}, kH100}),
    [](const ::testing::TestParamInfo<Case>& info) {
      const Case& c = info.param;
      return (c.tiling == kH100 ? std::string("H100Tiling") : std::string("TeachingTiling")) + "_dims_" +
             std::to_string(c.dims.j) + "x" + std::to_string(c.dims.k) + "x" + std::to_string(c.dims.l);
    });

TEST(TmaPipeline, ARowStrideTheCopyEngineCannotTakeIsRefused) {
  auto backend = makeEmulatorBackend();
  auto run = executeRun(*backend, tmaConfig({33, 45, 20}, kTeaching, 1), false);
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().message.find("multiple of 16 bytes"), std::string::npos) << run.error().message;
}

// j = 40, k = 20, l = 68 at the teaching tiling: 2 x 2 blocks of 128 consumers and a
// producer warpgroup (threads 128..255, thread 128 issues), ceil(20 / 8) = 3 k tiles, 3 stages.
TEST(TmaPipeline, TraceHasOneCopyPerTileAndEveryMbarrierStepByHandCount) {
  const tilescope::Run run = runEmulated(tmaConfig({40, 20, 68}, kTeaching, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  std::map<Op, int> count;
  std::map<std::pair<Op, float>, int> byValue;
  int blockCopies[2][2] = {};
  for (const Event& e : run.trace->events) {
    ++count[e.op];
    if (e.op == Op::MbarrierInit || e.op == Op::MbarrierArrive || e.op == Op::MbarrierWait) ++byValue[{e.op, e.value}];
    if (e.op != Op::CopyM && e.op != Op::CopyN) continue;
    ++blockCopies[e.blockY][e.blockX];
    EXPECT_EQ(e.threadX, 128) << "the producer thread issues every copy";
    const int t = e.op == Op::CopyM ? e.globalCol / 8 : e.globalRow / 8;  // the k tile
    const int stage = t % 3;
    if (e.op == Op::CopyM) {  // box 8 wide, 32 high at (row of the block, k tile): 1024 bytes
      EXPECT_EQ(e.value, 32 * 8 * 4);
      EXPECT_EQ(e.globalRow, e.blockY * 32);
      EXPECT_EQ(e.sharedRow, stage * 32);  // Mds rows are 8 long: stage s starts at row 32 s
      const bool inside = e.blockY == 0 && t < 2;  // rows 32..63 and k 16..23 reach past 40 and 20
      EXPECT_EQ(e.flags, inside ? kInBounds : kZeroFill) << "tile " << t;
    } else {  // box 64 wide, 8 high at (k tile, column of the block): 2048 bytes
      EXPECT_EQ(e.value, 8 * 64 * 4);
      EXPECT_EQ(e.globalCol, e.blockX * 64);
      EXPECT_EQ(e.sharedRow, stage * 8);  // Nds rows are 64 long: stage s starts at row 8 s
      const bool inside = e.blockX == 0 && t < 2;
      EXPECT_EQ(e.flags, inside ? kInBounds : kZeroFill) << "tile " << t;
    }
    EXPECT_EQ(e.sharedCol, 0);
  }
  for (auto& row : blockCopies)
    for (int copies : row) EXPECT_EQ(copies, 6) << "3 tiles of M and 3 of N per block";
  EXPECT_EQ(count[Op::CopyM], 4 * 3);
  EXPECT_EQ(count[Op::CopyN], 4 * 3);
  // Per block: thread 0 initialises full[0..2] (1 arrival) and empty[0..2] (128 arrivals).
  EXPECT_EQ((byValue[{Op::MbarrierInit, 1.0f}]), 4 * 3);
  EXPECT_EQ((byValue[{Op::MbarrierInit, 128.0f}]), 4 * 3);
  // The producer announces 1024 + 2048 bytes per tile; each consumer arrives once per tile.
  EXPECT_EQ((byValue[{Op::MbarrierArrive, 3072.0f}]), 4 * 3);
  EXPECT_EQ((byValue[{Op::MbarrierArrive, 0.0f}]), 4 * 128 * 3);
  // The producer's 3 waits on empty[] pass on parity 1 (each stage's first round); the
  // consumers wait for parity 0 of full[] (each stage filled once).
  EXPECT_EQ((byValue[{Op::MbarrierWait, 1.0f}]), 4 * 3);
  EXPECT_EQ((byValue[{Op::MbarrierWait, 0.0f}]), 4 * 128 * 3);
  EXPECT_EQ(count[Op::Barrier], 4 * 256) << "one __syncthreads per thread, after the initialisation";
  EXPECT_EQ(count[Op::LoadM] + count[Op::LoadN], 0) << "no thread loads a tile";
}

// More k tiles than stages: the ring wraps, so the producer waits for parity 0 of empty[s]
// (the consumers' first release) and consumers for parity 1 of full[s] (its second filling).
TEST(TmaPipeline, TheRingWrapsWithAlternatingParities) {
  const tilescope::Run run = runEmulated(tmaConfig({32, 64, 64}, kTeaching, freshSeed()), true);  // 8 k tiles, 1 block
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  int producerWaits[2] = {}, consumerWaits[2] = {};
  for (const Event& e : run.trace->events) {
    if (e.op != Op::MbarrierWait) continue;
    (e.threadX == 128 ? producerWaits : consumerWaits)[int(e.value)]++;
  }
  // Tiles 0..7 in stages 0 1 2 0 1 2 0 1: parities (t / 3) % 2 = 0 0 0 1 1 1 0 0.
  EXPECT_EQ(consumerWaits[0], 128 * 5);
  EXPECT_EQ(consumerWaits[1], 128 * 3);
  EXPECT_EQ(producerWaits[1], 5);  // (t / 3 + 1) % 2
  EXPECT_EQ(producerWaits[0], 3);
}

// At the H100's tiling M's tile rows are 128 bytes (BK = 32), and the copy engine swizzles
// them: chunk c (four floats) of Mds row r lies at chunk c ^ (r % 8). A warp's float4 read of
// M takes eight consecutive rows at one k (its lanes are 8 rows x 4 columns), so swizzled the
// eight rows hit eight different chunks, 128 bytes in 32 banks: no conflict, where the same
// column of 128-byte rows would put all eight in banks 4c..4c+3 (7 extra wavefronts a quarter
// warp). The emulator's copy places the values by the hardware's address rule and the kernel
// reads by its own formula, so P verifying is itself a check that the two agree.
TEST(TmaPipeline, AtTheH100TilingMsTileIsSwizzledAndItsReadsAreConflictFree) {
  const tilescope::Run run = runEmulated(tmaConfig({128, 64, 256}, kH100, freshSeed()), true);  // one block, 2 k tiles
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  // Per consumer warp, its n-th read of M: the chunk read, un-swizzled by the row, is one k
  // quad for all its lanes, and the swizzled chunks are eight different ones.
  std::map<std::pair<int, int>, std::set<int>> quads, chunks;  // (warp, n) -> ...
  std::map<int, int> readsOfThread;
  int reads = 0;
  for (const Event& e : run.trace->events) {
    if (e.op != Op::ReadM) continue;
    ++reads;
    EXPECT_EQ(eventWidth(e.flags), 4);
    EXPECT_EQ(e.sharedCol % 4, 0) << "a float4 reads one whole chunk";
    const int warp = e.threadX / 32, n = readsOfThread[e.threadX]++;
    const int chunk = e.sharedCol / 4;
    chunks[{warp, n}].insert(chunk);
    quads[{warp, n}].insert(chunk ^ (e.sharedRow % 8));
  }
  EXPECT_EQ(reads, 256 * 2 * (32 / 4) * 8) << "256 consumers x 2 k tiles x 8 k quads x TM = 8 rows";
  for (const auto& [key, q] : quads) {
    EXPECT_EQ(q.size(), 1u) << "warp " << key.first << " read " << key.second;
    EXPECT_EQ(chunks[key].size(), 8u) << "warp " << key.first << " read " << key.second;
  }
  const BankReport banks = analyzeBankConflicts(*run.trace);
  uint64_t mReads = 0, extra = 0;
  for (const SharedRequest& r : banks.requests)
    if (r.request.op == Op::ReadM) ++mReads, extra += uint64_t(r.wavefronts - r.minimumWavefronts);
  EXPECT_EQ(mReads, 8u * 2 * 8 * 8) << "8 consumer warps x 2 k tiles x 8 k quads x 8 rows each";
  EXPECT_EQ(extra, 0u) << "swizzled, a warp's read of M is conflict-free";
}

// A float4 of M holds four k steps of one row here (Mds keeps M's rows), so a k step of the
// trace spans four k: the multiply-adds counted from the reads must still be j k l, whatever
// the tiling, in the analyses' FLOPs and in the timeline's counters (each read of M is one
// value for each of the four k its step's N reads cover, not four).
TEST(TmaPipeline, MultiplyAddsAreJklAtBothTilings) {
  for (const auto& [dims, tiling] : {std::pair{Dims{40, 20, 68}, kTeaching}, std::pair{Dims{128, 64, 256}, kH100}}) {
    const tilescope::Run run = runEmulated(tmaConfig(dims, tiling, freshSeed()), true);
    ASSERT_TRUE(run.trace);
    ASSERT_TRUE(run.verification.passed) << run.verification.summary();
    // k = 20 is no multiple of the teaching tiling's BK = 8: the zero-filled k 20..23 are read
    // and multiplied too, as the kernel does; count what the kernel computes, k rounded up.
    const uint64_t kDone = uint64_t((dims.k + tiling.bk - 1) / tiling.bk * tiling.bk);
    const uint64_t blocksJ = uint64_t((dims.j + tiling.bm - 1) / tiling.bm), blocksL = uint64_t((dims.l + tiling.bn - 1) / tiling.bn);
    const uint64_t products = blocksJ * tiling.bm * blocksL * tiling.bn * kDone;  // every thread's whole register tile
    const Traffic t = measureTraffic(*run.trace, analyzeCoalescing(*run.trace));
    EXPECT_EQ(t.flops, 2 * products) << dims.j << "x" << dims.k << "x" << dims.l;
    // The copy engine reads each block's rows of M and columns of N over all k once, nothing
    // past the matrix's edge: j x k of M per column of blocks, k x l of N per row of blocks.
    EXPECT_EQ(t.loadBytes, 4 * (uint64_t(dims.j) * dims.k * blocksL + uint64_t(dims.k) * dims.l * blocksJ));
    const Timeline tl = Timeline::build(*run.trace);
    EXPECT_EQ(tl.countersAt(tl.end()).fmas, products);
  }
}

}  // namespace
}  // namespace tilescope
