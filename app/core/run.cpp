#include "run.h"

#include <chrono>

namespace tilescope {

Matrix inputM(const LaunchConfig& c) { return randomMatrix(c.dims.j, c.dims.k, c.seed); }
Matrix inputN(const LaunchConfig& c) { return randomMatrix(c.dims.k, c.dims.l, c.seed ^ 0x9e3779b97f4a7c15ULL); }

Result<Run> executeRun(Backend& backend, const LaunchConfig& config, bool traced) {
  auto plan = planLaunch(config, traced);
  if (!plan) return plan.error();
  if (auto s = backend.supports(*plan); !s) return s.error();

  Run run;
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
  if (traced) {
    auto trace = finishTrace(run.plan, std::move(slots), run.outcome);
    if (!trace) return trace.error();
    run.trace = std::move(*trace);
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.verification = verifyProduct(run.m, run.n, run.p);
  return run;
}

}  // namespace tilescope
