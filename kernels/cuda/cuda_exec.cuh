// The GPU as the executor a kernel's Facts::launch calls: one that launches through
// <<< >>>, and one that launches nothing and asks the runtime about the function instead.
// Shared by the plain and the traced launchers (plain_launcher.cuh, traced_launcher.cuh),
// which differ only in the kernels they include and in Args.
#pragma once
#include <cuda_runtime.h>

#include <optional>
#include <type_traits>

#include "kernels/cuda/cuda_check.h"
#include "kernels/catalog.h"
#include "kernels/kernel_facts.h"
#include "kernels/cuda/run_on_gpu.h"
#include "kernels/cuda/stream_k_workspace.h"
#include "kernels/cuda/tensor_map.h"

namespace tilescope::cuda {

// Rung 9's workspace as its kernel takes it: the device pointers for the plain build, views
// over them in the launch's trace for the traced build (kernels/trace/arrivals_traced.h).
template <class V>
auto workspaceFor(const V& p, const DeviceWorkspace& w, std::size_t floats, std::size_t flags) {
  if constexpr (std::is_pointer_v<V>) return w;
  else return workspaceOf(p, w.partials, (long long)floats, w.flags, (long long)flags, w.generation);
}

// More than 48 KiB of dynamic shared memory (the ladder's top rung) needs the kernel's
// opt-in first; below that nothing is asked.
template <class... Params>
Status allowDynamicShared(void (*kernel)(Params...), const KernelLaunch& L) {
  const std::size_t bytes = std::size_t(L.dynamicSharedFloats) * sizeof(float);
  if (bytes <= std::size_t(kMaxStaticSharedBytes)) return Ok{};
  return check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)),
               "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
}

// A launch error (bad configuration, too much shared memory) is reported by
// cudaGetLastError right after <<< >>>; errors while the kernel runs come later, at the
// caller's next synchronizing call, which is checked there.
template <class ArgsT>
struct LaunchExec {
  using Args = ArgsT;
  template <class F>
  bool withTile(int tile, F&& f) {
    return withTileWidth(GpuTileWidths{}, tile, f);
  }
  // A tensor map over matrix argument `matrix` (rung 8): the real map for a pointer, and for
  // a traced view the map with its matrix (kernels/trace/views_tma.h). A refusal (below sm_90, a
  // row stride the copy engine cannot take) is kept, and the launch then does not happen.
  template <class V>
  auto tensorMap(const V& matrix, int rows, int cols, int boxRows, int boxCols, TileSwizzle swizzle) {
    if constexpr (std::is_pointer_v<V>) {
      CUtensorMap m{};
      keep(encodeTileMap(m, matrix, nameOf(matrix), rows, cols, boxRows, boxCols, swizzle));
      return m;
    } else {
      auto m = tensorMapOf(matrix, rows, cols, boxRows, boxCols, swizzle);
      keep(encodeTileMap(m.map, m.base, m.role == MatrixRole::M ? "M" : "N", rows, cols, boxRows, boxCols, swizzle));
      return m;
    }
  }
  // A traced launch starts its flags afresh at generation 1, as the emulator's does, so the
  // values its trace records are the emulator's; a plain one takes the next generation.
  template <class A>
  auto workspace(const A& a, std::size_t floats, std::size_t flags) {
    Result<DeviceWorkspace> w = streamKWorkspace(floats, flags, !std::is_pointer_v<decltype(a.P)>);
    if (!w) keep(w.error());
    return workspaceFor(a.P, w ? *w : DeviceWorkspace{}, floats, flags);
  }
  template <class... Params, class... A>
  void launch(void (*kernel)(Params...), const KernelLaunch& L, A... args) {
    if (refused) return;
    if (std::size_t(L.dynamicSharedFloats) * sizeof(float) > std::size_t(kMaxStaticSharedBytes)) {
      error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   int(std::size_t(L.dynamicSharedFloats) * sizeof(float)));
      if (error != cudaSuccess) return;
    }
    kernel<<<dim3(L.gridX, L.gridY), dim3(L.blockX, L.blockY), std::size_t(L.dynamicSharedFloats) * sizeof(float)>>>(
        args...);
    error = cudaGetLastError();
  }
  cudaError_t error = cudaSuccess;
  std::optional<Error> refused;  // the first tensor map that could not be made

 private:
  void keep(Status s) {
    if (!s && !refused) refused = s.error();
  }
  // Plain arguments are M then N in every rung that makes maps; only messages use the name.
  const char* nameOf(const float*) { return maps++ == 0 ? "M" : "N"; }
  int maps = 0;
};

// Launches nothing: asks the runtime about the function that would have been launched,
// with the block and dynamic shared memory of the launch.
template <class ArgsT>
struct AttributeExec {
  using Args = ArgsT;
  template <class F>
  bool withTile(int tile, F&& f) {
    return withTileWidth(GpuTileWidths{}, tile, f);
  }
  // Nothing is launched, so no map is made: an empty one of the right type.
  template <class V>
  auto tensorMap(const V& matrix, int rows, int cols, int boxRows, int boxCols, TileSwizzle swizzle) {
    if constexpr (std::is_pointer_v<V>) return CUtensorMap{};
    else return tensorMapOf(matrix, rows, cols, boxRows, boxCols, swizzle);
  }
  template <class A>
  auto workspace(const A& a, std::size_t floats, std::size_t flags) {
    return workspaceFor(a.P, DeviceWorkspace{}, floats, flags);  // nothing runs: no memory
  }
  template <class... Params, class... A>
  void launch(void (*kernel)(Params...), const KernelLaunch& L, A...) {
    cudaFuncAttributes attr{};
    if (Status s = allowDynamicShared(kernel, L); !s) {
      error = s.error();
      return;
    }
    if (Status s = check(cudaFuncGetAttributes(&attr, kernel), "cudaFuncGetAttributes"); !s) {
      error = s.error();
      return;
    }
    out.registersPerThread = attr.numRegs;
    out.staticSharedBytes = int(attr.sharedSizeBytes);
    out.maxThreadsPerBlock = attr.maxThreadsPerBlock;
    out.localBytesPerThread = int(attr.localSizeBytes);
    if (Status s = check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out.activeBlocksPerSm, kernel,
                                                                       int(L.blockX * L.blockY),
                                                                       std::size_t(L.dynamicSharedFloats) * sizeof(float)),
                         "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        !s)
      error = s.error();
  }
  std::optional<Error> error;  // the first CUDA call that failed
  GpuKernelAttributes out;
};

// One part's launch and attribute query (plain_launcher.cuh, traced_launcher.cuh): nullopt
// when Facts::launch has no instantiation for L in this unit (another part may have it).
template <class Facts, class Args>
std::optional<Status> launchWith(const KernelLaunch& L, const Args& args, const char* what) {
  LaunchExec<Args> exec;
  if (!Facts::launch(exec, L, args)) return std::nullopt;
  if (exec.refused) return Status(*exec.refused);
  return check(exec.error, what);
}

template <class Facts, class Args>
std::optional<Result<GpuKernelAttributes>> attributesWith(const KernelLaunch& L) {
  AttributeExec<Args> exec;
  if (!Facts::launch(exec, L, Args{})) return std::nullopt;
  if (exec.error) return Result<GpuKernelAttributes>(*exec.error);
  return Result<GpuKernelAttributes>(exec.out);
}

}  // namespace tilescope::cuda
