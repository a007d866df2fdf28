// Which GPUs a build has code for, and what that means on the GPU it runs on. nvcc writes
// machine code (SASS, sm_XY) for the architectures it is given and PTX (compute_XY) that the
// driver compiles when the program loads; a GPU with neither gets "no kernel image" at the
// first launch. The build's list is CMake's CUDA architectures (CMAKE_CUDA_ARCHITECTURES:
// "90a-real" machine code, "90-virtual" PTX, "80" both), compiled into gpu_code.cpp, so the
// binary can say before any kernel runs that it was built for another machine, and how to
// rebuild it.
#pragma once
#include <string>
#include <vector>

namespace tilescope::cuda {

struct GpuCodeTargets {
  std::vector<std::string> archs;  // CMake's entries, e.g. {"90a-real", "90-virtual"}
  bool checkOnly = false;          // compiled without a GPU to check it: PTX, device optimiser off
};

// What a GPU of compute capability major.minor runs from a build.
enum class GpuCodeFit {
  MachineCode,   // SASS for its architecture: loads as built
  PtxOnly,       // only PTX: the driver compiles it at every start
  CheckOnlyPtx,  // only the check-only build's unoptimised PTX
  None,          // nothing it can run: every launch would fail with "no kernel image"
  Unknown,       // the list could not be read ("all", "native"): nothing is said
};

// This binary's targets, as configured.
GpuCodeTargets builtGpuCode();

// "machine code for sm_90a; PTX for compute_90" (with ", device optimiser off (check only)").
std::string describeGpuCode(const GpuCodeTargets& t);

GpuCodeFit gpuCodeFit(const GpuCodeTargets& t, int major, int minor);

// The architecture to ask nvcc for on a GPU of this capability: "90a" on Hopper (its top
// rung needs the arch-specific sm_90a), else "86" for 8.6 and so on.
std::string archFor(int major, int minor);

// One line for a GPU the build has no machine code for, naming the GPU, what the build has and
// the command that fixes it; "" when it has machine code (or Unknown).
std::string gpuCodeProblem(const GpuCodeTargets& t, int major, int minor, const std::string& gpuName);

// gpuCodeProblem for this binary on the current device; "" when it fits or there is no device.
std::string gpuCodeProblemHere();

}  // namespace tilescope::cuda
