// Host-facing entry to the GPU executor: launch one kernel, plain or traced, on device
// pointers. The kernels are instantiated in one generated translation unit per kernel and
// build, as written and rewritten into views (gpu_launchers.h), the only ones nvcc compiles
// for them, so callers are plain C++ and need no CUDA compiler.
#pragma once
#include <string>

#include "kernels/launch_params.h"
#include "kernels/result.h"
#include "kernels/trace/trace_event.h"
#include "kernels/trace/trace_sink.h"

namespace tilescope {

// Where the traced kernels write: device pointers.
struct GpuTraceBuffers {
  Event* slots = nullptr;       // slotsPerThread events per thread of the grid, zeroed (Op::None)
  unsigned slotsPerThread = 0;
  unsigned* overflow = nullptr;  // one flag, zeroed
};

// Launches L on the default stream: the plain kernels when `trace` is null, else the
// traced ones writing into its device buffers.
// M, N, P are device pointers to at least the elements the kernel indexes (callers that
// run the unchecked tiled kernel on other sizes pad them). Checks the launch with
// cudaGetLastError; does not synchronize.
Status launchOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const GpuTraceBuffers* trace);

// What the compiled kernel of a launch asks of an SM, from cudaFuncGetAttributes, and how
// many of its blocks the runtime says fit on one SM
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor with L's block and dynamic shared memory).
// Nothing is launched.
struct GpuKernelAttributes {
  int registersPerThread = 0;
  int staticSharedBytes = 0;   // __shared__ arrays; the dynamic ones are L.dynamicSharedFloats
  int maxThreadsPerBlock = 0;  // for this kernel (registers can make it less than the device's)
  int localBytesPerThread = 0;  // spills and local arrays: 0 for every kernel here
  int activeBlocksPerSm = 0;   // the runtime's occupancy answer
};

// The attributes of L's plain instantiation (the file as written), or with `traced` of its
// rewritten one. The same Facts::launch as launchOnGpu, so the query and the launch cannot
// disagree on which function a KernelLaunch means.
Result<GpuKernelAttributes> gpuKernelAttributes(const KernelLaunch& L, bool traced);

// Whether the GPU build has an instantiation for this kernel and tile width.
bool gpuSupports(const KernelLaunch& L);

// The tile widths the compile-time tiled kernels are built for on the GPU, for messages.
std::string gpuTileWidthsText();
// "the GPU build has no instantiation of KERNEL for tile width T (built for ...)".
Error noGpuInstantiation(const KernelLaunch& L);

// The two builds, one translation unit each (launchOnGpu picks).
Status launchPlainOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P);
Status launchTracedOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink);
Result<GpuKernelAttributes> plainKernelAttributes(const KernelLaunch& L);
Result<GpuKernelAttributes> tracedKernelAttributes(const KernelLaunch& L);

}  // namespace tilescope
