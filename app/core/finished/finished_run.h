// The finished run: what every caller needs from one launch, built once and in one way for the
// app's run worker, the CLI and the lab. The Run (planned once, verified once, its wrong cells
// marked by that verification), the out-of-bounds report and, with a trace, the timeline and
// its load index, and a bug-gallery launch's symptoms. The analysis is the one part a caller
// may want later (the app shows the picture first and analyses after), so it is a function of
// the finished run, not a field of it.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/races.h"
#include "core/run/bounds_report.h"
#include "core/run/run.h"
#include "core/teaching/bugs.h"
#include "core/timeline/load_index.h"
#include "core/timeline/timeline.h"

namespace tilescope {

struct FinishedRun {
  Run run;
  std::vector<BoundsViolation> outOfBounds;  // from the trace: empty without one
  // The trace's shared-memory hazards (races.h, bounded by kMaxHazardWork), searched when
  // FinishOptions::hazards asks: the lab grades by them; the app's analysis report has its own.
  std::optional<HazardSearch> hazards;
  Timeline timeline;                         // points into run.trace: a FinishedRun never moves
  LoadIndex loads;                           // the grid's global loads by step (load-count shading)
  bool hasTimeline = false;                  // timeline and loads were built (FinishOptions)
  // A bug-gallery launch (bugs.h): which entry, and the symptoms measured from this run.
  struct Gallery {
    GalleryLaunch launch;
    BugEvidence evidence;
  };
  std::optional<Gallery> gallery;
  double seconds = 0.0;  // the launch and everything finished here

  FinishedRun() = default;
  FinishedRun(const FinishedRun&) = delete;
  FinishedRun& operator=(const FinishedRun&) = delete;

  bool wrongAt(int row, int col) const { return run.verification.wrongAt(row, col); }
};

struct FinishOptions {
  bool timeline = true;  // cut the timeline and index its loads (what the views draw from)
  bool hazards = false;  // search the trace for shared-memory hazards (FinishedRun::hazards)
  // When the caller's work on this run began (a request, a file opened): `seconds` counts from
  // there; without it, the launch's own time plus the finishing.
  std::optional<std::chrono::steady_clock::time_point> startedAt{};
};

// Finishes `run` (which carries its verification) into `into`: the bounds report, the
// hazards, the timeline, the gallery's symptoms, each as `options` ask. `into` may be a type that extends FinishedRun (the app's
// shown run adds where it came from).
void finishInto(FinishedRun& into, Run run, const FinishOptions& options = {});
// Cuts the timeline and indexes its loads for a run finished without them (the lab grades
// without a timeline; the app adds it to show that same finished run): nothing else is found
// again. `seconds` counts from options.startedAt when given.
void addTimeline(FinishedRun& finished, const FinishOptions& options = {});
std::shared_ptr<FinishedRun> finishRun(Run run, const FinishOptions& options = {});

// Plans once, launches on `backend`, finishes (executeRun's options decide the tracing).
Result<std::shared_ptr<FinishedRun>> runAndFinish(Backend& backend, const LaunchConfig& config,
                                                  const RunOptions& runOptions, const FinishOptions& options = {});

// The memory-access analysis of a finished run's trace (it must have one) for `profile`, with
// registers from `resources` (the compiled kernel's on a GPU; empty: the profile's estimate).
// Its hazards are the finished run's when they were searched there (FinishOptions::hazards).
AnalysisReport analyzeRun(const FinishedRun& finished, const DeviceProfile& profile, KernelResources resources = {});

}  // namespace tilescope
