// The run worker's part for the Lab tab: runLab (or gradeExercise) blocks for as long as the
// compiler and the child process take, so it runs here, on the worker thread, never on the UI
// thread. The lab finishes a kernel that ran into a LoadedRun made here (LabRequest::
// newFinishedRun): that same finished run, decoded, verified and searched once by the lab, goes
// to prepare(), which adds only its timeline; every view and analysis shows it; the verdict,
// diagnostics and grade go back as a LabResult (whose outcome points at the same finished run).
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
  // Every run the lab finishes (one per size of an exercise) is one of these; the one shown is
  // found by identity, so it is never copied or finished again.
  std::vector<std::shared_ptr<LoadedRun>> made;
  q.newFinishedRun = [&made] { return std::shared_ptr<FinishedRun>(made.emplace_back(std::make_shared<LoadedRun>())); };
  if (job.exercise) {
    result->exerciseId = job.exercise->id;
    auto grade = lab::gradeExercise(*job.exercise, q.source, q.fileName, q);
    if (!grade) {
      result->error = grade.error().message;
      return grade.error();
    }
    result->grade = std::move(*grade);
  } else {
    auto outcome = lab::runLab(q);
    if (!outcome) {
      result->error = outcome.error().message;
      return outcome.error();
    }
    result->outcome = std::move(*outcome);
  }
  if (result->grade && !result->grade->measured) return failure("the exercise has no sizes to run");
  const lab::LabOutcome* outcome = result->grade ? &*result->grade->measured : &*result->outcome;
  std::shared_ptr<LoadedRun> shown;
  for (const auto& m : made)
    if (outcome->finished && m.get() == outcome->finished.get()) shown = m;
  if (!shown) return failure(outcome->summary);  // compiled nothing, or stopped before its end: no picture
  const Run* run = &shown->run;
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
  auto loaded = prepare(std::move(shown), std::move(resources), start, pending);
  if (!loaded) {
    result->viewsNote = loaded.error().message;
    return loaded;
  }
  result->shown = true;
  return loaded;
}

}  // namespace tilescope::ui
