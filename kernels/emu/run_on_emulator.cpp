#include "kernels/emu/run_on_emulator.h"

#include <limits>
#include <vector>

#include "kernels/catalog.h"
#include "kernels/kernel_facts.h"
#include "kernels/ladder/tensor_map_rules.h"
#include "kernels/trace/traced_surface.h"
#include "kernels/trace/arrivals_traced.h"  // after the surface: rung 9's counters over views

namespace tilescope::emulated {
#include "kernels_gen/all_traced.h"
#include "kernels/visit_kernel.h"
}  // namespace tilescope::emulated

namespace tilescope {

namespace {
// The emulator as the executor a kernel's Facts::launch calls.
struct EmulatorExec {
  struct Args {
    GlobalView<float> M, N, P;
  };
  template <class F>
  bool withTile(int tile, F&& f) {
    return withTileWidth(AllTileWidths{}, tile, f);
  }
  // A tensor map over a matrix (rung 8): refused here as cuTensorMapEncodeTiled would refuse it.
  TensorMapView tensorMap(const GlobalView<float>& matrix, int rows, int cols, int boxRows, int boxCols,
                          TileSwizzle swizzle) {
    const char* name = matrix.role() == MatrixRole::M ? "M" : "N";
    if (std::string problem = tensorMapProblem(name, rows, cols, boxRows, boxCols, swizzle);
        !problem.empty() && report.error.empty())
      report.error = problem;
    return tensorMapOf(matrix, rows, cols, boxRows, boxCols, swizzle);
  }
  // Rung 9's global workspace: partial sums (NaN until written, as a fresh shared slot is)
  // and zeroed flags, views of the launch's trace like M, N and P; generation 1, as the GPU's
  // traced launch (kernels/cuda/stream_k_workspace.h).
  WorkspaceViews workspace(const Args& a, std::size_t floats, std::size_t flags) {
    partialStore.assign(floats, std::numeric_limits<float>::quiet_NaN());
    flagStore.assign(flags, 0);
    return workspaceOf(a.P, partialStore.data(), (long long)floats, flagStore.data(), (long long)flags, 1);
  }
  template <class... Params, class... A>
  void launch(void (*kernel)(Params...), const KernelLaunch& L, A... args) {
    if (!report.error.empty()) return;  // a tensor map was refused
    emu::launchStopping(report, stopAfterBarriers, kernel, emu::Dim3{L.gridX, L.gridY, 1}, emu::Dim3{L.blockX, L.blockY, 1},
                std::size_t(L.dynamicSharedFloats) * sizeof(float), args...);
  }
  emu::Report report;
  int stopAfterBarriers = 0;  // runGrid's limit: 0 runs every block whole
  std::vector<float> partialStore;
  std::vector<int> flagStore;
};
}  // namespace

emu::Report runOnEmulator(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink* sink,
                          int stopAfterBarriers) {
  const TraceSink s = sink ? *sink : TraceSink{};
  // The book's kernels take `float* M`: the inputs are not written, but their type is not const.
  const EmulatorExec::Args args{
      GlobalView<float>(const_cast<float*>(M), (long long)L.j * L.k, MatrixRole::M, s),
      GlobalView<float>(const_cast<float*>(N), (long long)L.k * L.l, MatrixRole::N, s),
      GlobalView<float>(P, (long long)L.j * L.l, MatrixRole::P, s)};
  EmulatorExec exec;
  exec.stopAfterBarriers = stopAfterBarriers;
  const bool launched = emulated::visitKernel(L.kernel, [&](auto facts) { return facts.launch(exec, L, args); });
  if (!launched) exec.report.error = "the emulator has no instantiation for tile width " + std::to_string(L.tile);
  return std::move(exec.report);
}

bool emulatorSupports(const KernelLaunch& L) {
  return !kernelInfo(L.kernel).tileIsCompileTime || containsTileWidth(AllTileWidths{}, L.tile);
}

}  // namespace tilescope
