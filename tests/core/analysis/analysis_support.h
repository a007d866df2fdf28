// Helpers of the analysis tests: a traced emulator run of one config, fresh seeds.
#pragma once
#include <gtest/gtest.h>

#include "core/run/run.h"
#include "test_support.h"

namespace tilescope::analysis_testing {

using testing::freshSeed;

// Any launch of the analysis tests, on fresh inputs.
inline LaunchConfig config(KernelId kernel, Dims dims, int tile, int bx = 16, int by = 16, int pad = 0) {
  return testing::launchConfig(kernel, dims, tile, freshSeed(), bx, by, pad);
}

// A traced emulator run (the analyses read the trace).
inline Run traced(const LaunchConfig& c) {
  Run run = testing::runEmulated(c, true);
  EXPECT_TRUE(run.trace.has_value());
  return run;
}

}  // namespace tilescope::analysis_testing
