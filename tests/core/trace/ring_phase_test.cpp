// The ring rule of kernels/trace/step_rules.h: a kernel that hands tiles over through mbarriers
// gets a phase per k tile that goes through its ring, each thread by what it did. Checked on
// hand-made event sequences and against counts worked by hand from the kernels' text
// (kernels/ladder/tma_pipeline.cuh, stream_k.cuh) at the teaching tiling 32x64x8/16x32/4x4:
//   consumers (32/16) * (64/32) * 32 = 128 (threads 0..127); the producer warpgroup 128..255,
//   whose thread 128 issues every copy; 3 stages; each k tile one wait on full[s], BK / 4 = 2 k
//   steps (a float4 of M per row of the thread tile, then the N rows of its four k: a new step
//   when the thread returns to M) of 4 + 4 reads each, one arrival on empty[s].
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <vector>

#include "kernels/trace/step_rules.h"
#include "test_support.h"

namespace tilescope {
namespace {

// ---- the rule on hand-made sequences ------------------------------------------------------

Event eventOf(Op op) {
  Event e{};
  e.op = op;
  e.sharedRow = e.sharedCol = -1;
  e.globalRow = e.globalCol = -1;
  return e;
}

// One thread's events through ThreadSteps in a single barrier interval of phase 0.
std::vector<Event> derived(std::vector<Op> ops) {
  BlockPhase block;
  ThreadSteps steps;
  steps.beginInterval(IntervalScan{}, block, false);
  std::vector<Event> out;
  for (unsigned i = 0; i < ops.size(); ++i) {
    out.push_back(eventOf(ops[i]));
    steps.derive(out.back(), i, block);
  }
  return out;
}

TEST(RingPhase, AConsumersWaitAfterItComputedStartsItsNextPhaseAndResetsK) {
  using enum Op;
  const auto e = derived(
      {MbarrierWait, ReadM, ReadN, ReadM, ReadN, MbarrierArrive, MbarrierWait, ReadM, ReadN, MbarrierArrive, StoreP});
  const int phase[] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
  const int k[] = {-1, 0, 0, 1, 1, -1, -1, 0, 0, -1, -1};
  for (std::size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(e[i].phase, phase[i]) << "event " << i;
    EXPECT_EQ(e[i].k, k[i]) << "event " << i;
  }
}

TEST(RingPhase, AProducersWaitAfterItCopiedStartsItsNextFill) {
  using enum Op;
  const auto e = derived({MbarrierWait, MbarrierArrive, CopyM, CopyN, MbarrierWait, MbarrierArrive, CopyM, CopyN});
  for (std::size_t i = 0; i < e.size(); ++i) EXPECT_EQ(e[i].phase, i < 4 ? 0 : 1) << "event " << i;
}

TEST(RingPhase, WaitsWithNoWorkBeforeThemAndArrivalsStartNothing) {
  using enum Op;
  const auto e = derived({MbarrierInit, MbarrierWait, MbarrierWait, MbarrierArrive, ReadM, ReadN, MbarrierArrive,
                          MbarrierArrive, LoadW, StoreW});
  for (std::size_t i = 0; i < e.size(); ++i) EXPECT_EQ(e[i].phase, 0) << "event " << i;
}

// ---- rung 8 --------------------------------------------------------------------------------

constexpr Tiling kTeaching{32, 64, 8, 16, 32, 4, 4};
constexpr int kConsumers = 128, kProducer = 128;

// Each thread's events of block b in program order (canonical order keeps it per thread).
std::map<int, std::vector<Event>> threadsOfBlock(const Trace& trace, int b) {
  std::map<int, std::vector<Event>> out;
  for (const Event& e : trace.events)
    if (e.blockX == b) out[int(e.threadX)].push_back(e);
  return out;
}

tilescope::Run runRing(KernelId kernel, Dims dims, int grid) {
  LaunchConfig c = testing::launchConfig(kernel, dims, 0, testing::freshSeed());
  c.tiling = kTeaching;
  c.persistentBlocks = grid;
  return testing::runEmulated(c, true);
}

// A consumer's phases: phase p begins with its wait on full[p % 3] (phase 0 with the barrier
// before it), holds 2 k steps of 8 reads and ends with its arrival on empty[p % 3].
void expectConsumerPhases(const std::vector<Event>& events, int phases, int thread) {
  std::vector<std::array<int, 2>> reads(std::size_t(phases), {0, 0});
  std::vector<int> waits(std::size_t(phases), 0), arrivals(std::size_t(phases), 0);
  int previous = 0;
  for (const Event& e : events) {
    ASSERT_GE(e.phase, 0);
    ASSERT_LT(e.phase, phases) << "thread " << thread;
    if (e.phase != previous) {
      EXPECT_EQ(e.phase, previous + 1) << "thread " << thread;
      EXPECT_EQ(e.op, Op::MbarrierWait) << "thread " << thread << " enters phase " << e.phase << " at its wait";
    }
    previous = e.phase;
    const auto p = std::size_t(e.phase);
    if (e.op == Op::MbarrierWait) ++waits[p];
    if (e.op == Op::MbarrierArrive) ++arrivals[p];
    if (e.op == Op::ReadM || e.op == Op::ReadN) {
      ASSERT_TRUE(e.k == 0 || e.k == 1) << "thread " << thread << " k " << e.k;
      ++reads[p][std::size_t(e.k)];
    } else {
      EXPECT_EQ(e.k, -1);
    }
  }
  for (int p = 0; p < phases; ++p) {
    EXPECT_EQ(waits[std::size_t(p)], 1) << "thread " << thread << " phase " << p;
    EXPECT_EQ(arrivals[std::size_t(p)], 1) << "thread " << thread << " phase " << p;
    EXPECT_EQ(reads[std::size_t(p)][0], 8) << "thread " << thread << " phase " << p;
    EXPECT_EQ(reads[std::size_t(p)][1], 8) << "thread " << thread << " phase " << p;
  }
}

// The producer's fill n is phase n: its wait on empty[n % 3], its expect_tx of 3072 bytes, its
// copies of the M box at (rowOf[n], 8 kTile[n]) and the N box at (8 kTile[n], 0).
void expectProducerFills(const std::vector<Event>& events, const std::vector<int>& tileRow,
                         const std::vector<int>& kTile) {
  const std::size_t fills = kTile.size();
  ASSERT_EQ(events.size(), 1 + 4 * fills) << "the barrier, then wait, arrival, 2 copies per fill";
  EXPECT_EQ(events[0].op, Op::Barrier);
  EXPECT_EQ(events[0].phase, 0);
  for (std::size_t n = 0; n < fills; ++n) {
    const Op ops[] = {Op::MbarrierWait, Op::MbarrierArrive, Op::CopyM, Op::CopyN};
    for (std::size_t i = 0; i < 4; ++i) {
      const Event& e = events[1 + 4 * n + i];
      EXPECT_EQ(e.op, ops[i]) << "fill " << n;
      EXPECT_EQ(e.phase, int(n)) << "fill " << n << " event " << i;
    }
    EXPECT_EQ(events[2 + 4 * n].value, 3072.0f) << "(32 x 8 + 8 x 64) floats";
    EXPECT_EQ(events[3 + 4 * n].globalRow, tileRow[n]) << "fill " << n;
    EXPECT_EQ(events[3 + 4 * n].globalCol, 8 * kTile[n]) << "fill " << n;
    EXPECT_EQ(events[4 + 4 * n].globalRow, 8 * kTile[n]) << "fill " << n;
  }
}

// k = 24 at BK = 8: 3 k tiles, one block (P is one 32 x 64 tile).
TEST(RingPhase, TmaPipelineHasAPhasePerKTileOfItsRing) {
  const tilescope::Run run = runRing(KernelId::TmaPipeline, {32, 24, 64}, 0);
  ASSERT_TRUE(run.trace && run.verification.passed) << run.verification.summary();
  auto threads = threadsOfBlock(*run.trace, 0);
  ASSERT_EQ(threads.size(), 256u);
  for (int t = 0; t < kConsumers; ++t) {
    expectConsumerPhases(threads[t], 3, t);
    for (const Event& e : threads[t]) {
      if (e.op == Op::StoreP) {
        EXPECT_EQ(e.phase, 2) << "the stores follow the last k tile";
      }
    }
  }
  expectProducerFills(threads[kProducer], {0, 0, 0}, {0, 1, 2});
  for (int t = kProducer + 1; t < 256; ++t) {
    ASSERT_EQ(threads[t].size(), 1u) << "the rest of the producer warpgroup only passes the barrier";
    EXPECT_EQ(threads[t][0].phase, 0);
  }
}

// ---- rung 9 --------------------------------------------------------------------------------

// 64^3: 2 tiles (rows 0 and 32) of 8 k tiles, 16 iterations on 3 blocks: block b takes
// [16b / 3, 16(b + 1) / 3) = [0, 5), [5, 10), [10, 16), walked from its second segment on and
// its first (a tile begun by an earlier block) last:
//   block 0: tile 0, k tiles 0..4 (leaves a partial);
//   block 1: tile 1, k tiles 0, 1 (leaves a partial), then tile 0, k tiles 5, 6, 7 (finishes it);
//   block 2: tile 1, k tiles 2..7 (finishes it).
// Each block's phases are the k tiles of its share, in the order it walks them: 5, 5, 6.
TEST(RingPhase, StreamKsBlocksHaveAPhasePerKTileOfTheirShare) {
  const tilescope::Run run = runRing(KernelId::StreamK, {64, 64, 64}, 3);
  ASSERT_TRUE(run.trace && run.verification.passed) << run.verification.summary();
  ASSERT_EQ(run.trace->launch.gridX, 3u);
  const std::vector<std::vector<int>> tileRow = {{0, 0, 0, 0, 0}, {32, 32, 0, 0, 0}, {32, 32, 32, 32, 32, 32}};
  const std::vector<std::vector<int>> kTile = {{0, 1, 2, 3, 4}, {0, 1, 5, 6, 7}, {2, 3, 4, 5, 6, 7}};
  // Where each block's segments end: its partial sums (StoreW) and its fix-up and store.
  const int partialPhase[] = {4, 1, -1}, storePhase[] = {-1, 4, 5};
  for (int b = 0; b < 3; ++b) {
    SCOPED_TRACE("block " + std::to_string(b));
    auto threads = threadsOfBlock(*run.trace, b);
    const int phases = int(kTile[std::size_t(b)].size());
    for (int t = 0; t < kConsumers; ++t) {
      expectConsumerPhases(threads[t], phases, t);
      for (const Event& e : threads[t]) {
        const int expected = e.op == Op::StoreW ? partialPhase[b] : storePhase[b];
        if (e.op == Op::StoreP || e.op == Op::StoreW || e.op == Op::LoadW) {
          EXPECT_EQ(e.phase, expected) << opName(e.op) << " (the finisher reads the partials it adds)";
        }
      }
    }
    expectProducerFills(threads[kProducer], tileRow[std::size_t(b)], kTile[std::size_t(b)]);
  }
}

}  // namespace
}  // namespace tilescope
