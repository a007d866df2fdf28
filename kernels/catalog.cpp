// The catalog: every kernel's facts, collected from the kernel files through the list in
// kernel_list.h. The kernels are compiled here only to read their Facts (nothing is
// instantiated), under the emulator's surface like in run_on_emulator.cpp.
#include "catalog.h"

#include "kernel_facts.h"
#include "traced_surface.h"

namespace tilescope::facts {
#include "kernels_gen/all_traced.h"
#include "visit_kernel.h"
}  // namespace tilescope::facts

namespace tilescope {

namespace {
template <std::size_t... I>
constexpr std::array<KernelInfo, kKernelCount> collectInfo(std::index_sequence<I...>) {
  return {facts::visitKernel(KernelId(I), [](auto f) { return decltype(f)::info; })...};
}
}  // namespace

const std::array<KernelInfo, kKernelCount> kKernels = collectInfo(std::make_index_sequence<kKernelCount>{});

LaunchShape kernelLaunchShape(const KernelLaunch& L) {
  return facts::visitKernel(L.kernel, [&](auto f) { return decltype(f)::shape(L); });
}

SharedTileLayout kernelSharedTiles(const KernelLaunch& L) {
  if (L.lab) return L.labTiles;
  return facts::visitKernel(L.kernel, [&](auto f) { return decltype(f)::tiles(L); });
}

std::array<SharedArrayFacts, kMaxSharedArrays> kernelSharedArrays(const KernelLaunch& L) {
  return facts::visitKernel(L.kernel, [&](auto f) { return decltype(f)::arrays(L); });
}

TraceSink traceSinkFor(const KernelLaunch& L, Event* slots, unsigned slotsPerThread, unsigned* overflow) {
  TraceSink sink;
  sink.slots = slots;
  sink.slotsPerThread = slotsPerThread;
  sink.overflow = overflow;
  sink.j = L.j;
  sink.k = L.k;
  sink.l = L.l;
  const auto arrays = kernelSharedArrays(L);
  for (int i = 0; i < kMaxSharedArrays; ++i) sink.shared[i] = arrays[std::size_t(i)];
  return sink;
}

}  // namespace tilescope
