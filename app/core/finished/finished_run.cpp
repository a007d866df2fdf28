#include "core/finished/finished_run.h"

#include <chrono>

namespace tilescope {

void finishInto(FinishedRun& into, Run run, const FinishOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  FinishedRun* f = &into;
  f->run = std::move(run);
  if (f->run.trace) {
    f->outOfBounds = findBoundsViolations(*f->run.trace);
    if (options.hazards) f->hazards = searchHazards(*f->run.trace, kMaxHazardWork);
    if (options.timeline) {
      // A GPU trace's order inside an interval is a sort, not what ran: no race is replayed from it.
      f->timeline = Timeline::build(*f->run.trace, f->run.backend != "cuda");
      f->loads = LoadIndex::build(f->timeline);
      f->hasTimeline = true;
    }
  }
  // Gallery launches are tiny (a few thousand events at most): their symptoms are measured
  // here, so a caller has them with the picture.
  // (a lab kernel is none: its config names no built-in kernel).
  if (builtInKernel(f->run))
    if (auto launch = galleryLaunchOf(f->run.config)) f->gallery = FinishedRun::Gallery{*launch, examineRun(f->run)};
  const auto now = std::chrono::steady_clock::now();
  f->seconds = options.startedAt ? std::chrono::duration<double>(now - *options.startedAt).count()
                                 : f->run.seconds + std::chrono::duration<double>(now - start).count();
}

std::shared_ptr<FinishedRun> finishRun(Run run, const FinishOptions& options) {
  auto f = std::make_shared<FinishedRun>();
  finishInto(*f, std::move(run), options);
  return f;
}

Result<std::shared_ptr<FinishedRun>> runAndFinish(Backend& backend, const LaunchConfig& config,
                                                  const RunOptions& runOptions, const FinishOptions& options) {
  auto run = executeRun(backend, config, runOptions);
  if (!run) return run.error();
  return finishRun(std::move(*run), options);
}

AnalysisReport analyzeRun(const FinishedRun& finished, const DeviceProfile& profile, KernelResources resources) {
  return analyzeTrace(*finished.run.trace, profile, std::move(resources));
}

}  // namespace tilescope
