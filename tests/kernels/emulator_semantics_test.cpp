// The emulator keeps CUDA's promises: a barrier really waits for the whole block, a block
// whose threads do not all reach a barrier is reported (not hung), and a global access
// outside its allocation is recorded instead of corrupting this process.
// The kernels here are test-only; they are compiled with the emulator's CUDA surface.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/emu/emulator.h"
#include "kernels/portable.h"

namespace tilescope {
namespace {

// Each thread publishes a value, then reads its neighbour's: correct only if no thread
// passes the barrier before every thread has written (a read-after-write dependence).
__global__ void neighbourKernel(GlobalPtr<int> out) {
  __shared__ int published[256];
  const int t = int(threadIdx.y * blockDim.x + threadIdx.x);
  const int n = int(blockDim.x * blockDim.y);
  published[t] = int(blockIdx.x) * 1000 + t + 1;
  __syncthreads();  // read-after-write: the neighbour's slot is written before it is read
  out[int(blockIdx.x) * n + t] = published[(t + 1) % n];
}

// Odd threads leave early: the even ones wait at a barrier the odd ones never reach.
__global__ void earlyExitKernel(GlobalPtr<int> out) {
  if (threadIdx.x % 2 == 1) return;
  __syncthreads();  // divergent on purpose: half the block has returned
  out[int(threadIdx.x)] = 1;
}

// Two groups wait at two different barriers.
__global__ void splitBarrierKernel(GlobalPtr<int> out) {
  if (threadIdx.x < 4) {
    __syncthreads();  // divergent on purpose: only threads 0-3 come here
  } else {
    __syncthreads();  // divergent on purpose: threads 4 and up come here
  }
  out[int(threadIdx.x)] = 1;
}

// Every thread writes 100 elements past its own.
__global__ void outOfBoundsKernel(GlobalPtr<int> out) { out[int(threadIdx.x) + 100] = 7; }

TEST(EmulatorBarrier, EveryThreadSeesItsNeighboursWriteAfterTheBarrier) {
  for (emu::Dim3 block : {emu::Dim3{32, 1, 1}, emu::Dim3{16, 16, 1}, emu::Dim3{7, 3, 1}}) {
    const int n = int(block.x * block.y), blocks = 3;
    std::vector<int> out(std::size_t(n * blocks), -1);
    emu::Executor exec;
    exec.launch(neighbourKernel, emu::Dim3{unsigned(blocks), 1, 1}, block, 0,
                emu::CheckedPtr<int>(out.data(), long(out.size()), "out"));
    ASSERT_TRUE(exec.report.error.empty()) << exec.report.error;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < n; ++t) EXPECT_EQ(out[std::size_t(b * n + t)], b * 1000 + (t + 1) % n + 1) << b << "," << t;
    EXPECT_TRUE(exec.report.divergences.empty());
  }
}

TEST(EmulatorBarrier, ThreadsThatExitBeforeABarrierAreReportedAsDivergence) {
  std::vector<int> out(64, 0);
  emu::Executor exec;
  exec.launch(earlyExitKernel, emu::Dim3{2, 1, 1}, emu::Dim3{64, 1, 1}, 0,
              emu::CheckedPtr<int>(out.data(), 64, "out"));
  ASSERT_EQ(exec.report.divergences.size(), 2u);  // one per block
  const emu::BarrierDivergence& d = exec.report.divergences[0];
  EXPECT_EQ(d.arrived, 32);
  EXPECT_EQ(d.exited, 32);
  EXPECT_GT(d.line, 0);
  EXPECT_EQ(d.block.x, 0u);
  EXPECT_EQ(exec.report.divergences[1].block.x, 1u);
  // The waiting threads never get past the barrier.
  for (int v : out) EXPECT_EQ(v, 0);
}

TEST(EmulatorBarrier, ThreadsWaitingAtDifferentBarriersAreReportedAsDivergence) {
  std::vector<int> out(16, 0);
  emu::Executor exec;
  exec.launch(splitBarrierKernel, emu::Dim3{1, 1, 1}, emu::Dim3{16, 1, 1}, 0,
              emu::CheckedPtr<int>(out.data(), 16, "out"));
  ASSERT_EQ(exec.report.divergences.size(), 1u);
  const emu::BarrierDivergence& d = exec.report.divergences[0];
  EXPECT_EQ(d.arrived, 16);
  EXPECT_EQ(d.exited, 0);
  EXPECT_NE(d.otherLine, 0);
  EXPECT_NE(d.line, d.otherLine);
}

TEST(EmulatorMemory, AccessesOutsideTheAllocationAreRecordedWithTheirIndex) {
  std::vector<int> out(8, 0);
  emu::Executor exec;
  exec.launch(outOfBoundsKernel, emu::Dim3{1, 1, 1}, emu::Dim3{4, 1, 1}, 0,
              emu::CheckedPtr<int>(out.data(), 8, "out"));
  ASSERT_EQ(exec.report.outOfBoundsTotal, 4u);
  ASSERT_EQ(exec.report.outOfBounds.size(), 4u);
  for (unsigned t = 0; t < 4; ++t) {
    const emu::OutOfBoundsAccess& a = exec.report.outOfBounds[t];
    EXPECT_EQ(a.array, "out");
    EXPECT_EQ(a.index, long(t) + 100);
    EXPECT_EQ(a.count, 8);
    EXPECT_TRUE(a.write);
    EXPECT_EQ(a.thread.x, t);
  }
  for (int v : out) EXPECT_EQ(v, 0);  // nothing landed inside the allocation
}

TEST(EmulatorLaunch, BlocksOverTheThreadLimitAreRefused) {
  std::vector<int> out(8, 0);
  emu::Executor exec;
  exec.launch(outOfBoundsKernel, emu::Dim3{1, 1, 1}, emu::Dim3{33, 32, 1}, 0,
              emu::CheckedPtr<int>(out.data(), 8, "out"));
  EXPECT_NE(exec.report.error.find("1024"), std::string::npos) << exec.report.error;
}

}  // namespace
}  // namespace tilescope
