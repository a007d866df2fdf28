// Helpers of the analysis tests: a traced emulator run of one config, fresh seeds.
#pragma once
#include <gtest/gtest.h>

#include <random>

#include "core/run.h"

namespace tilescope::analysis_testing {

inline uint64_t freshSeed() {
  static std::random_device device;
  return (uint64_t(device()) << 32) | device();
}

inline LaunchConfig config(KernelId kernel, Dims dims, int tile, int bx = 16, int by = 16, int pad = 0) {
  LaunchConfig c;
  c.kernel = kernel;
  c.dims = dims;
  c.tile = tile;
  c.blockX = bx;
  c.blockY = by;
  c.pad = pad;
  c.seed = freshSeed();
  return c;
}

inline Run traced(const LaunchConfig& c) {
  auto backend = makeEmulatorBackend();
  auto run = executeRun(*backend, c, true);
  if (!run) {
    ADD_FAILURE() << describe(c) << ": " << run.error().message;
    return Run{};
  }
  EXPECT_TRUE(run->trace.has_value());
  return std::move(*run);
}

}  // namespace tilescope::analysis_testing
