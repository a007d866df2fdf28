// One execution of a LaunchConfig: inputs, result, trace and verification together.
#pragma once
#include <optional>
#include <string>

#include "core/run/backend.h"
#include "core/run/reference.h"
#include "core/trace/trace.h"

namespace tilescope {

// A kernel the lab compiled from a student's file. It has no KernelId: config.kernel is not read
// for it (plan.launch.lab is set, and its shared tiles come from its declarations); what ran is
// named here.
struct LabKernel {
  std::string name;      // the kernel's function name, "matrixMulKernel"
  std::string fileName;  // as the student named the file, "fig5_9.cu"
  std::string text;      // the file as it was run
};

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
  std::optional<LabKernel> lab;  // a lab run: its kernel (config.kernel is then not read)
};

// The kernel that ran, by name, for labels and file names: a lab kernel's function name, else
// the kernel file's name ("tiled").
std::string kernelName(const Run& run);

// How a launch is traced: always, never, or when its trace fits the caller's limit (the CLI's
// reports trace what they can: the trace is what shows out-of-bounds accesses).
enum class Tracing { Off, On, IfItFits };
struct RunOptions {
  Tracing tracing = Tracing::On;
  // The most trace events this caller keeps (the app animates fewer than the core's cap);
  // a traced launch over it is refused with both figures and `overLimitHint`.
  uint64_t maxTraceEvents = kMaxTraceEvents;
  std::string overLimitHint;
};

// Plans once, draws M and N from config.seed, poisons P, launches, decodes and verifies.
// A result that fails verification is still returned (the app shows what went wrong);
// callers that time or plot must check run.verification.passed.
Result<Run> executeRun(Backend& backend, const LaunchConfig& config, const RunOptions& options);
inline Result<Run> executeRun(Backend& backend, const LaunchConfig& config, bool traced) {
  RunOptions options;
  options.tracing = traced ? Tracing::On : Tracing::Off;
  return executeRun(backend, config, options);
}

// The inputs for a config: M from seed, N from a seed derived from it.
Matrix inputM(const LaunchConfig& config);
Matrix inputN(const LaunchConfig& config);

}  // namespace tilescope
