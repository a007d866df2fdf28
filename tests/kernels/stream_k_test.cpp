// Rung 9 (kernels/ladder/stream_k.cuh) on the emulator, and its selector (its Facts::schedule, asked through app/core/run/launch_door.h).
// P against the double-precision reference at sizes that are no multiple of its tiles, on
// grids that split tiles among blocks; the trace counted by hand: the copies per iteration a
// block owns, each partial left in the workspace, each flag published and each finisher's wait
// on it; and
// the selector's choice at the sizes of the issue, counted by hand in waves of 132 SMs.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

#include "core/analysis/coalescing.h"
#include "core/analysis/traffic.h"
#include "core/run/bounds_report.h"
#include "core/run/run.h"
#include "core/run/trace_accounts.h"
#include "core/run/launch_door.h"
#include "core/trace/trace.h"
#include "kernels/kernel_sources.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::runEmulated;

constexpr Tiling kTeaching{32, 64, 8, 16, 32, 4, 4};   // 128 consumers, 3 stages
constexpr Tiling kH100{128, 256, 32, 64, 64, 8, 16};   // 256 consumers, 4 stages
constexpr Tiling kHalf{128, 128, 32, 64, 64, 8, 16};   // 128 consumers, 4 stages

LaunchConfig streamK(Dims dims, Tiling tiling, int blocks, uint64_t seed) {
  LaunchConfig c = testing::launchConfig(KernelId::StreamK, dims, 0, seed);
  c.tiling = tiling;
  c.persistentBlocks = blocks;
  return c;
}

// The line of the kernel file that holds `text` (the first), 0 if none.
int lineOf(std::string_view text) {
  const std::string_view source = *kernelSource(KernelId::StreamK);
  const std::size_t at = source.find(text);
  if (at == std::string_view::npos) return 0;
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += source[i] == '\n';
  return line;
}

struct Case {
  Dims dims;
  Tiling tiling;
  int blocks;
};

class StreamKMatchesReference : public ::testing::TestWithParam<Case> {};

TEST_P(StreamKMatchesReference, OnRandomInputs) {
  const Case& c = GetParam();
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (bool traced : {false, true}) {
    SCOPED_TRACE(traced ? "traced" : "plain");
    const tilescope::Run run = runEmulated(streamK(c.dims, c.tiling, c.blocks, seed), traced);
    EXPECT_TRUE(run.verification.passed) << run.verification.summary();
    EXPECT_EQ(run.verification.checked, long(c.dims.j) * c.dims.l) << "every element must be checked";
    EXPECT_EQ(run.verification.nonFinite, 0);
    EXPECT_EQ(run.outcome.outOfBoundsTotal, 0u);
    EXPECT_TRUE(run.outcome.divergences.empty());
  }
}

// k and l multiples of 4; grids that split tiles two, three and many ways, and one per tile;
// 97 x 200 x 132 on 5 blocks: 12 tiles x 25 k-steps, 60 a block (a long share: the launch
// takes the build whose inner loop is unrolled by 2).
INSTANTIATE_TEST_SUITE_P(
    NonMultipleSizes, StreamKMatchesReference,
    ::testing::Values(Case{{40, 20, 68}, kTeaching, 0}, Case{{40, 20, 68}, kTeaching, 5},
                      Case{{70, 132, 36}, kTeaching, 3}, Case{{70, 132, 36}, kTeaching, 7},
                      Case{{37, 44, 100}, kTeaching, 11}, Case{{1, 4, 4}, kTeaching, 1},
                      Case{{33, 28, 100}, kTeaching, 60}, Case{{97, 20, 132}, kTeaching, 5},
                      Case{{97, 20, 132}, kTeaching, 4}, Case{{97, 200, 132}, kTeaching, 5}),
    [](const ::testing::TestParamInfo<Case>& info) {
      const Case& c = info.param;
      return "dims_" + std::to_string(c.dims.j) + "x" + std::to_string(c.dims.k) + "x" + std::to_string(c.dims.l) +
             "_grid" + std::to_string(c.blocks);
    });

