// Rung 8's ring at a cursor (app/core/timeline/copy_ring.h) against counts worked by hand from
// kernels/ladder/tma_pipeline.cuh at its teaching tiling 32x64x8/16x32/4x4 on a 64^3 product, block
// (0,0):
//   consumers: (bm / wm) * (bn / wn) * 32 = (32/16) * (64/32) * 32 = 128 (threads 0..127); the
//   producer warpgroup is threads 128..255 and `threadIdx.x == CONSUMERS` issues: tx=128, ty=0.
//   k tiles: ceil(64 / 8) = 8; stages: 3 (Facts::stages, bm = 32 < 128); tile t in stage t % 3.
//   A copy of M is a 32 x 8 box (1024 bytes), of N an 8 x 64 box (2048 bytes): 16 copies.
//   full[s] needs 1 arrival (the producer's expect_tx of 3072 bytes), empty[s] 128.
// Timeline steps (timeline.h: per barrier interval, and in a ring per phase, the events before
// the k loop, one step per k, those after it, the barrier): interval 0 holds thread 0's
// initialisations (step 0) and the __syncthreads (step 1); interval 1 the ring's 8 phases
// (step_rules.h: tile t is phase t of every consumer and of the producer's fill), each a
// "load tiles" step (the consumers' wait on full[t % 3], the producer's wait, expect_tx and two
// copies) and its k steps: a consumer reads Mds for kq, then Nds for kk = 0..3, so each kq is
// one k step (a new step when it returns to M), 8 / 4 = 2 per tile, the arrival on empty[t % 3]
// closing the second: tile t at steps 2 + 3t (load), 3 + 3t and 4 + 3t (k = 0, 1); then the
// stores (step 26): 27 steps.
#include <gtest/gtest.h>

#include "core/run/run.h"
#include "core/timeline/copy_ring.h"
#include "core/timeline/timeline.h"
#include "test_support.h"

namespace tilescope {
namespace {

constexpr int kThreads = 256;
constexpr Cursor endOf(int step) { return {step, kThreads}; }

class CopyRingTeaching : public ::testing::Test {
 protected:
  static LaunchConfig config() {
    LaunchConfig c = testing::launchConfig(KernelId::TmaPipeline, {64, 64, 64}, 0, 7);
    c.tiling = {32, 64, 8, 16, 32, 4, 4};
    return c;
  }
  tilescope::Run run = testing::runEmulated(config(), true);
  Timeline t = Timeline::build(*run.trace);
  BlockTimeline block = BlockTimeline::build(t, 0, 0);
  CopySchedule schedule = CopySchedule::build(t, block);

