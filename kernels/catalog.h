// What kernels exist and what each needs: the one place that knows the kernel list.
// Plain host C++ (no CUDA surface), shared by the launchers, the core and the UI.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilescope {

enum class KernelId : uint8_t { Naive, Tiled, TiledBounds, TiledDynamic };

struct KernelInfo {
  KernelId id;
  std::string_view name;         // as typed on the command line
  std::string_view description;  // one line
  std::string_view sourceFile;   // header under kernels/
  bool tiled;                    // block = tile, tile width T applies
  bool needsMultipleOfTile;      // correct only when every dimension is a multiple of T
  bool tileIsCompileTime;        // T is a template argument (instantiated for a fixed list)
};

inline constexpr std::array<KernelInfo, 4> kKernels{{
    {KernelId::Naive, "naive", "one thread per P element, reads straight from global memory (lecture gemm_simple)",
     "naive.cuh", false, false, false},
    {KernelId::Tiled, "tiled", "T x T shared-memory tiles, no boundary checks (fig. 5.9)", "tiled.cuh", true, true,
     true},
    {KernelId::TiledBounds, "tiled-bounds", "tiled with boundary checks, any j x k x l (fig. 5.13 generalised)",
     "tiled_bounds.cuh", true, false, true},
    {KernelId::TiledDynamic, "tiled-dynamic",
     "tiled-bounds with one dynamically sized extern __shared__ array (fig. 5.14)", "tiled_dynamic.cuh", true, false,
     false},
}};

inline const KernelInfo& kernelInfo(KernelId id) { return kKernels[static_cast<size_t>(id)]; }

inline std::optional<KernelId> kernelByName(std::string_view name) {
  for (const auto& k : kKernels)
    if (k.name == name) return k.id;
  return std::nullopt;
}

// Limits every front end checks before launching.
inline constexpr int kMaxTileWidth = 32;            // T x T threads must fit 1024 threads per block
inline constexpr int kMaxThreadsPerBlock = 1024;    // CUDA's limit on every current GPU
inline constexpr int kMaxGridDim = 65535;           // gridDim.y limit (and our 16-bit trace fields)

}  // namespace tilescope
