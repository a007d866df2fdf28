// A race drawn where it happens (app/core/timeline/raced_reads.h, timeline.h's real order):
// on the book's 4x4 example with T = 2, the emulator runs each thread of a block to its
// barrier before the next starts, so without the first barrier thread tx=0, ty=0 multiplies
// at k = 1 before tx=1, ty=0 and tx=0, ty=1 have loaded the slots it reads. Every count here
// is worked out by hand from fig. 5.9's index expressions (the comments give the reasoning).
#include <gtest/gtest.h>

#include <compare>
#include <set>

#include "core/run/run.h"
#include "core/timeline/cell_marks.h"
#include "core/timeline/thread_life.h"
#include "core/timeline/timeline.h"
#include "test_support.h"

namespace tilescope {
namespace {

tilescope::Run runBook(KernelId kernel) { return testing::runEmulated(testing::launchConfig(kernel, {4, 4, 4}, 2, 1, 16, 16), true); }

struct Who {
  int readerX, readerY, writerX, writerY;
  char tile;
  int row, col;
  auto operator<=>(const Who&) const = default;
};

std::set<Who> staleOfBlock0(const tilescope::Run& run, const Timeline& t, int interval) {
  std::set<Who> out;
  for (std::size_t i = 0; i < t.staleReads().size(); ++i) {
    const RacedRead& s = t.staleReads()[i];
    const Event& r = run.trace->events[s.readEvent];
    const Event& w = run.trace->events[s.writeEvent];
    if (r.blockX || r.blockY || t.step(t.staleStep(i)).interval != interval) continue;
    out.insert({r.threadX, r.threadY, w.threadX, w.threadY, r.op == Op::ReadN ? 'N' : 'M', r.sharedRow, r.sharedCol});
  }
  return out;
}

TEST(RaceOrder, CorrectKernelsStayInLockstepWithoutStaleReads) {
  const tilescope::Run run = runBook(KernelId::Tiled);
  const Timeline t = Timeline::build(*run.trace);
  EXPECT_FALSE(t.realOrder());
  EXPECT_TRUE(t.staleReads().empty());
  EXPECT_EQ(t.steps(), 11);
}

TEST(RaceOrder, NoFirstSyncRunsEachThreadToItsBarrier) {
  const tilescope::Run run = runBook(KernelId::TiledNoFirstSync);
  const Timeline t = Timeline::build(*run.trace);
  ASSERT_TRUE(t.realOrder());
  // Per thread: interval 0 (load, k0, k1, barrier), interval 1 (the same), interval 2 (store):
  // 4 + 4 + 1 steps for each of the block's 4 threads.
  EXPECT_EQ(t.steps(), 36);
  EXPECT_EQ(t.step(0).thread, 0);
  EXPECT_EQ(t.step(0).kind, StepKind::Load);
  EXPECT_EQ(t.step(2).k, 1);
  EXPECT_EQ(t.step(4).thread, 1);  // thread tx=1, ty=0 starts only after tx=0, ty=0's barrier
  EXPECT_EQ(t.stepLabel(2), "phase 0 \xc2\xb7 thread tx=0, ty=0 \xc2\xb7 k = 1");
  // "interval" steps one thread's run to its barrier.
  EXPECT_EQ(t.stepForward(t.begin(), Granularity::Interval), t.stepEnd(3));
  // Thread 0 waits at the barrier while the others run; all are released at the fourth arrival.
  const BlockTimeline b = BlockTimeline::build(t, 0, 0);
  EXPECT_EQ(b.threadState(t.stepEnd(5), 0), ThreadState::Waiting);
  EXPECT_EQ(b.barrierArrivals(t.stepEnd(7)), 2);
  EXPECT_EQ(b.threadState(t.stepEnd(15), 0), ThreadState::Released);
}

TEST(RaceOrder, PhaseZeroReadsBeforeTheNeighboursLoaded) {
  const tilescope::Run run = runBook(KernelId::TiledNoFirstSync);
  const Timeline t = Timeline::build(*run.trace);
  // Thread (tx, ty) reads Mds[ty][k] (written by tx'=k, ty) and Nds[k][tx] (written by tx, ty'=k).
  // tx=0,ty=0 runs first: at k=1 neither Mds[0][1] (tx=1,ty=0) nor Nds[1][0] (tx=0,ty=1) is
  // written. tx=1,ty=0: Nds[1][1] (tx=1,ty=1) not yet. tx=0,ty=1: Mds[1][1] (tx=1,ty=1) not yet.
  // tx=1,ty=1 runs last: everything it reads is written.
  const std::set<Who> expected = {{0, 0, 1, 0, 'M', 0, 1}, {0, 0, 0, 1, 'N', 1, 0}, {1, 0, 1, 1, 'N', 1, 1},
                                  {0, 1, 1, 1, 'M', 1, 1}};
  EXPECT_EQ(staleOfBlock0(run, t, 0), expected);
  EXPECT_EQ(staleOfBlock0(run, t, 1), expected);  // phase 1: the same reads see phase 0's tile
  EXPECT_EQ(t.staleReads().size(), 4u * 2u * 4u);  // 4 per phase, 2 phases, 4 blocks
  for (const RacedRead& s : t.staleReads()) EXPECT_FALSE(s.overwritten);
  // The value meant is what the writer loads: Mds[0][1] of phase 0 is M(0,1).
  const RacedRead& first = t.staleReads()[0];
  const Event& r = run.trace->events[first.readEvent];
  ASSERT_EQ(r.op, Op::ReadM);
  EXPECT_EQ(first.expected, run.m.at(0, 1));
}

TEST(RaceOrder, MarksShowStaleSlotsAndSpoiledPFromTheStepOn) {
  const tilescope::Run run = runBook(KernelId::TiledNoFirstSync);
  const Timeline t = Timeline::build(*run.trace);
  // Step 1: tx=0, ty=0 at k=0 reads its own slots: nothing stale, nothing spoiled.
  EXPECT_TRUE(raceMarks(t, t.stepEnd(1), 0, 0).empty());
  // Step 2: its k=1 reads the two unwritten slots; P(0,0) (its element) is spoiled already.
  const auto marks = raceMarks(t, t.stepEnd(2), 0, 0);
  int stale = 0;
  std::set<std::pair<int, int>> spoiled;
  for (const CellMark& m : marks) {
    if (m.kind == CellMark::Kind::Stale) {
      ++stale;
      EXPECT_EQ(m.readerX, 0);
      EXPECT_EQ(m.readerY, 0);
      EXPECT_EQ(m.line, run.trace->events[t.staleReads()[0].readEvent].line);
    }
    if (m.kind == CellMark::Kind::Spoiled) spoiled.insert({m.row, m.col});
  }
  EXPECT_EQ(stale, 2);
  // All blocks run in lockstep: each block's thread tx=0, ty=0 spoils its first element.
  EXPECT_EQ(spoiled, (std::set<std::pair<int, int>>{{0, 0}, {0, 2}, {2, 0}, {2, 2}}));
  EXPECT_FALSE(t.pStored(t.stepEnd(2), 0, 0));  // long before the store
}

TEST(RaceOrder, NoSecondSyncOverwritesSlotsStillToBeRead) {
  const tilescope::Run run = runBook(KernelId::TiledNoSecondSync);
  const Timeline t = Timeline::build(*run.trace);
  ASSERT_TRUE(t.realOrder());
  // Interval 1 = phase 0's k loop then phase 1's loads, thread after thread. tx=0,ty=0 reads
  // phase 0 intact, then overwrites Mds[0][0] and Nds[0][0]; tx=1,ty=0 then reads Mds[0][0]
  // overwritten; tx=0,ty=1 reads Nds[0][0] overwritten; tx=1,ty=1 reads Mds[1][0] (overwritten
  // by tx=0,ty=1) and Nds[0][1] (by tx=1,ty=0).
  const std::set<Who> expected = {{1, 0, 0, 0, 'M', 0, 0}, {0, 1, 0, 0, 'N', 0, 0}, {1, 1, 0, 1, 'M', 1, 0},
                                  {1, 1, 1, 0, 'N', 0, 1}};
  EXPECT_EQ(staleOfBlock0(run, t, 1), expected);
  for (const RacedRead& s : t.staleReads()) {
    EXPECT_TRUE(s.overwritten);
    const Event& r = run.trace->events[s.readEvent];
    if (r.op == Op::ReadM && r.sharedRow == 0 && r.sharedCol == 0 && r.blockX == 0 && r.blockY == 0) {
      EXPECT_EQ(s.expected, run.m.at(0, 0));  // phase 0's Mds[0][0] of block 0 is M(0,0)
    }
  }
}

TEST(RaceOrder, AGpuTraceIsNotReadAsAnOrder) {
  const tilescope::Run run = runBook(KernelId::TiledNoFirstSync);
  const Timeline t = Timeline::build(*run.trace, false);
  EXPECT_FALSE(t.realOrder());
  EXPECT_TRUE(t.staleReads().empty());
  EXPECT_FALSE(t.orderNote().empty());
}

// Fig. 5.8: thread_{0,0} of block (0,0) accumulates Pvalue over both phases, one product per k.
TEST(RunningSums, FigureFiveEightsPvalueForThreadZero) {
  const tilescope::Run run = runBook(KernelId::Tiled);
  const Timeline t = Timeline::build(*run.trace);
  const auto sums = t.partialSums(0, 0);
  ASSERT_EQ(sums.size(), 4u);
  float pvalue = 0;
  for (int k = 0; k < 4; ++k) {  // phase k / 2, k step k % 2: M(0,k) x N(k,0)
    pvalue += run.m.at(0, k) * run.n.at(k, 0);
    EXPECT_EQ(sums[std::size_t(k)].m, run.m.at(0, k));
    EXPECT_EQ(sums[std::size_t(k)].n, run.n.at(k, 0));
    EXPECT_EQ(sums[std::size_t(k)].sum, pvalue);
  }
  EXPECT_EQ(sums[3].sum, run.p.at(0, 0));
  // Before phase 0's k = 0 there is no partial sum; after it, M(0,0) x N(0,0).
  EXPECT_EQ(t.runningSum(t.stepEnd(1), 0, 0), nullptr);
  ASSERT_NE(t.runningSum(t.stepEnd(2), 0, 0), nullptr);
  EXPECT_EQ(t.runningSum(t.stepEnd(2), 0, 0)->sum, run.m.at(0, 0) * run.n.at(0, 0));
}


// Thread life of fig. 5.8's thread_{0,0}: both phases' products with their values and Pvalue.
TEST(RunningSums, ThreadLifeListsBothPhasesProducts) {
  const tilescope::Run run = runBook(KernelId::Tiled);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline b = BlockTimeline::build(t, 0, 0);
  const ThreadLife life = threadLife(t, b, 0);
  ASSERT_EQ(life.phases.size(), 2u);
  float pvalue = 0;
  int k = 0;
  for (const LifePhase& phase : life.phases) {
    int barriers = 0;
    for (const LifeEntry& e : phase.entries) {
      barriers += e.kind == LifeEntry::Kind::Barrier;
      if (e.kind != LifeEntry::Kind::Multiply) continue;
      pvalue += run.m.at(0, k) * run.n.at(k, 0);  // phase k / 2 multiplies M(0,k) by N(k,0)
      ASSERT_TRUE(e.hasValues);
      EXPECT_EQ(e.value, pvalue);
      EXPECT_NE(e.valuesText().find("Pvalue = "), std::string::npos);
      ++k;
    }
    EXPECT_EQ(barriers, 2);  // fig. 5.9: a barrier after the loads and one after the k loop
  }
  EXPECT_EQ(k, 4);
  EXPECT_EQ(pvalue, run.p.at(0, 0));
}

}  // namespace
}  // namespace tilescope
