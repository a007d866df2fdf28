// A tensor-core rung's trace on the GPU and on the emulator without the app's build
// (mma_trace_main.cpp): the traced kernel (the file's declarations rewritten into views, as the
// build does) launched by each executor into its own slots, thread by thread, for the same
// inputs. Which rung: TRACE_KERNEL, its namespace and file name (mma_tf32 unless defined).
#pragma once
#include <array>
#include <vector>

#include "kernels/launch_params.h"
#include "kernels/trace/trace_event.h"

#if !defined(TRACE_KERNEL)
#define TRACE_KERNEL mma_tf32
#endif

namespace tilescope::mma_trace {

// L's tiling is one of the kernel's built ones; L's grid, block and shared memory from its facts.
// Each writes slotsPerThread events per thread into `slots` (zeroed first); false on an error
// (printed). `overflow` is set when a thread needed more.
bool traceOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, Event* slots, unsigned slotsPerThread,
                unsigned* overflow);
bool traceOnEmulator(const KernelLaunch& L, const float* M, const float* N, float* P, Event* slots,
                     unsigned slotsPerThread, unsigned* overflow);

}  // namespace tilescope::mma_trace

namespace tilescope::mma_trace {
// j x k x l at the kernel's kTilings[tiling], shaped by its facts; the slots a thread may fill.
KernelLaunch planMmaLaunch(int j, int k, int l, int tiling, unsigned* slotsPerThread);
// The kernel's name and the shapes its facts give the GPU tests (gpuTestLaunches: j, k, l, tiling).
const char* kernelName();
std::vector<std::array<int, 4>> testShapes();
int operandMantissaBits();
}  // namespace tilescope::mma_trace
