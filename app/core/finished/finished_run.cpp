#include "core/finished/finished_run.h"

#include <chrono>

namespace tilescope {
namespace {

void cutTimeline(FinishedRun& f) {
  if (!f.run.trace || f.hasTimeline) return;
  // A GPU trace's order inside an interval is a sort, not what ran: no race is replayed from it.
  f.timeline = Timeline::build(*f.run.trace, f.run.backend != "cuda");
  f.loads = LoadIndex::build(f.timeline);
  f.hasTimeline = true;
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

void finishInto(FinishedRun& into, Run run, const FinishOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  FinishedRun* f = &into;
  f->run = std::move(run);
  if (f->run.trace) {
    f->outOfBounds = findBoundsViolations(*f->run.trace);
    if (options.hazards) f->hazards = searchHazards(*f->run.trace, kMaxHazardWork);
  }
  if (options.timeline) cutTimeline(*f);
  // Gallery launches are tiny (a few thousand events at most): their symptoms are measured
  // here, so a caller has them with the picture.
  // (a lab kernel is none: its config names no built-in kernel).
  if (builtInKernel(f->run))
    if (auto launch = galleryLaunchOf(f->run.config)) f->gallery = FinishedRun::Gallery{*launch, examineRun(f->run)};
  f->seconds = options.startedAt ? secondsSince(*options.startedAt) : f->run.seconds + secondsSince(start);
}

void addTimeline(FinishedRun& finished, const FinishOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  cutTimeline(finished);
  finished.seconds = options.startedAt ? secondsSince(*options.startedAt) : finished.seconds + secondsSince(start);
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
  // Hazards searched when the run was finished (the lab's) are the analysis's: searched once.
  AnalysisReport report = analyzeTrace(*finished.run.trace, profile, std::move(resources),
                                       finished.hazards ? &finished.hazards->hazards : nullptr);
  report.roofline.label = kernelName(finished.run);  // the lab kernel's own name, not a built-in's
  return report;
}

}  // namespace tilescope
