// Which GPUs a build runs on, from CMake's architecture list (kernels/cuda/gpu_code.h), against
// the CUDA C Programming Guide's compatibility rules: machine code for sm_XY runs on
// capability X.Z for Z >= Y only (binary compatibility within a major version), PTX for
// compute_XY on every capability from X.Y up (the driver compiles it), and an arch-specific
// target (sm_90a, compute_90a) on capability 9.0 alone. No GPU needed.
#include <gtest/gtest.h>

#include "kernels/cuda/gpu_code.h"

namespace tilescope::cuda {
namespace {

const GpuCodeTargets kGpuPreset{{"90a-real", "90-virtual"}, false};  // CMakePresets.json, gpu
const GpuCodeTargets kLabMachines{{"80"}, false};                    // make run CUDA_ARCHS=80
const GpuCodeTargets kCheckOnly{{"90a-virtual"}, true};              // nvcc without a GPU

TEST(GpuCode, MachineCodeRunsOnItsOwnMajorAtAnEqualOrLaterMinor) {
  EXPECT_EQ(gpuCodeFit(kGpuPreset, 9, 0), GpuCodeFit::MachineCode);    // H100, H200
  EXPECT_EQ(gpuCodeFit(kLabMachines, 8, 0), GpuCodeFit::MachineCode);  // A100
  EXPECT_EQ(gpuCodeFit(kLabMachines, 8, 6), GpuCodeFit::MachineCode);  // RTX 3090: sm_80 code runs on 8.6
  EXPECT_EQ(gpuCodeFit({{"86-real"}, false}, 8, 0), GpuCodeFit::None);  // not on an earlier minor
}

TEST(GpuCode, PtxRunsOnLaterGpusThroughTheDriver) {
  EXPECT_EQ(gpuCodeFit(kLabMachines, 9, 0), GpuCodeFit::PtxOnly);  // compute_80 on an H100
  EXPECT_EQ(gpuCodeFit(kGpuPreset, 10, 0), GpuCodeFit::PtxOnly);   // compute_90 on a B200
  EXPECT_EQ(gpuCodeFit(kGpuPreset, 8, 0), GpuCodeFit::None);       // nothing for an A100
  EXPECT_EQ(gpuCodeFit(kLabMachines, 7, 5), GpuCodeFit::None);     // PTX never runs on an older GPU
}

TEST(GpuCode, ArchSpecificCodeRunsOnItsCapabilityAlone) {
  EXPECT_EQ(gpuCodeFit({{"90a-real"}, false}, 9, 0), GpuCodeFit::MachineCode);
  EXPECT_EQ(gpuCodeFit({{"90a-real"}, false}, 10, 0), GpuCodeFit::None);
  EXPECT_EQ(gpuCodeFit(kCheckOnly, 9, 0), GpuCodeFit::CheckOnlyPtx);
  EXPECT_EQ(gpuCodeFit(kCheckOnly, 10, 0), GpuCodeFit::None);
}

TEST(GpuCode, TheDescriptionNamesMachineCodeAndPtxApart) {
  EXPECT_EQ(describeGpuCode(kGpuPreset), "machine code for sm_90a; PTX for compute_90");
  EXPECT_EQ(describeGpuCode(kLabMachines), "machine code for sm_80; PTX for compute_80");
  EXPECT_EQ(describeGpuCode({{"80-real", "86-real"}, false}), "machine code for sm_80, sm_86");
  EXPECT_NE(describeGpuCode(kCheckOnly).find("no machine code; PTX for compute_90a, device optimiser off"),
            std::string::npos);
}

TEST(GpuCode, AGpuWithoutMachineCodeGetsOneLineWithTheRebuild) {
  EXPECT_EQ(gpuCodeProblem(kGpuPreset, 9, 0, "NVIDIA H200"), "");
  const std::string a100 = gpuCodeProblem(kGpuPreset, 8, 0, "NVIDIA A100-SXM4-80GB");
  EXPECT_NE(a100.find("no code for the NVIDIA A100-SXM4-80GB (sm_80)"), std::string::npos) << a100;
  EXPECT_NE(a100.find("make run CUDA_ARCHS=80"), std::string::npos) << a100;
  const std::string ptx = gpuCodeProblem(kLabMachines, 9, 0, "NVIDIA H100");
  EXPECT_NE(ptx.find("only PTX"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("make run CUDA_ARCHS=90a"), std::string::npos) << ptx;  // rung 8 needs sm_90a
  const std::string unoptimised = gpuCodeProblem(kCheckOnly, 9, 0, "NVIDIA H100");
  EXPECT_NE(unoptimised.find("unoptimised"), std::string::npos) << unoptimised;
  EXPECT_NE(unoptimised.find("make run CUDA_ARCHS=90a"), std::string::npos) << unoptimised;
  for (const std::string& line : {a100, ptx, unoptimised}) EXPECT_EQ(line.find('\n'), std::string::npos) << line;
}

TEST(GpuCode, AListCMakeResolvesItselfIsNotGuessedAt) {
  EXPECT_EQ(gpuCodeFit({{"native"}, false}, 8, 0), GpuCodeFit::Unknown);
  EXPECT_EQ(gpuCodeProblem({{"all-major"}, false}, 8, 0, "NVIDIA A100"), "");
}

}  // namespace
}  // namespace tilescope::cuda
