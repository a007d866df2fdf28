// One execution of a LaunchConfig: inputs, result, trace and verification together.
#pragma once
#include <optional>
#include <string>

#include "backend.h"
#include "reference.h"
#include "trace.h"

namespace tilescope {

struct Run {
  LaunchConfig config;
  LaunchPlan plan;
  std::string backend;  // "emulator" or "cuda"
  std::string device;
  Matrix m, n, p;
  std::optional<Trace> trace;
  LaunchOutcome outcome;
  Verification verification;
  double seconds = 0.0;  // wall time of launch + decode, for information only
};

// Plans, draws M and N from config.seed, poisons P, launches, decodes and verifies.
// A result that fails verification is still returned (the app shows what went wrong);
// callers that time or plot must check run.verification.passed.
Result<Run> executeRun(Backend& backend, const LaunchConfig& config, bool traced);

// The inputs for a config: M from seed, N from a seed derived from it.
Matrix inputM(const LaunchConfig& config);
Matrix inputN(const LaunchConfig& config);

}  // namespace tilescope
