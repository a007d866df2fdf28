#include "run_on_emulator.h"

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
