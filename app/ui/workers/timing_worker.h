// Times sweeps off the UI thread. On start the thread asks for the timing engine (which may
// initialise CUDA) and reads the recorded results; then it waits for sweeps. A sweep times one
// case at a time through runSweep(), so the plot fills in as results arrive and Cancel takes
// effect between launches. The UI never waits: syncTiming() copies a snapshot each frame.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lab/lab.h"
#include "core/timing/timing.h"
#include "ui/model/lab_state.h"
#include "ui/model/timing_state.h"
#include "platform/worker_thread.h"

namespace tilescope::ui {


// $TILESCOPE_TIMINGS when set, else timings/h100.csv of the assets directory (asset_paths.h).
Result<std::string> defaultRecordedTimingsPath();
// $TILESCOPE_LADDER_TIMINGS when set, else timings/ladder-h100.csv of the assets directory.
Result<std::string> defaultRecordedLadderPath();

using TimingEngineFactory = std::function<Result<std::unique_ptr<TimingEngine>>()>;
// Times a lab kernel at request.dims (lab::timeLab: a process of its own). Tests pass a fake.
using LabTimer = std::function<Result<lab::LabOutcome>(const lab::LabRequest&, const TimingOptions&)>;

class TimingWorker {
 public:
  // `makeEngine` runs on the worker thread (tests pass a fake engine). A recorded path that
  // could not be found is shown as the recorded results' error.
  explicit TimingWorker(Result<std::string> recordedPath = defaultRecordedTimingsPath(),
                        TimingEngineFactory makeEngine = makeTimingEngine,
                        Result<std::string> ladderPath = defaultRecordedLadderPath(),
                        LabTimer timeLab = lab::timeLab);
  ~TimingWorker();  // cancels a running sweep and joins (at most one case's time)
  TimingWorker(const TimingWorker&) = delete;
  TimingWorker& operator=(const TimingWorker&) = delete;

  // Starts `cases` after cancelling whatever runs now. Cases of kind Lab time `lab` at their
  // dims; a lab case that does not compile, crashes or runs past its limit stops the sweep
  // with the lab's message.
  void start(std::vector<TimingCase> cases, std::string title, std::optional<lab::LabRequest> lab = std::nullopt);
  void cancel();
  bool probed() const;  // the start-up work is done
  bool busy() const;    // probing, or a sweep queued or running

  // Copies everything the UI shows into `state` (the requests stay as they are).
  void copyTo(TimingState& state) const;

 private:
  struct Job {
    std::vector<TimingCase> cases;
    std::string title;
    std::optional<lab::LabRequest> lab;
  };
  bool step();  // the start-up probe or one queued sweep; false when there was neither
  void probe();
  void sweep(const Job& job);
  Result<TimingReport> timeLabCase(const Job& job, const TimingCase& c, const TimingOptions& options);

  const std::string recordedPath_, recordedPathError_, ladderPath_, ladderPathError_;
  const TimingEngineFactory makeEngine_;
  const LabTimer timeLab_;
  mutable std::mutex mutex_;
  std::atomic<bool> cancel_{false};
  bool stop_ = false;
  std::optional<Job> queued_;
  std::unique_ptr<TimingEngine> engine_;  // touched by the worker thread only after start-up
  IntensityCache intensities_;            // the roofline's traced intensities, once per launch
  int sweeps_ = 0;                        // sweeps started: each result carries its sweep's number

  // What copyTo() hands out, under mutex_.
  bool probed_ = false;
  std::string liveUnavailable_, device_, recordedError_, ladderError_, title_, lastSweep_;
  std::shared_ptr<const TimingDigest> recorded_, recordedLadder_, live_;
  bool running_ = false;
  SweepProgress progress_;
  double runningSeconds_ = 0.0;

  platform::WorkerThread thread_;  // last: starts after every member above exists
};

// Once per frame, after applyIntents: hands new sweep requests and cancels to the worker and
// copies its state back.
void syncTiming(TimingState& timing, const LabState& lab, TimingWorker& worker);

}  // namespace tilescope::ui