// 37 x 32 x 24 at 32 x 64 tiles: 2 tiles (rows 0..31 and 32..36) of 4 k-steps, 8 iterations.
// 3 blocks take [0, 2), [2, 5), [5, 8): block 0 leaves tile 0's first two steps as a partial;
// block 1 leaves tile 1's first step, then finishes tile 0 (its first segment, walked last)
// with block 0's partial; block 2 finishes tile 1 with block 1's partial. Each of the 128
// consumer threads of a block that leaves a partial publishes its own flag (generation 1, the
// emulator's launch), and each finisher thread waits once for the flag of the same thread of
// the one earlier block it adds.
TEST(StreamK, TraceHasEachPartialFlagAndWaitByHandCount) {
  const tilescope::Run run = runEmulated(streamK({37, 32, 24}, kTeaching, 3, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  const int partialWrite = lineOf("*reinterpret_cast<float4*>(&partials[((long long)blockIdx.x");
  const int partialRead = lineOf("float4 v = *reinterpret_cast<float4*>(&partials[");
  const int publish = lineOf("publishRelease(&flags[");
  const int wait = lineOf("waitAcquire(&flags[");
  ASSERT_TRUE(partialWrite && partialRead && publish && wait);
  std::map<int, std::map<int, int>> atLine;  // line -> block -> events
  int copies[3] = {};
  for (const Event& e : run.trace->events) {
    if (e.op == Op::CopyM || e.op == Op::CopyN) ++copies[e.blockX];
    if (e.line == partialWrite || e.line == partialRead || e.line == publish || e.line == wait) ++atLine[e.line][e.blockX];
    if (e.line == publish || e.line == wait) {
      EXPECT_EQ(e.value, 1.0f) << "the launch's generation, published and seen";
    }
  }
  EXPECT_EQ(copies[0], 2 * 2);
  EXPECT_EQ(copies[1], 3 * 2);
  EXPECT_EQ(copies[2], 3 * 2) << "a tile of M and one of N per iteration a block owns";
  // 4 x 4 sums per consumer thread: 4 float4 writes each, 128 threads.
  EXPECT_EQ((atLine[partialWrite]), (std::map<int, int>{{0, 4 * 128}, {1, 4 * 128}}));
  EXPECT_EQ((atLine[publish]), (std::map<int, int>{{0, 128}, {1, 128}}));
  EXPECT_EQ((atLine[wait]), (std::map<int, int>{{1, 128}, {2, 128}}));
  EXPECT_EQ((atLine[partialRead]), (std::map<int, int>{{1, 4 * 128}, {2, 4 * 128}}));
}

// The same 8 iterations on 8 blocks, one each: tile 0 is blocks 0..3, tile 1 blocks 4..7.
// Blocks 0, 1, 2 and 4, 5, 6 leave partials and publish their flags; block 3 finishes tile 0
// and block 7 tile 1, each adding 3 earlier partials: thread t waits for flag t of each of
// the 3 blocks (3 x 128 waits), then reads their 4 float4s (3 x 4 x 128 reads). Flag t of
// block b is element b x 128 + t.
TEST(StreamK, AFinisherWaitsForEachEarlierBlocksFlagThreadByThread) {
  const tilescope::Run run = runEmulated(streamK({37, 32, 24}, kTeaching, 8, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  const int publish = lineOf("publishRelease(&flags[");
  const int wait = lineOf("waitAcquire(&flags[");
  const int partialRead = lineOf("float4 v = *reinterpret_cast<float4*>(&partials[");
  std::map<int, int> publishes, waits, reads;  // block -> events
  std::map<int, std::set<int>> waitedFlags;     // block -> flag elements
  for (const Event& e : run.trace->events) {
    if (e.line == publish) {
      ++publishes[e.blockX];
      EXPECT_EQ(e.globalCol, e.blockX * 128 + e.threadX) << "a thread publishes its own flag";
    }
    if (e.line == wait) {
      ++waits[e.blockX];
      EXPECT_TRUE(waitedFlags[e.blockX].insert(e.globalCol).second) << "each flag awaited once";
      EXPECT_EQ(e.globalCol % 128, e.threadX) << "thread t waits for the flag of thread t";
      EXPECT_EQ(e.value, 1.0f);
    }
    if (e.line == partialRead) ++reads[e.blockX];
  }
  EXPECT_EQ(publishes, (std::map<int, int>{{0, 128}, {1, 128}, {2, 128}, {4, 128}, {5, 128}, {6, 128}}));
  EXPECT_EQ(waits, (std::map<int, int>{{3, 3 * 128}, {7, 3 * 128}}));
  EXPECT_EQ(reads, (std::map<int, int>{{3, 3 * 4 * 128}, {7, 3 * 4 * 128}}));
  std::set<int> blocks0to2, blocks4to6;
  for (int i = 0; i < 3 * 128; ++i) blocks0to2.insert(i), blocks4to6.insert(4 * 128 + i);
  EXPECT_EQ(waitedFlags[3], blocks0to2);
  EXPECT_EQ(waitedFlags[7], blocks4to6);
}

// The same split grid: the workspace is an array of its own (load_w, store_w), not M or P.
// Block 0 leaves its partial (4 float4 per consumer, slot 0: elements 0..2047) and publishes
// its 128 threads' flags (elements 0..127 of the flags); block 1 leaves its own (slot 1:
// 2048..4095) and publishes flags 128..255, then reads slot 0 after waiting on flags 0..127;
// block 2 reads slot 1 after waiting on flags 128..255.
TEST(StreamK, WorkspaceAccessesAreNeitherMNorPAndTheTraceAccountsForP) {
  const tilescope::Run run = runEmulated(streamK({37, 32, 24}, kTeaching, 3, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  std::map<int, std::set<int>> written, read;      // block -> partial elements (float4s)
  std::map<int, std::set<int>> published, waited;  // block -> flags
  int threadLoads = 0;
  for (const Event& e : run.trace->events) {
    threadLoads += e.op == Op::LoadM || e.op == Op::LoadN;
    if (e.op != Op::LoadW && e.op != Op::StoreW) continue;
    EXPECT_EQ(e.globalRow, 0);
    EXPECT_TRUE(inBounds(e));
    EXPECT_EQ(e.sharedRow, -1) << "a workspace read goes into registers, never a tile";
    auto& partials = e.op == Op::StoreW ? written : read;
    auto& flags = e.op == Op::StoreW ? published : waited;
    if (e.flags & kWide)
      for (int i = 0; i < 4; ++i) EXPECT_TRUE(partials[e.blockX].insert(e.globalCol + i).second);
    else EXPECT_TRUE(flags[e.blockX].insert(e.globalCol).second);
  }
  EXPECT_EQ(threadLoads, 0) << "the copy engine loads the tiles; no thread loads M or N";
  auto range = [](int from, int to) {
    std::set<int> s;
    for (int i = from; i < to; ++i) s.insert(i);
    return s;
  };
  EXPECT_EQ(written, (std::map<int, std::set<int>>{{0, range(0, 2048)}, {1, range(2048, 4096)}}));
  EXPECT_EQ(read, (std::map<int, std::set<int>>{{1, range(0, 2048)}, {2, range(2048, 4096)}}));
  EXPECT_EQ(published, (std::map<int, std::set<int>>{{0, range(0, 128)}, {1, range(128, 256)}}));
  EXPECT_EQ(waited, (std::map<int, std::set<int>>{{1, range(0, 128)}, {2, range(128, 256)}}));

  EXPECT_TRUE(findBoundsViolations(*run.trace).empty());
  // No thread's request is of M or N; the bytes read are the copies': M once (37 x 32 floats),
  // N once per tile row (2 x 32 x 24); the bytes stored are P's (37 x 24).
  const CoalescingReport coalescing = analyzeCoalescing(*run.trace);
  EXPECT_EQ(coalescing.loadsM.requests, 0u);
  EXPECT_EQ(coalescing.loadsN.requests, 0u);
  EXPECT_EQ(coalescing.loads.requests, 0u);
  EXPECT_EQ(coalescing.stores.bytesUsed, uint64_t(37 * 24) * 4) << "each element of P stored once, nothing else";
  const Traffic traffic = measureTraffic(*run.trace, coalescing);
  EXPECT_EQ(traffic.loadBytes, uint64_t(37 * 32 + 2 * 32 * 24) * 4);
  EXPECT_EQ(traffic.storeBytes, uint64_t(37 * 24) * 4);

  // Every P element is accounted for by its store. A thread that touched the workspace has its
  // products skipped (trace_accounts.h: its sum went to, or came from, another block's thread).
  const TraceAccounting a = accountForP(*run.trace, run.m, run.n, run.p);
  EXPECT_FALSE(a.problem) << *a.problem;
  EXPECT_GT(a.threadsSkipped, 0);
}

// One block per tile (no grid asked): no tile is split, nothing goes through the workspace.
TEST(StreamK, DataParallelGridLeavesNoPartial) {
  const tilescope::Run run = runEmulated(streamK({37, 32, 24}, kTeaching, 0, freshSeed()), true);
  ASSERT_TRUE(run.trace);
  EXPECT_EQ(run.plan.launch.gridX * run.plan.launch.gridY, 2u);
  const int publish = lineOf("publishRelease(&flags[");
  ASSERT_NE(publish, 0);
  for (const Event& e : run.trace->events) {
    EXPECT_NE(e.line, publish);
    EXPECT_NE(e.op, Op::LoadW);
    EXPECT_NE(e.op, Op::StoreW);
  }
}

// One block per tile is rung 8's work, access for access: the same copies of the same boxes
// into the same slots, the same shared reads by the same threads, the same mbarrier steps and
// the same stores of the same values (only the lines, each file's own, and the grid's shape,
// rung 9's one-dimensional, differ). 70 x 132 x 100 at 32 x 64 tiles: 3 x 2 tiles, edges cut.
TEST(StreamK, OneBlockPerTileDoesRung8sAccessesExactly) {
  const uint64_t seed = freshSeed();
  const Dims dims{70, 132, 100};
  LaunchConfig eight = testing::launchConfig(KernelId::TmaPipeline, dims, 0, seed);
  eight.tiling = kTeaching;
  const tilescope::Run r8 = runEmulated(eight, true), r9 = runEmulated(streamK(dims, kTeaching, 0, seed), true);
  ASSERT_TRUE(r8.trace && r9.trace);
  EXPECT_EQ(r9.plan.launch.gridX * r9.plan.launch.gridY, 6u);
  using Key = std::tuple<int, int, int, int, int, int, int, int, uint32_t>;
  auto accesses = [](const Trace& t) {
    std::multiset<Key> out;
    for (const Event& e : t.events)
      if (e.op != Op::Barrier)  // a barrier's fields hold its clock, which the block order sets
        out.insert({int(e.op), e.flags, e.threadX, e.globalRow, e.globalCol, e.sharedRow, e.sharedCol, e.k,
                    std::bit_cast<uint32_t>(e.value)});
    return out;
  };
  const std::multiset<Key> a8 = accesses(*r8.trace), a9 = accesses(*r9.trace);
  EXPECT_EQ(a8.size(), a9.size());
  EXPECT_TRUE(a8 == a9) << "rung 9 at one block per tile must do rung 8's accesses";
  EXPECT_TRUE(r9.verification.passed) << r9.verification.summary();
}

// ---- the selector, on the H100 profile (132 SMs; rung 9's tilings fit one block per SM) ----
// The shapes of `bench --preset sizes`, each choice counted by hand (the measurements that
// chose the rule: Facts::schedule in kernels/ladder/stream_k.cuh), asked through the one door
// (core/run/launch_door.h) as every caller asks. Every choice is at the large tiling.
KernelSchedule choiceOn(const char* profile, Dims d) {
  LaunchConfig c;
  c.kernel = KernelId::StreamK;
  c.dims = d;
  auto planned = planLaunchOn(c, *profileByName(profile));
  EXPECT_TRUE(planned.ok() && planned->kernelChoice.has_value());
  EXPECT_TRUE(planned->followsKernelChoice);
  EXPECT_EQ(planned->config.persistentBlocks, int(planned->kernelChoice->persistentBlocks));
  return *planned->kernelChoice;
}
KernelSchedule onH100(Dims d) { return choiceOn("h100", d); }

TEST(StreamKSelector, AtN1024FourBlocksToEachTileAtTheLargeTile) {
  // 128 x 256: 8 x 4 = 32 tiles, 24 % of one wave of 132. 132 / 32 = 4 blocks to a tile (32
  // k-steps / 4 = 8 each, at least kMinShare): 128 blocks, 128 / 132 = 97 % of the wave, 1024
  // iterations / 128 = 8.0 each, every block inside one tile.
  const KernelSchedule c = onH100({1024, 1024, 1024});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 128u);
  EXPECT_NE(c.reason.find("stream-K over 128 blocks (8.0 k-iterations each of 1024), 4 to a tile"), std::string::npos)
      << c.reason;
  EXPECT_NE(c.reason.find("32 tiles fill 24 % of one wave of 132; 4 blocks to a tile fill 97 % of it"),
            std::string::npos)
      << c.reason;
}

TEST(StreamKSelector, AnEvenSplitThatLeavesTheWaveUnderNinetyPercentIsNotTaken) {
  // 1280 x 1024 x 1280: 10 x 5 = 50 tiles (38 %); 132 / 50 = 2 to a tile is 100 blocks, 76 %
  // of the wave: stream-K over all 132 (50 x 32 = 1600 iterations, 12.1 each).
  const KernelSchedule c = onH100({1280, 1024, 1280});
  EXPECT_EQ(c.persistentBlocks, 132u);
  EXPECT_NE(c.reason.find("(12.1 k-iterations each of 1600): 50 tiles fill 38 % of one wave of 132"),
            std::string::npos)
      << c.reason;
  // 1280 x 1024 x 1024: 10 x 4 = 40 tiles; 3 to a tile is 120 blocks, 91 %: taken.
  const KernelSchedule three = onH100({1280, 1024, 1024});
  EXPECT_EQ(three.persistentBlocks, 120u);
  EXPECT_NE(three.reason.find("3 blocks to a tile fill 91 % of it"), std::string::npos) << three.reason;
}

TEST(StreamKSelector, AtN1536StreamKAtTheLargeTileNotTheHalf) {
  // 12 x 6 = 72 tiles: 55 % of one wave. The half tiling lost here (51.5 % of cuBLAS against
  // rung 8's 71.0 %); the large tile's 72 x 48 = 3456 iterations over 132 blocks: 26.2 each.
  const KernelSchedule c = onH100({1536, 1536, 1536});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 132u);
  EXPECT_NE(c.reason.find("(26.2 k-iterations each of 3456)"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("72 tiles fill 55 % of one wave of 132"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, AtN2048OneWaveOfTheLargeTileIsBusyEnough) {
  // 16 x 8 = 128 tiles on 132 SMs: 97 % of one wave.
  const KernelSchedule c = onH100({2048, 2048, 2048});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 0u);
  EXPECT_NE(c.reason.find("128 tiles fill 97 % of one wave of 132"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, AtN3000ATailOfManyWavesGoesStreamK) {
  // 24 x 12 = 288 tiles (3000 / 128 = 23.4, 3000 / 256 = 11.7), 2.18 waves, 3 started:
  // 288 / 396 = 73 %: stream-K over 132 blocks of 288 x 94 / 132 = 205.1 k-iterations.
  const KernelSchedule c = onH100({3000, 3000, 3000});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 132u);
  EXPECT_NE(c.reason.find("of " + std::to_string(288 * 94) + ")"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("288 tiles make 2.18 waves of 132, 73 % busy"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, AtN4096DataParallelSinceTheWavesAre97PercentBusy) {
  // 32 x 16 = 512 tiles: 3.88 waves of 132, 4 started: 512 / 528 = 97 %.
  const KernelSchedule c = onH100({4096, 4096, 4096});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 0u);
  EXPECT_NE(c.reason.find("512 tiles make 3.88 waves of 132, 97 % busy"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, AtN5000EightySevenPercentBusyIsUnderTheThreshold) {
  // 40 x 20 = 800 tiles (5000 / 128 = 39.1, 5000 / 256 = 19.5): 6.06 waves, 7 started:
  // 800 / 924 = 87 % < 90 %: stream-K, 800 x 157 = 125600 iterations, 951.5 per block.
  const KernelSchedule c = onH100({5000, 5000, 5000});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 132u);
  EXPECT_NE(c.reason.find("of " + std::to_string(800 * 157) + ")"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("800 tiles make 6.06 waves of 132, 87 % busy"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, AtN6144And8192DataParallel) {
  // 48 x 24 = 1152 tiles: 8.73 waves, 9 started: 1152 / 1188 = 97 %. 64 x 32 = 2048 tiles:
  // 15.52 waves, 16 started: 2048 / 2112 = 97 %.
  const KernelSchedule c6 = onH100({6144, 6144, 6144});
  EXPECT_EQ(c6.tiling, kH100);
  EXPECT_EQ(c6.persistentBlocks, 0u);
  EXPECT_NE(c6.reason.find("1152 tiles make 8.73 waves of 132, 97 % busy"), std::string::npos) << c6.reason;
  const KernelSchedule c8 = onH100({8192, 8192, 8192});
  EXPECT_EQ(c8.tiling, kH100);
  EXPECT_EQ(c8.persistentBlocks, 0u);
  EXPECT_NE(c8.reason.find("2048 tiles make 15.52 waves of 132, 97 % busy"), std::string::npos) << c8.reason;
}

TEST(StreamKSelector, ShortKLeavesTheTilesAsTheyAre) {
  // 8192 x 1024 x 8192: the same 2048 tiles of P as at 8192^3, a 32-step k: data-parallel.
  const KernelSchedule c = onH100({8192, 1024, 8192});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 0u);
  EXPECT_NE(c.reason.find("2048 tiles make 15.52 waves of 132, 97 % busy"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, TooFewKIterationsToShareStayOneBlockPerTile) {
  // 131 x 68 x 260: 2 x 2 tiles of 128 x 256 (3 % of a wave) with 3 k-steps each: 12
  // iterations, at most 12 / 4 = 3 blocks of 4, fewer than the 4 tiles.
  const KernelSchedule c = onH100({131, 68, 260});
  EXPECT_EQ(c.tiling, kH100);
  EXPECT_EQ(c.persistentBlocks, 0u);
  EXPECT_NE(c.reason.find("12 k-iterations are too few to share in runs of 4"), std::string::npos) << c.reason;
}

TEST(StreamKSelector, TheHalfTileWhereTheLargeRingDoesNotFit) {
  // The A100's SMs hold 164 KiB of shared memory: the large tiling's 4 stages of
  // (128 x 32 + 32 x 256) floats are 192 KiB, the half's (128 x 32 + 32 x 128) 128 KiB.
  // N = 1024 at 128 x 128: 64 tiles on 108 SMs (59 %): stream-K, 64 x 32 = 2048 iterations.
  const KernelSchedule c = choiceOn("a100", {1024, 1024, 1024});
  EXPECT_EQ(c.tiling, kHalf);
  EXPECT_EQ(c.persistentBlocks, 108u);
  EXPECT_NE(c.reason.find("does not fit an SM of this device"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("64 tiles fill 59 % of one wave of 108"), std::string::npos) << c.reason;
}

}  // namespace
}  // namespace tilescope
