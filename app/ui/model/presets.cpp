#include "ui/model/presets.h"

#include <array>

namespace tilescope::ui {
namespace {

constexpr LaunchConfig tiled(KernelId kernel, int j, int k, int l, int tile) {
  LaunchConfig c;
  c.kernel = kernel;
  c.dims = {j, k, l};
  c.tile = tile;
  return c;
}

constexpr LaunchConfig naive(int size, int bx, int by) {
  LaunchConfig c;
  c.kernel = KernelId::Naive;
  c.dims = {size, size, size};
  c.blockX = bx;
  c.blockY = by;
  return c;
}

constexpr std::array kPresets{
    Preset{"book-4x4", "Book 4x4, T=2", "Figs. 5.7-5.8: a 4x4 product with 2x2 tiles; four blocks, two phases each",
           tiled(KernelId::Tiled, 4, 4, 4, 2), 0},
    Preset{"boundary-3x3", "Boundary 3x3, T=2", "Fig. 5.11: 3x3 with 2x2 tiles and boundary checks (zero-filled slots)",
           tiled(KernelId::TiledBounds, 3, 3, 3, 2), 1},
    Preset{"boundary-3x3-unchecked", "3x3 without checks", "Fig. 5.12: the same 3x3 on the unchecked kernel: wrong accesses",
           tiled(KernelId::Tiled, 3, 3, 3, 2), 1},
    // The lecture's table: the same 1024-element P computed with six block shapes.
    Preset{"naive-64x16", "64x16", "naive, block 64x16", naive(64, 64, 16), 0},
    Preset{"naive-32x32", "32x32", "naive, block 32x32", naive(64, 32, 32), 0},
    Preset{"naive-16x64", "16x64", "naive, block 16x64", naive(64, 16, 64), 0},
    Preset{"naive-64x4", "64x4", "naive, block 64x4", naive(64, 64, 4), 0},
    Preset{"naive-32x8", "32x8", "naive, block 32x8", naive(64, 32, 8), 0},
    Preset{"naive-16x16", "16x16", "naive, block 16x16", naive(64, 16, 16), 0},
    Preset{"tiled-128", "128x128, T=16", "The speed benchmark: a 128x128 product with 16x16 tiles",
           tiled(KernelId::Tiled, 128, 128, 128, 16), 0},
};

}  // namespace

std::span<const Preset> presets() { return kPresets; }

const Preset* findPreset(std::string_view name) {
  for (const auto& p : kPresets)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace tilescope::ui
