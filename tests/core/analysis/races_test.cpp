// Races: accesses to one shared address by two threads in one barrier interval, at least
// one a write. The two no-sync kernels lose one barrier of fig. 5.9 each; the detector
// must name exactly that dependence, and find nothing in the kernels that keep both.
#include <gtest/gtest.h>

#include "analysis_support.h"
#include "core/analysis/races.h"

namespace tilescope {
namespace {

using analysis_testing::config;
using analysis_testing::traced;

// The source line of the first event with op `op` (lines are read from the trace, so
// editing a kernel's comments does not break the test).
int lineOf(const Trace& t, Op op) {
  for (const Event& e : t.events)
    if (e.op == op && !zeroFilled(e)) return e.line;
  return -1;
}

TEST(Races, EveryCorrectKernel_NoHazards) {
  const LaunchConfig configs[] = {
      config(KernelId::Naive, {20, 30, 10}, 0, 7, 3),
      config(KernelId::Tiled, {32, 48, 16}, 8),
      config(KernelId::Tiled, {32, 32, 32}, 16),
      config(KernelId::TiledBounds, {33, 17, 9}, 4),
      config(KernelId::TiledDynamic, {20, 20, 20}, 6),
      config(KernelId::TiledTransposed, {33, 40, 20}, 8, 16, 16, 0),
      config(KernelId::TiledTransposed, {33, 40, 20}, 8, 16, 16, 1),
      config(KernelId::TiledRect, {24, 40, 24}, 0, 16, 8),
      config(KernelId::TiledRect, {24, 40, 24}, 0, 8, 16),
      // Bug gallery kernels whose bug is not a race (README.md, "Memory-access analysis"):
      config(KernelId::BugSyncInK, {16, 16, 16}, 4),  // extra barriers: slow, race-free
      config(KernelId::BugKTypo, {16, 16, 16}, 4),    // reads only its own slots
  };
  for (const LaunchConfig& c : configs) {
    SCOPED_TRACE(describe(c));
    const tilescope::Run run = traced(c);
    const auto hazards = findHazards(*run.trace);
    EXPECT_TRUE(hazards.empty()) << hazards.size() << " groups, the first " << hazardName(hazards.front().type);
  }
}

// 16x24x16 at T = 8: 2x2 blocks, 3 phases. Without the first barrier each phase is one
// barrier interval in which thread (tx, ty) writes Mds[ty][tx] and Nds[ty][tx] and then
// reads a row of Mds and a column of Nds: read-after-write on every slot, by the T - 1
// other threads of its row (Mds) or column (Nds).
TEST(Races, TiledNoFirstSync_T8_dims_16x24x16_ReadAfterWriteInEveryPhase) {
  const tilescope::Run run = traced(config(KernelId::TiledNoFirstSync, {16, 24, 16}, 8));
  const Trace& t = *run.trace;
  const auto hazards = findHazards(t);
  ASSERT_EQ(hazards.size(), 4u * 3 * 2);  // blocks x phases x {Mds, Nds}
  const int readLine = lineOf(t, Op::ReadM);
  for (const Hazard& h : hazards) {
    EXPECT_EQ(h.type, HazardType::ReadAfterWrite);
    EXPECT_TRUE(h.first.write);
    EXPECT_FALSE(h.second.write);
    EXPECT_EQ(h.first.line, lineOf(t, h.matrix == 'M' ? Op::LoadM : Op::LoadN));
    EXPECT_EQ(h.second.line, readLine);
    EXPECT_EQ(h.first.phase, h.second.phase);
    EXPECT_EQ(h.interval, h.phase());
    EXPECT_EQ(h.pairs, 64u * 7);  // 64 slots x 7 other readers
    EXPECT_NE(h.first.threadX * 100 + h.first.threadY, h.second.threadX * 100 + h.second.threadY);
  }
}

// Without the second barrier, phase p's k loop and phase p + 1's loads share an interval:
// write-after-read on every slot, in every phase but the last (nothing is loaded after it).
TEST(Races, TiledNoSecondSync_T8_dims_16x24x16_WriteAfterReadBetweenPhases) {
  const tilescope::Run run = traced(config(KernelId::TiledNoSecondSync, {16, 24, 16}, 8));
  const Trace& t = *run.trace;
  const auto hazards = findHazards(t);
  ASSERT_EQ(hazards.size(), 4u * 2 * 2);  // blocks x phases 0 and 1 x {Mds, Nds}
  for (const Hazard& h : hazards) {
    EXPECT_EQ(h.type, HazardType::WriteAfterRead);
    EXPECT_FALSE(h.first.write);
    EXPECT_TRUE(h.second.write);
    EXPECT_EQ(h.first.line, lineOf(t, Op::ReadM));
    EXPECT_EQ(h.second.line, lineOf(t, h.matrix == 'M' ? Op::LoadM : Op::LoadN));
    EXPECT_LT(h.phase(), 2);
    EXPECT_EQ(h.second.phase, h.first.phase + 1);
    EXPECT_EQ(h.pairs, 64u * 7);
  }
}

// The emulator runs a block's threads one at a time, each until its next barrier, in
// thread order: a deterministic schedule that makes both races visible in P.
//   no-first-sync: thread (0,0) loads its two slots and runs its whole k loop before
//   thread (1,0) has loaded anything in this phase, so it multiplies whatever the tiles
//   held (the previous phase's values, or an earlier block's): almost every P is wrong.
//   no-second-sync: after the first barrier thread (0,0) finishes its k loop and loads
//   the next phase's M and N elements into Mds[0][0] and Nds[0][0] before thread (1,0)
//   reads them for this phase. With a single phase (k = T) there is no next load, so
//   the result is right: the race needs k > T.
TEST(Races, RacingKernels_WrongProductOnTheEmulator) {
  EXPECT_FALSE(traced(config(KernelId::TiledNoFirstSync, {32, 32, 32}, 16)).verification.passed);
  EXPECT_FALSE(traced(config(KernelId::TiledNoSecondSync, {32, 32, 32}, 16)).verification.passed);
  const tilescope::Run onePhase = traced(config(KernelId::TiledNoSecondSync, {16, 16, 16}, 16));
  EXPECT_TRUE(onePhase.verification.passed);
  EXPECT_TRUE(findHazards(*onePhase.trace).empty());
}

// The bug gallery's bug-rect-index numbers threads ty * blockDim.y + tx: with a 16x8 block
// threads (8,0) and (0,1) both get slot 8 and both write it in the same interval, a
// write-after-write the detector names (compute-sanitizer's racecheck reported none on an
// H200: both threads store the same value; tests/fixtures/ncu/racecheck_h200.txt).
TEST(Races, BugRectIndex_Block16x8_WriteAfterWrite) {
  const tilescope::Run run = traced(config(KernelId::BugRectIndex, {32, 32, 32}, 0, 16, 8));
  const auto hazards = findHazards(*run.trace);
  ASSERT_FALSE(hazards.empty());
  for (const Hazard& h : hazards) {
    EXPECT_EQ(h.type, HazardType::WriteAfterWrite);
    EXPECT_EQ(h.first.line, h.second.line);
  }
}

// Hand-made trace of a 2-thread block (tiled, T = 2 layout): both threads write Mds[0][0]
// with no barrier between them (WAW); after a barrier, thread 1 reads it (safe).
TEST(Races, HandMadeTrace_WriteAfterWrite_ThenSafeAfterBarrier) {
  Trace t;
  t.launch.kernel = KernelId::Tiled;
  t.launch.tile = 2;
  t.launch.blockX = 2;
  t.launch.blockY = 1;
  auto ev = [](Op op, int tx, int line) {
    Event e{};
    e.op = op;
    e.flags = kInBounds;
    e.line = uint16_t(line);
    e.threadX = uint16_t(tx);
    e.k = -1;
    e.sharedRow = e.sharedCol = (op == Op::Barrier ? -1 : 0);
    return e;
  };
  t.events = {ev(Op::LoadM, 0, 10), ev(Op::Barrier, 0, 11), ev(Op::LoadM, 1, 10), ev(Op::Barrier, 1, 11),
              ev(Op::ReadM, 0, 12), ev(Op::ReadM, 1, 12)};
  const auto hazards = findHazards(t);
  ASSERT_EQ(hazards.size(), 1u);
  EXPECT_EQ(hazards[0].type, HazardType::WriteAfterWrite);
  EXPECT_EQ(hazards[0].interval, 0);
  EXPECT_EQ(hazards[0].first.line, 10);
  EXPECT_EQ(hazards[0].second.line, 10);
  EXPECT_EQ(hazards[0].pairs, 1u);
  EXPECT_EQ(hazardName(hazards[0].type), "WAW");
}

}  // namespace
}  // namespace tilescope
