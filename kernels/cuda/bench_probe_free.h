// BENCH ONLY. Probe-free copies of two kernels, used by the timing engine for one
// comparison: does the plain instantiation (Probe = NoProbe, every hook inlined away) run
// as fast as the textbook kernel with no probe template at all? Nothing else may use them;
// the kernels that run everywhere else live in kernels/*.cuh.
#pragma once
#include "kernels/result.h"
#include "kernels/launch_params.h"

namespace tilescope::cuda {

// Launches the probe-free copy of naive (any block) or tiled (T = 16 or 32) for L.
Status launchProbeFree(const KernelLaunch& L, const float* M, const float* N, float* P);
bool probeFreeSupports(const KernelLaunch& L);

}  // namespace tilescope::cuda
