// Built only when the build has no CUDA (no nvcc): the GPU suite (GPU = emulator, timing,
// occupancy against the CUDA runtime) cannot be compiled, and this says so as a skip.
#include <gtest/gtest.h>

TEST(GpuSuite, NeedsACudaBuild) {
  GTEST_SKIP() << "built without CUDA (no nvcc at configure time): the GPU tests were not compiled";
}
