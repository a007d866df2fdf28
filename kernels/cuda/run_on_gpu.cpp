// The GPU executor's dispatcher: picks a kernel's launcher (gpu_launchers.h) by KernelId.
// The kernels themselves are compiled in one translation unit per kernel and build (plain,
// traced), generated from kernel_list.h, so this file is plain C++.
#include <string>
#include <utility>

#include "kernels/cuda/gpu_launchers.h"
#include "kernels/kernel_facts.h"

namespace tilescope {

namespace {
const PlainGpuLauncher& plainLauncher(KernelId id) {
  switch (id) {
#define TILESCOPE_PLAIN_CASE(id, room, file) \
  case KernelId::id:                         \
    return plain::launcher_##file;
    TILESCOPE_KERNELS(TILESCOPE_PLAIN_CASE)
#undef TILESCOPE_PLAIN_CASE
  }
  return plain::launcher_naive;  // not reached: the switch names every kernel
}

const TracedGpuLauncher& tracedLauncher(KernelId id) {
  switch (id) {
#define TILESCOPE_TRACED_CASE(id, room, file) \
  case KernelId::id:                          \
    return traced::launcher_##file;
    TILESCOPE_KERNELS(TILESCOPE_TRACED_CASE)
#undef TILESCOPE_TRACED_CASE
  }
  return traced::launcher_naive;  // not reached: the switch names every kernel
}

template <int... Ts>
std::string widthList(std::integer_sequence<int, Ts...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") + std::to_string(Ts)), ...);
  return s;
}
}  // namespace

Status launchPlainOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P) {
  return plainLauncher(L.kernel).launch(L, M, N, P);
}

Status launchTracedOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink) {
  return tracedLauncher(L.kernel).launch(L, M, N, P, sink);
}

Result<GpuKernelAttributes> plainKernelAttributes(const KernelLaunch& L) { return plainLauncher(L.kernel).attributes(L); }

Result<GpuKernelAttributes> tracedKernelAttributes(const KernelLaunch& L) {
  return tracedLauncher(L.kernel).attributes(L);
}

Status launchOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const GpuTraceBuffers* trace) {
  if (!trace) return launchPlainOnGpu(L, M, N, P);
  return launchTracedOnGpu(L, M, N, P, traceSinkFor(L, trace->slots, trace->slotsPerThread, trace->overflow));
}

Result<GpuKernelAttributes> gpuKernelAttributes(const KernelLaunch& L, bool traced) {
  return traced ? tracedKernelAttributes(L) : plainKernelAttributes(L);
}

bool gpuSupports(const KernelLaunch& L) {
  return !kernelInfo(L.kernel).tileIsCompileTime || containsTileWidth(GpuTileWidths{}, L.tile);
}

std::string gpuTileWidthsText() { return "T = " + widthList(GpuTileWidths{}); }

}  // namespace tilescope
