#include "core/run/run.h"
#include "core/run/trace_decode.h"

#include <chrono>

namespace tilescope {

Matrix inputM(const LaunchConfig& c) { return randomMatrix(c.dims.j, c.dims.k, c.seed); }
Matrix inputN(const LaunchConfig& c) { return randomMatrix(c.dims.k, c.dims.l, c.seed ^ 0x9e3779b97f4a7c15ULL); }

namespace {
// An event count as people read it: whole mebi-events rounded up ("37 Mi"), smaller exactly.
std::string eventCount(uint64_t n) {
  constexpr uint64_t kMi = uint64_t(1) << 20;
  return n >= kMi ? std::to_string((n + kMi - 1) / kMi) + " Mi" : std::to_string(n);
}

// The one plan of a run, traced as `options` ask.
Result<LaunchPlan> planRun(const LaunchConfig& config, const RunOptions& options, bool& traced) {
  traced = options.tracing != Tracing::Off;
  auto plan = planLaunch(config, traced);
  const bool overLimit = plan && traced && plan->traceSlots > options.maxTraceEvents;
  if (options.tracing == Tracing::IfItFits && (!plan || overLimit)) {
    traced = false;
    return planLaunch(config, false);
  }
  if (overLimit)
    return invalidInput("a trace of " + describe(config) + " would need " + eventCount(plan->traceSlots) +
                        " events, over the " + eventCount(options.maxTraceEvents) + " kept here" +
                        (options.overLimitHint.empty() ? "" : " (" + options.overLimitHint + ")"));
  return plan;
}
}  // namespace

std::string kernelName(const Run& run) {
  if (const LabKernel* lab = labKernel(run)) return lab->name;
  return std::string(kernelInfo(std::get<BuiltInKernel>(run.kernel).id).name);
}

Result<Run> executeRun(Backend& backend, const LaunchConfig& config, const RunOptions& options) {
  bool traced = false;
  auto plan = planRun(config, options, traced);
  if (!plan) return plan.error();
  if (auto s = backend.supports(*plan); !s) return s.error();

  Run run;
  run.kernel = BuiltInKernel{config.kernel};
  run.config = config;
  run.plan = *plan;
  run.backend = backend.name();
  run.device = backend.deviceName();
  run.m = inputM(config);
  run.n = inputN(config);
  run.p = Matrix(config.dims.j, config.dims.l);
  poison(run.p);

  const auto start = std::chrono::steady_clock::now();
  EventVector slots;
  auto outcome = backend.launch(run.plan, run.m, run.n, run.p, traced ? &slots : nullptr);
  if (!outcome) return outcome.error();
  run.outcome = std::move(*outcome);
  if (auto s = completeLaunch(run, std::move(slots), traced); !s) return s.error();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

Status completeLaunch(Run& run, EventVector slots, bool traced) {
  if (traced) {
    auto trace = finishTrace(run.plan, std::move(slots), run.outcome);
    if (!trace) return trace.error();
    run.trace = std::move(*trace);
  }
  // A launch stopped at a barrier limit left P unfinished: nothing to verify yet.
  if (run.outcome.blocksStopped > 0) return Ok{};
  run.verification = verifyProduct(run.m, run.n, run.p, 1L << 20, operandMantissaBits(run));
  return Ok{};
}

}  // namespace tilescope
