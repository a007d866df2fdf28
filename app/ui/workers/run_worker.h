// Runs kernels off the UI thread (platform::WorkerThread: a thread on the desktop, slices
// between frames in a page). The UI submits a request and polls each frame; a frame never
// waits. Only the newest request matters: one submitted while another is still queued
// replaces it, and results carry the generation they were asked for so the app can drop
// any that an later request made stale.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/finished/finished_run.h"
#include "core/run/backend.h"
#include "core/run/run.h"
#include "ui/model/lab_state.h"
#include "ui/workers/replay.h"
#include "platform/worker_thread.h"

namespace tilescope::ui {

struct RunRequest {
  uint64_t generation = 0;
  LaunchConfig config;
  BackendChoice backend = BackendChoice::Emulator;
  std::string traceFile;  // not empty: open this trace file (replay.h) instead of running config
  std::shared_ptr<const LabJob> lab;  // set: run (or grade) the Lab tab's kernel instead (lab_worker.cpp)
  // The whole run only, no first picture before it: the worker's own follow-up to a first
  // picture it handed over (firstPictureFirst).
  bool whole = false;
};

// The barrier at which a request's first picture stops (firstPictureBarriers: a large tiled
// launch on the emulator), 0 for none: a replay, a lab job, the whole run after a first picture.
int firstPictureFirst(const RunRequest& request);

struct RunResult {
  uint64_t generation = 0;
  LaunchConfig config;
  std::shared_ptr<const LoadedRun> loaded;  // null when it failed
  std::string error;
  std::shared_ptr<const LabResult> lab;  // a lab job's outcome or grade, whether or not its run is shown
};

// What the worker still owes a run it has handed over: its analysis.
struct PendingAnalysis {
  std::shared_ptr<const LoadedRun> run;
  KernelResources resources;
};

// A handed-over run's analysis (app/core/analysis on its trace, registers from the GPU when it
// ran there; profile: the GPU's own or h100; Roofline and Occupancy redo their part for the
// chosen profile).
struct AnalysisResult {
  std::shared_ptr<const LoadedRun> run;  // the run it is of: the app keeps it only for that run
  std::shared_ptr<const AnalysisReport> report;
};

class RunWorker {
 public:
  RunWorker();
  ~RunWorker();
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;

  void submit(const RunRequest& request);
  std::optional<RunResult> poll();  // once a frame: the analysis waits for the next frame's poll
  std::optional<AnalysisResult> pollAnalysis();  // after poll(): a run's analysis follows its run
  bool idle() const;  // nothing queued, nothing running, nothing unpolled
  // Whether the CUDA backend can be made here, or why not (asked once, off the UI thread).
  std::optional<std::string> cudaUnavailableReason() const;
  // "" when this build has machine code for the GPU, else what it runs there and the rebuild.
  std::string cudaCodeNote() const;
  // The GPU's own analysis profile (measured once, off the UI thread), or why there is none.
  Result<DeviceProfile> deviceProfile() const;
  // Stops the lab job of this generation (and any older one) at once, or as it starts.
  void cancelLab(uint64_t generation);
  // Called on the worker's thread each time a run is handed over (poll() has it): the frame
  // loop waits for it instead of drawing the old picture again meanwhile. Set before submitting.
  void onHandOver(std::function<void()> notify) { handedOver_ = std::move(notify); }

 private:
  // One piece of work: the start-up probe, a queued request, or the analysis the last run is
  // owed. False when there was none.
  bool step();
  void probe();
  void runRequest(RunRequest request);
  bool analyseOwed();
  // Both fill `pending` with the analysis still owed for the run they return.
  Result<std::shared_ptr<const LoadedRun>> execute(const RunRequest& request, PendingAnalysis& pending);
  // Hands over a finished run: adds its timeline when it has none (a lab run, finished by the
  // lab without one), finishes nothing else again, and owes its analysis.
  Result<std::shared_ptr<const LoadedRun>> prepare(std::shared_ptr<LoadedRun> finished, KernelResources resources,
                                                   std::chrono::steady_clock::time_point start,
                                                   PendingAnalysis& pending);
  // The Lab tab's job: runLab or gradeExercise in a child process (lab_worker.cpp); its run, if
  // any, is prepared like any other and the rest left in labResult_ for loop() to hand over.
  Result<std::shared_ptr<const LoadedRun>> executeLab(const RunRequest& request, PendingAnalysis& pending,
                                                      std::chrono::steady_clock::time_point start);

  mutable std::mutex mutex_;
  std::optional<RunRequest> queued_;
  std::optional<RunResult> finished_;
  std::optional<AnalysisResult> analysed_;
  bool running_ = false, stop_ = false;
  std::unique_ptr<Backend> emulator_, cuda_;
  std::optional<std::string> cudaReason_;
  std::string cudaCodeNote_;
  Result<DeviceProfile> deviceProfile_ = unavailable("checking for a CUDA device...");
  bool cudaProbed_ = false;
  std::atomic<bool> labCancel_{false};  // what the running lab job's child watches
  uint64_t labCancelFor_ = 0;           // lab jobs up to this generation are cancelled
  std::shared_ptr<const LabResult> labResult_;  // worker thread only
  std::function<void()> handedOver_;
  // The analysis starts at the second poll() after a hand-over: the frame loop polls once a
  // frame, so the frame that draws the new picture is done by then and does not share the
  // cores with the analysis (two here, with the software rasteriser's threads).
  static constexpr int kPollsBeforeAnalysis = 2;
  int pollsSinceHandOver_ = kPollsBeforeAnalysis;  // guarded by mutex_
  // A run handed over while a newer request was already waiting: its analysis is put off,
  // and dropped if the newer run replaces it on screen (the usual case while a slider is
  // dragged); if the newer request fails, the older run stays on screen and is analysed then.
  std::optional<PendingAnalysis> deferred_, owed_;  // worker thread only
  platform::WorkerThread thread_;  // last: its first step runs once every member above exists
};

}  // namespace tilescope::ui
