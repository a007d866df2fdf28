// Helpers every core test uses: fresh random seeds (printed on failure) and one call that
// runs a config on the emulator.
#pragma once
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/run.h"

namespace tilescope::testing {

// A new seed per call, so every run of the suite draws new inputs; SCOPED_TRACE it.
inline uint64_t freshSeed() {
  static std::random_device device;
  return (uint64_t(device()) << 32) | device();
}

inline Run runEmulated(const LaunchConfig& config, bool traced) {
  auto backend = makeEmulatorBackend();
  auto run = executeRun(*backend, config, traced);
  if (!run) {
    ADD_FAILURE() << "executeRun(" << describe(config) << ") failed: " << run.error().message;
    return Run{};
  }
  return std::move(*run);
}

// A launch for a test: kernel, sizes, tile width (tiled kernels) or block shape (naive-style
// kernels), pad (tiled-transposed) and the seed of its inputs.
inline LaunchConfig launchConfig(KernelId kernel, Dims dims, int tile, uint64_t seed, int bx = 16, int by = 16,
                                 int pad = 0) {
  LaunchConfig c;
  c.kernel = kernel;
  c.dims = dims;
  c.tile = tile;
  c.blockX = bx;
  c.blockY = by;
  c.pad = pad;
  c.seed = seed;
  return c;
}

inline LaunchConfig tiledConfig(KernelId kernel, Dims dims, int tile, uint64_t seed) {
  return launchConfig(kernel, dims, tile, seed);
}

inline LaunchConfig naiveConfig(Dims dims, int bx, int by, uint64_t seed) {
  return launchConfig(KernelId::Naive, dims, 0, seed, bx, by);
}

}  // namespace tilescope::testing
