#include "run_on_emulator.h"

#include "emu_types.h"

namespace tilescope {
// The dynamic shared memory of fig. 5.14 (`extern __shared__ float Mds_Nds[]`): with
// __shared__ as thread_local, the kernel's block-scope extern declaration names this array.
// It is defined here, next to the kernels, so the compiler sees it needs no dynamic
// initialisation when the kernels touch it.
constinit thread_local float Mds_Nds[kEmuDynamicSharedFloats] = {};
}  // namespace tilescope

#include "../launch.h"

namespace tilescope {

emu::Report runOnEmulator(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink* sink) {
  emu::Executor exec;
  const emu::CheckedPtr<const float> m(M, long(L.j) * L.k, "M");
  const emu::CheckedPtr<const float> n(N, long(L.k) * L.l, "N");
  const emu::CheckedPtr<float> p(P, long(L.j) * L.l, "P");
  const bool launched = sink ? launchKernel<AllTileWidths>(exec, L, m, n, p, TraceProbe(*sink))
                             : launchKernel<AllTileWidths>(exec, L, m, n, p, NoProbe{});
  if (!launched) exec.report.error = "the emulator has no instantiation for tile width " + std::to_string(L.tile);
  return std::move(exec.report);
}

bool emulatorSupports(const KernelLaunch& L) {
  return !kernelInfo(L.kernel).tileIsCompileTime || containsTileWidth(AllTileWidths{}, L.tile);
}

}  // namespace tilescope