  const RingBarrier& barrier(const CopyRing& r, BarrierRole role, int index) {
    for (const RingBarrier& b : r.barriers)
      if (b.role == role && b.index == index) return b;
    ADD_FAILURE() << "no barrier " << int(role) << " " << index;
    return r.barriers.front();
  }
};

// Rung 8's ring goes through the race search like any emulated trace (raced_reads.h replays
// its threads' turns at the mbarriers): a correct ring has no stale read, and it is drawn in
// lockstep by its phases, never thread by thread.
TEST_F(CopyRingTeaching, TheRingHasNoStaleReadAndIsDrawnInLockstep) {
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  EXPECT_TRUE(t.staleReads().empty());
  EXPECT_FALSE(t.realOrder());
  for (int s = 0; s < t.steps(); ++s) ASSERT_EQ(t.step(s).thread, -1) << t.stepLabel(s);
}

TEST_F(CopyRingTeaching, ShapeOfTheRingAndItsCopies) {
  ASSERT_TRUE(run.verification.passed) << run.verification.summary();
  ASSERT_EQ(t.steps(), 27) << "2 steps of interval 0, 8 phases of a load step and 2 k steps, stores";
  ASSERT_TRUE(schedule.applies());
  const CopyRing end = schedule.at(t.end());
  EXPECT_EQ(end.stageCount, 3);
  EXPECT_EQ(end.consumers, 128);
  EXPECT_EQ(end.copiesTotal, 16);
  EXPECT_EQ(end.copiesIssued, 16);
  EXPECT_EQ((std::pair{end.producerX, end.producerY}), (std::pair{128, 0}));
  EXPECT_EQ(end.outOfOrder, 0) << "no consumer reads a stage before its wait could pass";
  ASSERT_EQ(end.barriers.size(), 6u) << "full[0..2], empty[0..2]";
}

// At the end every stage has been released; the last tiles are 6, 7 and 5 (t % 3), and each
// stage's barriers completed once per tile it held: stages 0 and 1 three times (0 3 6, 1 4 7),
// stage 2 twice (2 5).
TEST_F(CopyRingTeaching, AtTheEndEveryStageIsReleased) {
  const CopyRing r = schedule.at(t.end());
  const int lastTile[3] = {6, 7, 5}, phases[3] = {3, 3, 2};
  for (int s = 0; s < 3; ++s) {
    const RingStage& st = r.stages[std::size_t(s)];
    EXPECT_EQ(st.state, StageState::Released) << "stage " << s;
    EXPECT_EQ(st.m.tile, lastTile[s]);
    EXPECT_EQ(st.n.tile, lastTile[s]);
    EXPECT_EQ(st.m.bytes, 32 * 8 * 4);
    EXPECT_EQ(st.n.bytes, 8 * 64 * 4);
    EXPECT_EQ((std::pair{st.m.issuerX, st.m.issuerY}), (std::pair{128, 0}));
    EXPECT_EQ(st.released, 128);
    EXPECT_EQ(barrier(r, BarrierRole::Full, s).completed, phases[s]);
    EXPECT_EQ(barrier(r, BarrierRole::Full, s).lastBytes, 3072);
    EXPECT_EQ(barrier(r, BarrierRole::Empty, s).completed, phases[s]);
    EXPECT_EQ(barrier(r, BarrierRole::Empty, s).needed, 128);
  }
  EXPECT_EQ(barrier(r, BarrierRole::Full, 1).text(), "full[1]: phase 2 complete, 3072 of 3072 bytes");
  EXPECT_EQ(r.producer, "thread tx=128, ty=0 has issued all 16 copies");
}

// Before the initialisations nothing exists; once every thread passed __syncthreads (end of
// step 1) the producer has issued tiles 0, 1 and 2 (its waits on a fresh empty[s] pass with
// parity 1) and its 4th wait, on empty[0] with parity 0, blocks; the bytes land a step later,
// so the three stages are filling and all 128 consumers wait on full[0] with parity 0.
TEST_F(CopyRingTeaching, AfterTheBarrierTheCopyEngineFillsThreeStagesWhileConsumersWait) {
  const CopyRing before = schedule.at(t.begin());
  EXPECT_FALSE(before.barriers[0].initialised);
  EXPECT_EQ(before.stages[0].state, StageState::Empty);
  EXPECT_EQ(before.copiesIssued, 0);

  const CopyRing r = schedule.at(endOf(1));
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(r.stages[std::size_t(s)].state, StageState::Filling) << "stage " << s;
    EXPECT_EQ(r.stages[std::size_t(s)].m.tile, s);
    EXPECT_EQ(r.stages[std::size_t(s)].bytesExpected, 3072);
    EXPECT_EQ(r.stages[std::size_t(s)].bytesArrived, 0);
  }
  EXPECT_EQ(r.copiesIssued, 6);
  EXPECT_EQ(r.waiting, 128);
  EXPECT_EQ(r.passed, 0);
  EXPECT_EQ(r.waitBarrier, 0);
  EXPECT_EQ(r.waitParity, 0);
  EXPECT_EQ(r.waitText(), "128 consumers waiting on full[0], parity 0; 0 passed it");
  EXPECT_EQ(barrier(r, BarrierRole::Full, 0).text(), "full[0]: phase 0 filling, 0 of 3072 bytes");
  EXPECT_EQ(r.producer, "thread tx=128, ty=0 waits on empty[0], parity 0, until the consumers release stage 0 (k tile 0)");
}

// End of step 2 (phase 0's load step): the bytes have landed, full[0..2] completed phase 0, the consumers passed
// their wait on full[0] and read stage 0; stages 1 and 2 wait full.
TEST_F(CopyRingTeaching, WhenTheBytesLandStageZeroIsReadAndTheOthersWaitFull) {
  const CopyRing r = schedule.at(endOf(2));
  EXPECT_EQ(r.stages[0].state, StageState::Reading);
  EXPECT_EQ(r.stages[0].readers, 128);
  EXPECT_EQ(r.stages[1].state, StageState::Full);
  EXPECT_EQ(r.stages[2].state, StageState::Full);
  EXPECT_EQ(r.passed, 128);
  EXPECT_EQ(r.waiting, 0);
  EXPECT_EQ(barrier(r, BarrierRole::Full, 0).text(), "full[0]: phase 0 complete, 3072 of 3072 bytes");
  EXPECT_EQ(barrier(r, BarrierRole::Empty, 0).text(), "empty[0]: phase 0, 0 of 128 consumers done");
}

// Half way through tile 0's second k step (step 4, 64 threads done): consumers 0..63 arrived on
// empty[0]; the producer still waits. At its end all 128 did: empty[0] completes phase 0, the
// producer issues tile 3 into stage 0 (filling until the end of step 5, phase 1's load step), the consumers read
// stage 1 (tile 1); tile 2 waits full in stage 2.
TEST_F(CopyRingTeaching, TheFirstStageIsReleasedAndRefilledWithTileThree) {
  const CopyRing half = schedule.at({4, 64});
  EXPECT_EQ(barrier(half, BarrierRole::Empty, 0).arrivals, 64);
  EXPECT_EQ(half.copiesIssued, 6);
  EXPECT_EQ(half.stages[0].m.tile, 0);
  EXPECT_EQ(half.stages[0].released, 64);

  const CopyRing r = schedule.at(endOf(4));
  EXPECT_EQ(barrier(r, BarrierRole::Empty, 0).completed, 1);
  EXPECT_EQ(r.copiesIssued, 8);
  EXPECT_EQ(r.stages[0].state, StageState::Filling);
  EXPECT_EQ(r.stages[0].m.tile, 3);
  EXPECT_EQ(r.stages[0].n.tile, 3);
  EXPECT_EQ(r.stages[1].state, StageState::Reading);
  EXPECT_EQ(r.stages[1].m.tile, 1);
  EXPECT_EQ(r.stages[2].state, StageState::Full);
  EXPECT_EQ(r.stages[2].m.tile, 2);
  EXPECT_EQ(schedule.at(endOf(5)).stages[0].state, StageState::Full);
}

// The timeline's words for the ring (the steps counted at the top): each k tile is a phase of
// a load step and two k steps, and the phases are done one by one.
TEST_F(CopyRingTeaching, EachKTileOfTheRingIsAPhaseOfTheTimeline) {
  const std::string dot = " \xc2\xb7 ";
  EXPECT_EQ(t.stepLabel(0), "phase 0" + dot + "set up the mbarriers");
  EXPECT_EQ(t.stepLabel(1), "phase 0" + dot + "barrier 1 (set up: read-after-write)");
  for (int tile = 0; tile < 8; ++tile) {
    const std::string phase = "phase " + std::to_string(tile) + dot;
    EXPECT_EQ(t.stepLabel(2 + 3 * tile), phase + "load tiles");
    EXPECT_EQ(t.stepLabel(3 + 3 * tile), phase + "k = 0");
    EXPECT_EQ(t.stepLabel(4 + 3 * tile), phase + "k = 1");
  }
  EXPECT_EQ(t.stepLabel(26), "store P");
  EXPECT_EQ(t.phases(), 8);
  EXPECT_EQ(t.phases(0, 0), 8);
  EXPECT_EQ(t.phasesDone(endOf(3)), 0);
  EXPECT_EQ(t.phasesDone(endOf(4)), 1);
  EXPECT_EQ(t.phasesDone(endOf(22)), 7);
  EXPECT_EQ(t.phasesDone(t.end()), 8);
  EXPECT_EQ(t.seekPhase(1), endOf(5));
}

// Rung 9 at 64^3 on 3 blocks (tests/core/trace/ring_phase_test.cpp counts the shares): blocks
// of 5, 5 and 6 phases. Steps: the set-up and the barrier (0, 1); each phase a load step and
// two k steps, and after three of them a step of rung 9's fix-up: after phase 1 block 1 leaves
// its partial sums of tile 1 (step 8); after phase 4 block 0 leaves tile 0's while block 1
// adds them and stores tile 0 (step 18); after phase 5 block 2 adds block 1's and stores tile 1
// (step 22). So the load steps are 2, 5, 9, 12, 15, 19: 23 steps.
TEST(RingTimeline, StreamKsPhasesAreEachBlocksShare) {
  LaunchConfig c = testing::launchConfig(KernelId::StreamK, {64, 64, 64}, 0, 5);
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  c.persistentBlocks = 3;
  const tilescope::Run run = testing::runEmulated(c, true);
  ASSERT_TRUE(run.trace && run.verification.passed) << run.verification.summary();
  const Timeline t = Timeline::build(*run.trace);
  ASSERT_EQ(t.steps(), 23);
  const std::string dot = " \xc2\xb7 ";
  const int load[] = {2, 5, 9, 12, 15, 19};
  for (int p = 0; p < 6; ++p) {
    EXPECT_EQ(t.stepLabel(load[p]), "phase " + std::to_string(p) + dot + "load tiles");
    EXPECT_EQ(t.stepLabel(load[p] + 2), "phase " + std::to_string(p) + dot + "k = 1");
  }
  EXPECT_EQ(t.stepLabel(8), "phase 1" + dot + "partial sums");
  EXPECT_EQ(t.stepLabel(18), "phase 4" + dot + "partial sums, store P");
  EXPECT_EQ(t.stepLabel(22), "phase 5" + dot + "partial sums, store P");
  EXPECT_EQ(t.phases(), 6) << "the longest share";
  EXPECT_EQ(t.phases(0, 0), 5);
  EXPECT_EQ(t.phases(1, 0), 5);
  EXPECT_EQ(t.phases(2, 0), 6);
  EXPECT_EQ(t.phasesDone(endOf(8)), 2);
  EXPECT_EQ(t.phasesDone(t.end()), 6);
  EXPECT_EQ(t.phasesDone(t.end(), 0, 0), 5);
  EXPECT_EQ(t.phasesDone(endOf(8), 0, 0), 2);
}

// Not a copy-engine kernel: nothing to draw.
TEST(CopyRing, AKernelWithoutCopiesHasNoRing) {
  tilescope::Run run = testing::runEmulated(testing::launchConfig(KernelId::Tiled, {4, 4, 4}, 2, 1), true);
  const Timeline t = Timeline::build(*run.trace);
  const BlockTimeline block = BlockTimeline::build(t, 0, 0);
  EXPECT_FALSE(CopySchedule::build(t, block).applies());
  EXPECT_FALSE(CopySchedule::build(t, block).at(t.end()).applies);
}

}  // namespace
}  // namespace tilescope
