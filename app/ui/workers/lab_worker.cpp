// The run worker's part for the Lab tab: runLab (or gradeExercise) blocks for as long as the
// compiler and the child process take, so it runs here, on the worker thread, never on the UI
// thread. A kernel that ran hands its Run to prepare() like any built-in kernel: every view
// and analysis shows it; the verdict, diagnostics and grade go back as a LabResult.
#include <algorithm>
#include <chrono>

#include "ui/workers/run_worker.h"

namespace tilescope::ui {

void RunWorker::cancelLab(uint64_t generation) {
  std::lock_guard lock(mutex_);
  labCancelFor_ = std::max(labCancelFor_, generation);
  labCancel_ = true;
}

Result<std::shared_ptr<const LoadedRun>> RunWorker::executeLab(const RunRequest& request, PendingAnalysis& pending,
                                                               std::chrono::steady_clock::time_point start) {
  auto result = std::make_shared<LabResult>();
  labResult_ = result;
  {
    std::lock_guard lock(mutex_);
    labCancel_ = request.generation <= labCancelFor_;  // cancelled while it waited in the queue
  }
  if (labCancel_) {
    result->error = "cancelled before it started";
    return failure(result->error);
  }
  const LabJob& job = *request.lab;
  lab::LabRequest q = job.request;
  q.cancel = &labCancel_;
  std::optional<Run> run;
  if (job.exercise) {
    result->exerciseId = job.exercise->id;
    auto grade = lab::gradeExercise(*job.exercise, q.source, q.fileName, q);
    if (!grade) {
      result->error = grade.error().message;
      return grade.error();
    }
    if (grade->measured && grade->measured->finished) run = std::move(grade->measured->finished->run);
    result->grade = std::move(*grade);
  } else {
    auto outcome = lab::runLab(q);
    if (!outcome) {
      result->error = outcome.error().message;
      return outcome.error();
    }
    if (outcome->finished) run = std::move(outcome->finished->run);
    result->outcome = std::move(*outcome);
  }
  if (result->grade && !result->grade->measured) return failure("the exercise has no sizes to run");
  const lab::LabOutcome* outcome = result->grade ? &*result->grade->measured : &*result->outcome;
  if (!run) return failure(outcome->summary);  // compiled nothing, or stopped before its end: no picture
  if (!run->trace) {
    result->viewsNote = "no trace to show: a thread recorded more events than the lab traces";
    return failure(result->viewsNote);
  }
  if (run->trace->events.size() > kAppMaxTraceEvents) {
    result->viewsNote = "the app animates traces of up to " + std::to_string(kAppMaxTraceEvents >> 20) +
                        " Mi events; this run has more (pick a smaller size)";
    return failure(result->viewsNote);
  }
  KernelResources resources = labResources(run->trace->launch, *outcome);
  auto loaded = prepare(std::move(*run), std::move(resources), std::nullopt, start, pending);
  if (!loaded) {
    result->viewsNote = loaded.error().message;
    return loaded;
  }
  result->shown = true;
  return loaded;
}

}  // namespace tilescope::ui
