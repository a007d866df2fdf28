// The trace accounts for P (core/run/trace_accounts.h): true of every built-in kernel on the
// emulator at two sizes, the bug gallery's included; and each way a forged trace could
// misreport a run is caught, naming the element of P it leaves unaccounted.
#include <gtest/gtest.h>

#include "core/run/trace_accounts.h"
#include "correct_kernel_shapes.h"
#include "kernels/catalog.h"
#include "test_support.h"

namespace tilescope {
namespace {

TraceAccounting account(const tilescope::Run& r) { return accountForP(*r.trace, r.m, r.n, r.p); }

TEST(TraceAccounts, EveryCorrectKernelsTraceAccountsForItsResultAtTwoSizes) {
  int runs = 0;
  for (const testing::KernelShape& shape : testing::correctKernelShapes(false)) {
    for (int scale : {1, 2}) {
      LaunchConfig c = shape.config;
      c.dims = {c.dims.j * scale, c.dims.k * scale, c.dims.l * scale};
      SCOPED_TRACE(shape.name + " x" + std::to_string(scale));
      const tilescope::Run r = testing::runEmulated(c, true);
      ASSERT_TRUE(r.trace);
      ASSERT_TRUE(r.verification.passed);
      const TraceAccounting a = account(r);
      EXPECT_FALSE(a.problem) << *a.problem;
      // Every element of P is stored by one thread; all but the kernels whose products the
      // trace cannot value (rung 8's tensor-map copies and k-spanning float4 of M) are compared.
      EXPECT_GT(a.threadsChecked + a.threadsSkipped, 0);
      ++runs;
    }
  }
  EXPECT_GT(runs, 2 * 10);
}

TEST(TraceAccounts, TheBookKernelsAreCheckedThreadByThread) {
  // Fig. 5.9 at 8x8x8, T = 4: 64 threads each store one element; none is skipped.
  const tilescope::Run r = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {8, 8, 8}, 4, 5), true);
  const TraceAccounting a = account(r);
  EXPECT_FALSE(a.problem);
  EXPECT_EQ(a.threadsChecked, 64);
  EXPECT_EQ(a.threadsSkipped, 0);
}

TEST(TraceAccounts, TheBugGallerysTracesAccountForWhatTheyComputed) {
  // A wrong result is still accounted for: the trace says how it was computed (a racing
  // read carries a value some write of its block put in the slot).
  for (const KernelInfo& k : kKernels) {
    if (isCorrectKernel(k)) continue;
    for (Dims d : {Dims{8, 8, 8}, Dims{16, 16, 16}}) {
      SCOPED_TRACE(std::string(k.name) + " " + std::to_string(d.j));
      const LaunchConfig c = k.tiled ? testing::tiledConfig(k.id, d, 4, 7) : testing::launchConfig(k.id, d, 0, 7, 4, 2);
      const tilescope::Run r = testing::runEmulated(c, true);
      ASSERT_TRUE(r.trace);
      const TraceAccounting a = account(r);
      EXPECT_FALSE(a.problem) << *a.problem;
    }
  }
}

class ForgedTrace : public ::testing::Test {
 protected:
  // Fig. 5.9 at 8x8x8, T = 4: P[r][c] is stored by thread (c % 4, r % 4) of block (c / 4, r / 4).
  tilescope::Run run = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, {8, 8, 8}, 4, 9), true);
  Event* first(Op op, int bx, int by, int tx, int ty) {
    for (Event& e : run.trace->events)
      if (e.op == op && e.blockX == bx && e.blockY == by && e.threadX == tx && e.threadY == ty) return &e;
    return nullptr;
  }
};

TEST_F(ForgedTrace, ALoadThatDoesNotCarryItsElementsValue) {
  Event* load = first(Op::LoadN, 1, 0, 1, 2);  // thread (1,2) of block (1,0) stores P[2][5]
  ASSERT_NE(load, nullptr);
  load->globalCol ^= 1;  // the load rewritten to look like a neighbour's (coalescing forged)
  const TraceAccounting a = account(run);
  ASSERT_TRUE(a.problem);
  EXPECT_NE(a.problem->find("does not account for P[2][5]"), std::string::npos) << *a.problem;
  EXPECT_NE(a.problem->find("load of N["), std::string::npos) << *a.problem;
}

TEST_F(ForgedTrace, ASharedReadOfAValueNoWritePutThere) {
  Event* read = first(Op::ReadM, 0, 1, 3, 1);  // stores P[5][3]
  ASSERT_NE(read, nullptr);
  read->value += 0.5f;
  const TraceAccounting a = account(run);
  ASSERT_TRUE(a.problem);
  EXPECT_NE(a.problem->find("P[5][3]"), std::string::npos) << *a.problem;
  EXPECT_NE(a.problem->find("no recorded write"), std::string::npos) << *a.problem;
}

TEST_F(ForgedTrace, AResultItsMultiplyAddsDoNotSumTo) {
  // P computed elsewhere: the stored value is not what the thread's products give.
  run.p.at(3, 5) += 1.0f;
  for (Event& e : run.trace->events)
    if (e.op == Op::StoreP && e.globalRow == 3 && e.globalCol == 5) e.value = run.p.at(3, 5);
  const TraceAccounting a = account(run);
  ASSERT_TRUE(a.problem);
  EXPECT_NE(a.problem->find("does not account for P[3][5]"), std::string::npos) << *a.problem;
  EXPECT_NE(a.problem->find("multiply-adds sum to"), std::string::npos) << *a.problem;
}

TEST_F(ForgedTrace, DecoyEventsWithNoMultiplyAddsBehindAStore) {
  // A kernel that computed P unrecorded keeps its stores and a decoy load, no k loop.
  for (Event& e : run.trace->events)
    if ((e.op == Op::ReadM || e.op == Op::ReadN) && e.blockX == 0 && e.blockY == 0) e.op = Op::None;
  const TraceAccounting a = account(run);
  ASSERT_TRUE(a.problem);
  EXPECT_NE(a.problem->find("(it recorded none)"), std::string::npos) << *a.problem;
}

TEST_F(ForgedTrace, AnElementNoRecordedStoreWrote) {
  for (Event& e : run.trace->events)
    if (e.op == Op::StoreP && e.globalRow == 6 && e.globalCol == 1) e.op = Op::None;
  const TraceAccounting a = account(run);
  ASSERT_TRUE(a.problem);
  EXPECT_NE(a.problem->find("P[6][1]: it holds"), std::string::npos) << *a.problem;
  EXPECT_NE(a.problem->find("no recorded store wrote it"), std::string::npos) << *a.problem;
}

}  // namespace
}  // namespace tilescope
