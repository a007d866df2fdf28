// The GPU executor's dispatcher: asks a kernel's parts (gpu_launchers.h) by KernelId. The
// kernels themselves are compiled in generated translation units, one per kernel and build
// (and tiling, for a kernel built for several), so this file is plain C++.
#include <string>
#include <utility>

#include "kernels/cuda/gpu_launchers.h"
#include "kernels/kernel_facts.h"

namespace tilescope {

namespace {
// The first part of L's kernel that was built for L answers; none: the build lacks it.
template <class Out, class Parts, class Ask>
Out askParts(const KernelLaunch& L, const Parts& parts, Ask ask) {
  for (const auto* part : parts)
    if (part)
      if (std::optional<Out> out = ask(*part)) return std::move(*out);
  return noGpuInstantiation(L);
}

const GpuKernelParts& partsOf(KernelId id) { return kGpuKernelParts[int(id)]; }

template <int... Ts>
std::string widthList(std::integer_sequence<int, Ts...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") + std::to_string(Ts)), ...);
  return s;
}
}  // namespace

Status launchPlainOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P) {
  return askParts<Status>(L, partsOf(L.kernel).plain,
                          [&](const PlainGpuPart& p) { return p.launch(L, M, N, P); });
}

Status launchTracedOnGpu(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink& sink) {
  return askParts<Status>(L, partsOf(L.kernel).traced,
                          [&](const TracedGpuPart& p) { return p.launch(L, M, N, P, sink); });
}

Result<GpuKernelAttributes> plainKernelAttributes(const KernelLaunch& L) {
  return askParts<Result<GpuKernelAttributes>>(
      L, partsOf(L.kernel).plain, [&](const PlainGpuPart& p) { return p.attributes(L); });
}

Result<GpuKernelAttributes> tracedKernelAttributes(const KernelLaunch& L) {
  return askParts<Result<GpuKernelAttributes>>(
      L, partsOf(L.kernel).traced, [&](const TracedGpuPart& p) { return p.attributes(L); });
}

Error noGpuInstantiation(const KernelLaunch& L) {
  return invalidInput("the GPU build has no instantiation of " + std::string(kernelInfo(L.kernel).name) +
                      " for tile width " + std::to_string(L.tile) + " (built for " + gpuTileWidthsText() +
                      "; tiled-dynamic takes any width)");
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
