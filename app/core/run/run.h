// One execution of a LaunchConfig: inputs, result, trace and verification together.
#pragma once
#include <optional>
#include <string>
#include <variant>

#include "core/run/backend.h"
#include "core/run/reference.h"
#include "core/trace/trace.h"

namespace tilescope {

// A kernel the lab compiled from a student's file. It has no KernelId (its launch's shared
// tiles come from its declarations: plan.launch.labTiles); what ran is named here.
struct LabKernel {
  std::string name;      // the kernel's function name, "matrixMulKernel"
  std::string fileName;  // as the student named the file, "fig5_9.cu"
  std::string text;      // the file as it was run
};

// Which kernel a run ran: one of the built-in kernels (kernels/kernel_list.h) or a lab kernel.
// Whoever makes a Run says which (executeRun: config.kernel; the lab: its LabKernel; a trace
// file: the kernel it names); config.kernel is read only through a BuiltInKernel.
struct BuiltInKernel {
  KernelId id;
};
using RunKernel = std::variant<BuiltInKernel, LabKernel>;

struct Run {
  RunKernel kernel;  // built-in (then config.kernel is the same id) or lab
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

// The run's lab kernel, or null for a built-in kernel.
inline const LabKernel* labKernel(const Run& run) { return std::get_if<LabKernel>(&run.kernel); }
// The run's built-in kernel, or nothing for a lab kernel.
inline std::optional<KernelId> builtInKernel(const Run& run) {
  if (const auto* b = std::get_if<BuiltInKernel>(&run.kernel)) return b->id;
  return std::nullopt;
}
// The mantissa bits its operands were multiplied with (23, FP32, for a lab kernel).
inline int operandMantissaBits(const Run& run) {
  const auto id = builtInKernel(run);
  return id ? kernelInfo(*id).operandMantissaBits : 23;
}

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

// The part of a run after its launch, for executeRun and for a launch made elsewhere (the
// lab's runner, a process of its own): the trace decoded from `slots` when `traced` (as
// run.outcome says they were filled), then P verified against the double-precision reference.
// `run` carries its kernel, config, plan, inputs, P and outcome.
Status completeLaunch(Run& run, EventVector slots, bool traced);

// The inputs for a config: M from seed, N from a seed derived from it.
Matrix inputM(const LaunchConfig& config);
Matrix inputN(const LaunchConfig& config);

}  // namespace tilescope
