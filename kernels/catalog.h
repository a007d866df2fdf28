// What kernels exist and what each needs: the one place that knows the kernel list.
// Plain host C++ (no CUDA surface), shared by the launchers, the core and the UI.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilescope {

enum class KernelId : uint8_t {
  Naive,
  Tiled,
  TiledBounds,
  TiledDynamic,
  TiledNoFirstSync,   // analysis: fig. 5.9 minus its read-after-write barrier
  TiledNoSecondSync,  // analysis: fig. 5.9 minus its write-after-read barrier
  TiledTransposed,    // analysis: N tile stored transposed, row stride T + pad (bank conflicts)
  TiledRect,          // teaching: rectangular bw x bh blocks, linear thread index (lecture style)
  BugKTypo,           // teaching: bug gallery, k loop reads Mds[ty][tx] * Nds[ty][tx]
  BugSyncInK,         // teaching: bug gallery, barrier inside the k loop, store inside the phase loop
  BugRectIndex,       // teaching: bug gallery, tiled-rect with li = ty * blockDim.y + tx
  BugSquareGrid,      // teaching: bug gallery, tiled-bounds walking gridDim.x phases
};

struct KernelInfo {
  KernelId id;
  std::string_view name;         // as typed on the command line
  std::string_view description;  // one line
  std::string_view sourceFile;   // header under kernels/
  bool tiled;                    // block = tile, tile width T applies
  bool needsMultipleOfTile;      // correct only when every dimension is a multiple of T
  bool tileIsCompileTime;        // T is a template argument (instantiated for a fixed list)
};

inline constexpr std::array<KernelInfo, 12> kKernels{{
    {KernelId::Naive, "naive", "one thread per P element, reads straight from global memory (lecture gemm_simple)",
     "naive.cuh", false, false, false},
    {KernelId::Tiled, "tiled", "T x T shared-memory tiles, no boundary checks (fig. 5.9)", "tiled.cuh", true, true,
     true},
    {KernelId::TiledBounds, "tiled-bounds", "tiled with boundary checks, any j x k x l (fig. 5.13 generalised)",
     "tiled_bounds.cuh", true, false, true},
    {KernelId::TiledDynamic, "tiled-dynamic",
     "tiled-bounds with one dynamically sized extern __shared__ array (fig. 5.14)", "tiled_dynamic.cuh", true, false,
     false},
    {KernelId::TiledNoFirstSync, "tiled-no-first-sync",
     "tiled without the read-after-write barrier: a race (the hazards lesson)", "tiled_no_first_sync.cuh", true, true,
     true},
    {KernelId::TiledNoSecondSync, "tiled-no-second-sync",
     "tiled without the write-after-read barrier: a race once k > T (the hazards lesson)", "tiled_no_second_sync.cuh",
     true, true, true},
    {KernelId::TiledTransposed, "tiled-transposed",
     "tiled-dynamic with the N tile stored transposed, row stride T+pad (the bank-conflict lesson)",
     "tiled_transposed.cuh", true, false, false},
    {KernelId::TiledRect, "tiled-rect",
     "rectangular bw x bh block (--block), phases of min(bw, bh), tiles loaded by linear thread number (lecture style)",
     "tiled_rect.cuh", false, false, false},
    {KernelId::BugKTypo, "bug-k-typo", "bug gallery: tiled with Mds[ty][tx] * Nds[ty][tx] in the k loop (study notes)",
     "bug_k_typo.cuh", true, true, true},
    {KernelId::BugSyncInK, "bug-sync-in-k",
     "bug gallery: tiled with a barrier inside the k loop and P stored every phase (tutorial)", "bug_sync_in_k.cuh",
     true, true, true},
    {KernelId::BugRectIndex, "bug-rect-index",
     "bug gallery: tiled-rect with li = ty * blockDim.y + tx, wrong for non-square blocks (lecture)",
     "bug_rect_index.cuh", false, false, false},
    {KernelId::BugSquareGrid, "bug-square-grid",
     "bug gallery: tiled-bounds walking gridDim.x phases instead of ceil(k / T) (lecture)", "bug_square_grid.cuh",
     true, false, true},
}};

inline const KernelInfo& kernelInfo(KernelId id) { return kKernels[static_cast<size_t>(id)]; }

inline std::optional<KernelId> kernelByName(std::string_view name) {
  for (const auto& k : kKernels)
    if (k.name == name) return k.id;
  return std::nullopt;
}

// Limits every front end checks before launching.
inline constexpr int kWarpSize = 32;                // threads per warp on every NVIDIA GPU
inline constexpr int kMaxTileWidth = 32;            // T x T threads must fit 1024 threads per block
inline constexpr int kMaxThreadsPerBlock = 1024;    // CUDA's limit on every current GPU
inline constexpr int kMaxGridDim = 65535;           // gridDim.y limit (and our 16-bit trace fields)

}  // namespace tilescope
