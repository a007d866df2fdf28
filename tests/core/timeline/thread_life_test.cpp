// One thread's life from the trace (app/core/timeline/thread_life.h) against the book's fig. 5.8,
// which tabulates the 4x4, T = 2 example of fig. 5.9 for the four threads of block (0,0),
// written out here by hand from the figure.
#include <gtest/gtest.h>

#include "core/run/run.h"
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

}  // namespace
}  // namespace tilescope
