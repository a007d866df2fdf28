// A binary built for another GPU, on this one (label gpu): the kernel of wrong_gpu_kernels.cu
// built for sm_80 only, and as the no-GPU build's unoptimised compute_90a PTX. What gpu_code.h
// says before any kernel runs is checked against what the runtime then does with that code.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/gpu_code.h"

cudaError_t launchSm80Only(int* written, int* ptxVersion);
cudaError_t launchCheckOnlyPtx(int* written, int* ptxVersion);

namespace tilescope::cuda {
namespace {

bool deviceCapability(cudaDeviceProp& p) {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0 && cudaGetDeviceProperties(&p, 0) == cudaSuccess;
}

TEST(WrongGpu, ABuildForAnotherGpuSaysSoWithTheRebuildBeforeTheLaunchFails) {
  cudaDeviceProp p{};
  if (!deviceCapability(p)) GTEST_SKIP() << "no CUDA device";
  if (p.major == 8) GTEST_SKIP() << "sm_80 code runs on this " << p.name;
  const GpuCodeTargets sm80Only{{"80-real"}, false};  // this test's build of the kernel
  const std::string cc = std::to_string(p.major * 10 + p.minor);
  const std::string line = gpuCodeProblem(sm80Only, p.major, p.minor, p.name);
  EXPECT_EQ(gpuCodeFit(sm80Only, p.major, p.minor), GpuCodeFit::None);
  EXPECT_NE(line.find(std::string("no code for the ") + p.name + " (sm_" + cc + ")"), std::string::npos) << line;
  EXPECT_NE(line.find("machine code for sm_80"), std::string::npos) << line;
  EXPECT_NE(line.find("make run CUDA_ARCHS=" + archFor(p.major, p.minor)), std::string::npos) << line;

  // What the line said would happen does: the runtime finds no image for this GPU.
  int written = 0, ptx = 0;
  const cudaError_t e = launchSm80Only(&written, &ptx);
  EXPECT_EQ(e, cudaErrorNoKernelImageForDevice) << cudaGetErrorString(e);
  // And the error, where one still surfaces, is never bare: it says what the build has.
  const Status s = check(e, "writeSeven<<<1, 1>>>");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("this build has"), std::string::npos) << s.error().message;
}

TEST(WrongGpu, TheCheckOnlyBuildRunsButSaysItsCodeIsUnoptimised) {
  cudaDeviceProp p{};
  if (!deviceCapability(p)) GTEST_SKIP() << "no CUDA device";
  if (p.major != 9 || p.minor != 0) GTEST_SKIP() << "compute_90a PTX runs on capability 9.0 only";
  const GpuCodeTargets checkOnly{{"90a-virtual"}, true};
  const std::string line = gpuCodeProblem(checkOnly, p.major, p.minor, p.name);
  EXPECT_EQ(gpuCodeFit(checkOnly, p.major, p.minor), GpuCodeFit::CheckOnlyPtx);
  EXPECT_NE(line.find("unoptimised"), std::string::npos) << line;
  EXPECT_NE(line.find("make run CUDA_ARCHS=90a"), std::string::npos) << line;

  // The runtime does run it, from the PTX (compiled by the driver): the line was a warning.
  int written = 0, ptx = 0;
  const cudaError_t e = launchCheckOnlyPtx(&written, &ptx);
  ASSERT_EQ(e, cudaSuccess) << cudaGetErrorString(e);
  EXPECT_EQ(written, 7);
  EXPECT_EQ(ptx, 90);
}

}  // namespace
}  // namespace tilescope::cuda
