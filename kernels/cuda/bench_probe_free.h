// BENCH ONLY. Hand-written raw-pointer copies of two kernels, used by the timing engine for
// one comparison: does the plain build of a kernel file run as fast as the same kernel
// written with raw pointers and nothing else? (The plain build compiles the file as
// written, so their SASS is identical: bench/results/2026-11-23-h100/sass-comparison.txt.)
// Nothing else may use them; the kernels that run everywhere else live in kernels/*.cuh.
#pragma once
#include "kernels/result.h"
#include "kernels/launch_params.h"

namespace tilescope::cuda {

// Launches the probe-free copy of naive (any block) or tiled (T = 16 or 32) for L.
Status launchProbeFree(const KernelLaunch& L, const float* M, const float* N, float* P);
bool probeFreeSupports(const KernelLaunch& L);

}  // namespace tilescope::cuda
