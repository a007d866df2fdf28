// What kernels exist and what each needs. Plain host C++ (no CUDA surface), shared by the
// launchers, the core and the UI. The facts themselves live beside each kernel, in its
// file (kernels/*.cuh); catalog.cpp collects them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kernels/kernel_info.h"
#include "kernels/launch_params.h"
#include "kernels/trace/trace_sink.h"

namespace tilescope {

extern const std::array<KernelInfo, kKernelCount> kKernels;

inline const KernelInfo& kernelInfo(KernelId id) { return kKernels[static_cast<std::size_t>(id)]; }

inline std::optional<KernelId> kernelByName(std::string_view name) {
  for (const auto& k : kKernels)
    if (k.name == name) return k.id;
  return std::nullopt;
}

// The ladder's kernels: the tilings a kernel is built for (empty for the others), the one it
// runs when none is asked for (the first that fits inside a j x l P, else its smallest), and
// why a tiling cannot run ("" when it can), naming the limit.
std::span<const Tiling> kernelTilings(KernelId id);
Tiling kernelDefaultTiling(KernelId id, int j, int l);
std::string kernelTilingProblem(KernelId id, const Tiling& t);

HandResources kernelHandResources(const KernelLaunch& L);
// `L` holds the kernel, j, k, l, the tile width or the asked block, and the pad.
LaunchShape kernelLaunchShape(const KernelLaunch& L);
SharedTileLayout kernelSharedTiles(const KernelLaunch& L);
// Per shared array, in declaration order: the recorder's facts (kernels/trace/trace_sink.h).
std::array<SharedArrayFacts, kMaxSharedArrays> kernelSharedArrays(const KernelLaunch& L);

// The kernel's own schedule for `asked` (its kernel, j, k, l) on `device`, where the caller set
// neither tiling nor grid: its Facts::schedule hook (rung 9's selector). Nothing for a kernel
// whose facts have none, the default: it runs the caller's tiling or its default tiling, one
// block per tile. kernelHasSchedule says whether asking a device is worth it at all.
std::optional<KernelSchedule> kernelSchedule(const KernelLaunch& asked, const ScheduleDevice& device);
bool kernelHasSchedule(KernelId id);

// The sink a traced launch of L writes into: the slots, and what L's facts say of its arrays.
TraceSink traceSinkFor(const KernelLaunch& L, Event* slots, unsigned slotsPerThread, unsigned* overflow);

}  // namespace tilescope
