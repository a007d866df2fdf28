// What a kernel file's facts build on. Each kernel file ends with `struct Facts`:
//   info                 name, description, flags, and for a bug its fixed twin and faulty lines
//   shape(L)             block, phases, trace slots per thread, dynamic shared memory
//   tiles(L)             where its tiles lie in shared memory (for the bank-conflict analysis)
//   arrays(L)            per shared array, in declaration order: which matrix it holds tiles of
//   launch(x, L, a)      which function runs, with which arguments (x: an executor)
// and, only where a kernel needs them (the catalog asks with `requires`; none is a default):
//   kTilings, tilingProblem(t)   the ladder's: the tilings it is built for, its own limits
//   schedule(L, device)          its own tiling and grid for j x k x l on a device, where the
//                                caller set neither (rung 9's selector); without it the
//                                caller's tiling or the default, one block per tile
// The families below give the defaults of the chapter's kernels; a file overrides what
// differs. Plain host C++ apart from launch(), which only the executors instantiate.
#pragma once
#include <string>
#include <utility>

#include "kernels/kernel_info.h"
#include "kernels/trace/trace_sink.h"
#include "kernels/ceil_div.h"
#include "kernels/launch_params.h"

namespace tilescope {

using SharedArrays = std::array<SharedArrayFacts, kMaxSharedArrays>;

// Fig. 5.9's family: a T x T block computes a T x T tile of P in ceil(k / T) phases. Per
// phase a thread loads one element of each tile, arrives at two barriers and reads T
// elements of each tile; at the end it stores P. Mds[T][T] then Nds[T][T], each tile row
// copied from one matrix row.
struct TileFamily {
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s;
    s.blockX = s.blockY = unsigned(L.tile);
    s.phases = ceilDiv(L.k, L.tile);
    s.eventsPerThread = unsigned(s.phases) * unsigned(4 + 2 * L.tile) + 1;
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) { return twoTiles(L.tile, L.tile, L.tile, L.tile); }
  static SharedArrays arrays(const KernelLaunch&) {
    return {{{MatrixRole::M, 0, true}, {MatrixRole::N, 0, true}}};
  }

  // Mds (rowsM x strideM floats) at byte 0, then Nds (rowsN x strideN floats).
  static SharedTileLayout twoTiles(int rowsM, int strideM, int rowsN, int strideN) {
    SharedTileLayout t;
    t.strideM = strideM;
    t.strideN = strideN;
    t.baseN = uint32_t(rowsM * strideM) * 4u;
    t.bytes = t.baseN + uint32_t(rowsN * strideN) * 4u;
    return t;
  }
};

// Kernels without shared memory: the block is as asked, and each thread walks all of k.
struct FreeBlockFamily {
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s;
    s.blockX = L.blockX;
    s.blockY = L.blockY;
    s.eventsPerThread = unsigned(2 * L.k + 1);  // a read of M and of N per step, one store
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch&) { return {}; }
  static SharedArrays arrays(const KernelLaunch&) { return {}; }
};

// The lectures' rectangular family: a bw x bh block, phases of TK = min(bw, bh) steps of k;
// per phase at most one load of each tile, two barriers and TK reads of each; Mds (bh x TK)
// then Nds (TK x bw) in the one dynamic array, after the extern array itself.
struct RectFamily {
  static int phaseWidth(const KernelLaunch& L) { return int(L.blockX < L.blockY ? L.blockX : L.blockY); }
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s = FreeBlockFamily::shape(L);
    const int tk = phaseWidth(L);
    s.phases = ceilDiv(L.k, tk);
    s.eventsPerThread = unsigned(s.phases) * unsigned(4 + 2 * tk) + 1;
    s.dynamicSharedFloats = unsigned(int(L.blockY) * tk + tk * int(L.blockX));
    return s;
  }
  static SharedTileLayout tiles(const KernelLaunch& L) {
    const int tk = phaseWidth(L);
    return TileFamily::twoTiles(int(L.blockY), tk, tk, int(L.blockX));
  }
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, phaseWidth(L), true}, {MatrixRole::N, int(L.blockX), true}}};
  }
};

// The ladder's register-tiled kernels: a one-dimensional block of (bm/tm) x (bn/tn) threads
// computes a bm x bn tile of P, bk steps of k per phase. A file lists the tilings it is built
// for (kTilings, the H100's first) and may add its own limits (tilingProblem).
struct RegisterTileFamily {
  static unsigned threads(const Tiling& t) { return unsigned((t.bm / t.tm) * (t.bn / t.tn)); }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s;
    s.blockX = threads(t);
    s.gridX = unsigned(ceilDiv(L.l, t.bn));
    s.gridY = unsigned(ceilDiv(L.j, t.bm));
    s.phases = ceilDiv(L.k, t.bk);
    const int n = int(s.blockX);
    // Per phase: its share of both tiles (a read, and the write into shared memory when it
    // went through registers), the barriers, and the fragments of the register tile per step.
    const int loads = ceilDiv(t.bm * t.bk, n) + ceilDiv(t.bk * t.bn, n);
    s.eventsPerThread = unsigned(s.phases) * unsigned(2 * loads + 2 + t.bk * (t.tm + t.tn)) + unsigned(t.tm * t.tn) + 2;
    return s;
  }
  static std::string tilingProblem(const Tiling&) { return {}; }

  // The 128-bit rungs: 4-wide pieces everywhere, and the shared memory a block may have.
  static std::string vectorTilingProblem(const Tiling& t, int sharedBytes, int sharedLimit) {
    if (t.tm % 4 || t.tn % 4) return "thread tiles are made of 4 x 4 pieces: tm and tn must be multiples of 4";
    if (t.bk % 4 || t.bn % 4) return "tiles are loaded as float4s: bk and bn must be multiples of 4";
    if (sharedBytes > sharedLimit)
      return "its tiles need " + std::to_string(sharedBytes) + " bytes of shared memory, over the limit of " +
             std::to_string(sharedLimit) + (sharedLimit == kMaxStaticSharedBytes ? " for static shared memory" : " per block");
    return {};
  }
  static std::string warpTilingProblem(const Tiling& t, int sharedBytes, int sharedLimit) {
    if (!t.wm || !t.wn) return "a warp tile is needed: BMxBNxBK/WMxWN/TMxTN";
    return vectorTilingProblem(t, sharedBytes, sharedLimit);
  }
};

// Calls f(std::integral_constant<std::size_t, I>{}) for the I with built[I] == t; false if none.
template <std::size_t N, class F>
bool withTiling(const std::array<Tiling, N>& built, const Tiling& t, F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return ((built[I] == t ? (f(std::integral_constant<std::size_t, I>{}), true) : false) || ...);
  }(std::make_index_sequence<N>{});
}

// Calls f(std::integral_constant<int, T>{}) for the T in List equal to `tile`; false if none.
template <int... Ts, class F>
bool withTileWidth(std::integer_sequence<int, Ts...>, int tile, F&& f) {
  return ((tile == Ts ? (f(std::integral_constant<int, Ts>{}), true) : false) || ...);
}
template <int... Ts>
constexpr bool containsTileWidth(std::integer_sequence<int, Ts...>, int tile) {
  return ((tile == Ts) || ...);
}

// Compile-time tile widths. The emulator instantiates every width a slider can reach; nvcc
// builds a short list to keep GPU builds fast (tiled-dynamic covers any width there).
using AllTileWidths = std::integer_sequence<int, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                            20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32>;
using GpuTileWidths = std::integer_sequence<int, 1, 2, 3, 4, 8, 16, 32>;

}  // namespace tilescope
