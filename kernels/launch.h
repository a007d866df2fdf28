// Launch code shared by both executors: which template instantiation runs, with which
// grid, block and arguments. An Exec supplies the pointer types and launch():
//   CudaExec (kernels/cuda) launches with <<< >>>; emu::Executor runs the CPU emulator.
// Kernel headers hold no launch code; this is the only place that maps a KernelId to one.
#pragma once
#include <utility>

#include "catalog.h"
#include "launch_params.h"
#include "naive.cuh"
#include "tiled.cuh"
#include "tiled_bounds.cuh"
#include "tiled_dynamic.cuh"
#include "tiled_no_first_sync.cuh"
#include "tiled_no_second_sync.cuh"
#include "tiled_transposed.cuh"
#include "tiled_rect.cuh"
#include "bug_k_typo.cuh"
#include "bug_sync_in_k.cuh"
#include "bug_rect_index.cuh"
#include "bug_square_grid.cuh"

namespace tilescope {

// Compile-time tile widths. The emulator instantiates every width a slider can reach; nvcc
// builds a short list to keep GPU builds fast (tiled-dynamic covers any width there).
using AllTileWidths = std::integer_sequence<int, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                            20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32>;
using GpuTileWidths = std::integer_sequence<int, 1, 2, 3, 4, 8, 16, 32>;

// Calls f(std::integral_constant<int, T>{}) for the T in List equal to `tile`; false if none.
template <int... Ts, class F>
bool withTileWidth(std::integer_sequence<int, Ts...>, int tile, F&& f) {
  return ((tile == Ts ? (f(std::integral_constant<int, Ts>{}), true) : false) || ...);
}

template <int... Ts>
constexpr bool containsTileWidth(std::integer_sequence<int, Ts...>, int tile) {
  return ((tile == Ts) || ...);
}

// Launches `L` on `exec`. Returns false when the tile width is not instantiated in TileList.
template <class TileList, class Exec, class Probe>
bool launchKernel(Exec& exec, const KernelLaunch& L, typename Exec::template Ptr<const float> M,
                  typename Exec::template Ptr<const float> N, typename Exec::template Ptr<float> P, Probe probe) {
  const typename Exec::Dim grid{L.gridX, L.gridY, 1};
  const typename Exec::Dim block{L.blockX, L.blockY, 1};
  switch (L.kernel) {
    case KernelId::Naive:
      exec.launch(naiveKernel<Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      return true;
    case KernelId::Tiled:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(tiledKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
    case KernelId::TiledBounds:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(tiledBoundsKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
    case KernelId::TiledDynamic: {
      const unsigned tileFloats = unsigned(L.tile * L.tile);
      exec.launch(tiledDynamicKernel<Probe>, grid, block, L.dynamicSharedFloats * sizeof(float), M, N, P, L.j, L.k,
                  L.l, L.tile, tileFloats, tileFloats, probe);
      return true;
    }
    case KernelId::TiledNoFirstSync:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(tiledNoFirstSyncKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
    case KernelId::TiledNoSecondSync:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(tiledNoSecondSyncKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
    case KernelId::TiledTransposed:
      exec.launch(tiledTransposedKernel<Probe>, grid, block, L.dynamicSharedFloats * sizeof(float), M, N, P, L.j, L.k,
                  L.l, L.tile, L.pad, probe);
      return true;
    case KernelId::TiledRect:
      exec.launch(tiledRectKernel<Probe>, grid, block, L.dynamicSharedFloats * sizeof(float), M, N, P, L.j, L.k, L.l,
                  probe);
      return true;
    case KernelId::BugRectIndex:
      exec.launch(bugRectIndexKernel<Probe>, grid, block, L.dynamicSharedFloats * sizeof(float), M, N, P, L.j, L.k,
                  L.l, probe);
      return true;
    case KernelId::BugKTypo:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(bugKTypoKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
    case KernelId::BugSyncInK:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(bugSyncInKKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
    case KernelId::BugSquareGrid:
      return withTileWidth(TileList{}, L.tile, [&](auto T) {
        exec.launch(bugSquareGridKernel<decltype(T)::value, Probe>, grid, block, 0, M, N, P, L.j, L.k, L.l, probe);
      });
  }
  return false;
}

}  // namespace tilescope
