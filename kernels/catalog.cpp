// The catalog: every kernel's facts, collected from the kernel files through the list in
// kernel_list.h. The kernels are compiled here only to read their Facts (nothing is
// instantiated), under the emulator's surface like in run_on_emulator.cpp.
#include "kernels/catalog.h"

#include "kernels/kernel_facts.h"
#include "kernels/trace/traced_surface.h"
#include "kernels/trace/arrivals_traced.h"  // after the surface: rung 9's counters over views

namespace tilescope::facts {
#include "kernels_gen/all_traced.h"
#include "kernels/visit_kernel.h"
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

HandResources kernelHandResources(const KernelLaunch& L) {
  return facts::visitKernel(L.kernel, [&](auto f) { return decltype(f)::handResources(L); });
}

SharedTileLayout kernelSharedTiles(const KernelLaunch& L) {
  if (L.labTiles) return *L.labTiles;
  return facts::visitKernel(L.kernel, [&](auto f) { return decltype(f)::tiles(L); });
}

std::array<SharedArrayFacts, kMaxSharedArrays> kernelSharedArrays(const KernelLaunch& L) {
  return facts::visitKernel(L.kernel, [&](auto f) { return decltype(f)::arrays(L); });
}

std::span<const Tiling> kernelTilings(KernelId id) {
  return facts::visitKernel(id, [](auto f) -> std::span<const Tiling> {
    using F = decltype(f);
    if constexpr (requires { F::kTilings; }) return F::kTilings;
    else return {};
  });
}

Tiling kernelDefaultTiling(KernelId id, int j, int l) {
  const auto built = kernelTilings(id);
  if (built.empty()) return {};
  const Tiling* smallest = &built[0];
  for (const Tiling& t : built) {
    if (t.bm <= j && t.bn <= l) return t;
    if (t.bm * t.bn < smallest->bm * smallest->bn) smallest = &t;
  }
  return *smallest;
}

std::string tilingText(const Tiling& t) {
  auto x = [](int a, int b) { return std::to_string(a) + "x" + std::to_string(b); };
  std::string s = x(t.bm, t.bn) + "x" + std::to_string(t.bk);
  if (t.wm || t.wn) s += "/" + x(t.wm, t.wn);
  return s + "/" + x(t.tm, t.tn);
}

std::string kernelTilingProblem(KernelId id, const Tiling& t) {
  const auto built = kernelTilings(id);
  const std::string name(kernelInfo(id).name);
  if (built.empty()) return name + " takes no tiling: only the ladder's register-tiled kernels do";
  const std::string text = tilingText(t);
  for (int v : {t.bm, t.bn, t.bk, t.tm, t.tn})
    if (v < 1) return "tiling " + text + ": every block and thread tile side must be at least 1";
  if (t.bm % t.tm || t.bn % t.tn)
    return "tiling " + text + ": the thread tile " + std::to_string(t.tm) + "x" + std::to_string(t.tn) +
           " must divide the block tile " + std::to_string(t.bm) + "x" + std::to_string(t.bn);
  if (t.tm * t.tn > kMaxAccumulators)
    return "tiling " + text + ": a " + std::to_string(t.tm) + "x" + std::to_string(t.tn) + " thread tile needs " +
           std::to_string(t.tm * t.tn) + " accumulator registers, over the " + std::to_string(kMaxAccumulators) +
           " that leave room for fragments within 255 registers per thread";
  if (t.wm || t.wn) {
    if (t.wm < t.tm || t.wn < t.tn || t.bm % t.wm || t.bn % t.wn || t.wm % t.tm || t.wn % t.tn)
      return "tiling " + text + ": the warp tile must divide the block tile and be divided by the thread tile";
    if ((t.wm / t.tm) * (t.wn / t.tn) != kWarpSize)
      return "tiling " + text + ": a " + std::to_string(t.wm) + "x" + std::to_string(t.wn) + " warp tile of " +
             std::to_string(t.tm) + "x" + std::to_string(t.tn) + " thread tiles has " +
             std::to_string((t.wm / t.tm) * (t.wn / t.tn)) + " lanes, a warp has " + std::to_string(kWarpSize);
  }
  const int threads = (t.bm / t.tm) * (t.bn / t.tn);
  if (threads > kMaxThreadsPerBlock)
    return "tiling " + text + " needs " + std::to_string(threads) + " threads per block, over the limit of " +
           std::to_string(kMaxThreadsPerBlock);
  std::string own = facts::visitKernel(id, [&](auto f) -> std::string {
    using F = decltype(f);
    if constexpr (requires { F::tilingProblem(t); }) return F::tilingProblem(t);
    else return {};
  });
  if (!own.empty()) return "tiling " + text + ": " + own;
  std::string list;
  for (const Tiling& b : built) {
    if (b == t) return {};
    list += (list.empty() ? "" : ", ") + tilingText(b);
  }
  return "tiling " + text + " is within every limit of " + name + " but not built: it is built for " + list +
         " (add it to kTilings in kernels/" + std::string(kernelInfo(id).sourceFile) + ")";
}

std::optional<KernelSchedule> kernelSchedule(const KernelLaunch& asked, const ScheduleDevice& device) {
  return facts::visitKernel(asked.kernel, [&](auto f) -> std::optional<KernelSchedule> {
    using F = decltype(f);
    if constexpr (requires { F::schedule(asked, device); }) return F::schedule(asked, device);
    else return std::nullopt;
  });
}

bool kernelHasSchedule(KernelId id) {
  return facts::visitKernel(id, [](auto f) {
    using F = decltype(f);
    return requires(const KernelLaunch& L, const ScheduleDevice& d) { F::schedule(L, d); };
  });
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
