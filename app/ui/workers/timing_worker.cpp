#include "ui/workers/timing_worker.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "core/asset_paths.h"
#include "core/run/backend.h"
#include "core/run/launch_door.h"

namespace tilescope::ui {
namespace {

using Clock = std::chrono::steady_clock;

std::string describeEnd(const std::string& title, std::size_t timed, std::size_t total, double seconds, bool cancelled,
                        int failed) {
  char text[160];
  std::snprintf(text, sizeof text, "%s: %s %zu of %zu cases in %.1f s", title.c_str(),
                cancelled ? "cancelled after" : "timed", timed, total, seconds);
  std::string out = text;
  if (failed > 0) out += ", " + std::to_string(failed) + " failed verification (not plotted)";
  return out;
}

// Every case through the one door, as `run` and `bench` plan theirs: a kernel whose facts choose
// its schedule gets the tiling and grid it picks for the CUDA device's SMs (asked once, only
// when the sweep holds such a kernel; the H100 profile when the device cannot be asked).
std::vector<TimingCase> scheduled(std::vector<TimingCase> cases) {
  std::optional<DeviceProfile> device;
  for (TimingCase& c : cases) {
    if (c.kind != TimedKind::Kernel || !needsDevice(c.config)) continue;
    if (!device) {
      auto cuda = makeCudaBackend();
      auto asked = cuda ? (*cuda)->deviceProfile() : Result<DeviceProfile>(cuda.error());
      device = asked ? *asked : *profileByName(kProfileWithoutGpu);
    }
    std::string reason;
    c.config = scheduledConfig(c.config, *device, reason);
  }
  return cases;
}

}  // namespace

Result<std::string> defaultRecordedTimingsPath() {
  if (const char* env = std::getenv("TILESCOPE_TIMINGS"); env && *env) return std::string(env);
  auto path = assetPath("timings/h100.csv");
  if (!path) return path.error();
  return path->string();
}

Result<std::string> defaultRecordedLadderPath() {
  if (const char* env = std::getenv("TILESCOPE_LADDER_TIMINGS"); env && *env) return std::string(env);
  auto dir = assetsDirectory();
  if (!dir) return dir.error();
  return (*dir / "timings" / "ladder-h100.csv").string();  // may be absent: the panel says so
}

TimingWorker::TimingWorker(Result<std::string> recordedPath, TimingEngineFactory makeEngine,
                           Result<std::string> ladderPath, LabTimer timeLab)
    : recordedPath_(recordedPath ? *recordedPath : std::string()),
      recordedPathError_(recordedPath ? std::string() : recordedPath.error().message),
      ladderPath_(ladderPath ? *ladderPath : std::string()),
      ladderPathError_(ladderPath ? std::string() : ladderPath.error().message),
      makeEngine_(std::move(makeEngine)),
      timeLab_(std::move(timeLab)),
      thread_([this] { return step(); }) {}

TimingWorker::~TimingWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    queued_.reset();
  }
  cancel_ = true;
}  // thread_ goes first (the last member): it lets the running sweep stop

void TimingWorker::start(std::vector<TimingCase> cases, std::string title, std::optional<lab::LabRequest> lab) {
  {
    std::lock_guard lock(mutex_);
    queued_ = Job{std::move(cases), std::move(title), std::move(lab)};
    if (running_) cancel_ = true;  // the running sweep stops between launches; the next step takes this one
  }
  thread_.wake();
}

void TimingWorker::cancel() {
  std::lock_guard lock(mutex_);
  queued_.reset();
  if (running_) cancel_ = true;
}

bool TimingWorker::probed() const {
  std::lock_guard lock(mutex_);
  return probed_;
}

bool TimingWorker::busy() const {
  std::lock_guard lock(mutex_);
  return !probed_ || running_ || queued_.has_value();
}

void TimingWorker::copyTo(TimingState& s) const {
  std::lock_guard lock(mutex_);
  s.probed = probed_;
  s.liveUnavailable = liveUnavailable_;
  s.device = device_;
  s.recorded = recorded_;
  s.recordedPath = recordedPath_;
  s.recordedError = recordedError_;
  s.recordedLadder = recordedLadder_;
  s.recordedLadderPath = ladderPath_;
  s.recordedLadderError = ladderError_;
  s.live = live_;
  s.running = running_ || queued_.has_value();
  s.progress = progress_;
  s.runningTitle = queued_ ? queued_->title : title_;
  s.runningSeconds = runningSeconds_;
  s.lastSweep = lastSweep_;
}

bool TimingWorker::step() {
  if (!probed()) {  // only this worker's steps write probed_
    probe();
    return true;
  }
  Job job;
  {
    std::lock_guard lock(mutex_);
    if (stop_ || !queued_) return false;
    job = std::move(*queued_);
    queued_.reset();
    if (!engine_) {
      lastSweep_ = job.title + ": not started: " + liveUnavailable_;
      return true;
    }
    cancel_ = false;
    running_ = true;
    title_ = job.title;
    progress_ = {0, job.cases.size(), job.cases.empty() ? "" : job.cases[0].label()};
    runningSeconds_ = 0.0;
  }
  sweep(job);
  return true;
}

void TimingWorker::probe() {
  // Start-up: both may take a while (CUDA initialisation, a file read), so not on the UI thread.
  auto engine = makeEngine_();
  auto recorded = recordedPathError_.empty() ? loadRecordedTimings(recordedPath_)
                                             : Result<TimingReport>(unavailable(recordedPathError_));
  auto ladder = ladderPathError_.empty() ? loadRecordedTimings(ladderPath_)
                                         : Result<TimingReport>(unavailable(ladderPathError_));
  // Digested here, not under the lock: the roofline's intensities trace a few small launches.
  std::shared_ptr<const TimingDigest> recordedDigest, ladderDigest;
  if (recorded) recordedDigest = digestReport(std::make_shared<const TimingReport>(std::move(*recorded)), &intensities_);
  if (ladder) ladderDigest = digestReport(std::make_shared<const TimingReport>(std::move(*ladder)), &intensities_);
  {
    std::lock_guard lock(mutex_);
    if (engine) {
      engine_ = std::move(*engine);
      device_ = engine_->deviceName();
    } else {
      liveUnavailable_ = engine.error().message;
    }
    if (recorded)
      recorded_ = std::move(recordedDigest);
    else
      recordedError_ = recorded.error().message;
    if (ladder)
      recordedLadder_ = std::move(ladderDigest);
    else
      ladderError_ = ladder.error().message;
    probed_ = true;
  }
}

void TimingWorker::sweep(const Job& job) {
  const auto start = Clock::now();
  const TimingOptions options{.cancel = &cancel_};
  std::size_t done = 0;
  int failed = 0;
  std::shared_ptr<const TimingDigest> live;  // live_ as this thread last wrote it
  {
    std::lock_guard lock(mutex_);
    live = live_;
  }
  std::string error;
  const int sweepNumber = ++sweeps_;  // percentages of cuBLAS pair results of one sweep only
  for (const TimingCase& c : scheduled(job.cases)) {
    if (cancel_) break;
    {
      std::lock_guard lock(mutex_);
      progress_ = {done, job.cases.size(), c.label() + " at N = " + std::to_string(c.config.dims.j)};
      runningSeconds_ = std::chrono::duration<double>(Clock::now() - start).count();
    }
    // One case per runSweep call, so each result reaches the plot as soon as it exists.
    auto report = c.kind == TimedKind::Lab ? timeLabCase(job, c, options) : runSweep(*engine_, {c}, options, nullptr);
    if (cancel_) break;  // a cancelled lab case comes back as timed out: not a result
    if (!report) {
      error = report.error().message;
      break;
    }
    if (report->cancelled) break;
    for (TimingResult& r : report->results) r.sweep = sweepNumber;
    failed += unverifiedCount(*report);
    ++done;
    // Merged and digested before the lock: the UI thread copies live_ every frame.
    auto merged = digestReport(
        std::make_shared<const TimingReport>(live ? mergeReports(*live->report, *report) : std::move(*report)),
        &intensities_);
    live = merged;
    std::lock_guard lock(mutex_);
    live_ = std::move(merged);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::lock_guard lock(mutex_);
  running_ = false;
  progress_ = {done, job.cases.size(), ""};
  runningSeconds_ = seconds;
  lastSweep_ = error.empty() ? describeEnd(job.title, done, job.cases.size(), seconds, done < job.cases.size(), failed)
                             : job.title + ": stopped: " + error;
}

Result<TimingReport> TimingWorker::timeLabCase(const Job& job, const TimingCase& c, const TimingOptions& options) {
  if (!job.lab) return failure("no lab kernel to time");
  lab::LabRequest request = *job.lab;
  request.dims = c.config.dims;
  auto outcome = timeLab_(request, options);
  if (!outcome) return outcome.error();
  // It did not compile, crashed or ran past its limit: every larger size would too.
  if (!outcome->timing) return failure("the lab kernel: " + outcome->summary);
  auto ceilings = engine_->ceilings();
  if (!ceilings) return ceilings.error();
  TimingReport report;
  report.device = engine_->deviceName();
  report.date = todayUtc();
  report.ceilings = *ceilings;
  TimingResult result = std::move(*outcome->timing);
  result.what.name = c.name;  // the case's name, as the sweep's progress showed it
  report.results.push_back(std::move(result));
  return report;
}

void syncTiming(TimingState& t, const LabState& lab, TimingWorker& worker) {
  if (t.cancelRequested) {
    worker.cancel();
    t.cancelRequested = false;
  }
  if (t.sweepRequested != t.sweepSubmitted) {
    t.sweepSubmitted = t.sweepRequested;
    // The Lab tab's kernel as its editor and fields describe it now.
    std::optional<lab::LabRequest> request;
    if (t.requestedSweep.kind == SweepKind::Lab && !lab.text.empty()) request = labRequest(lab);
    std::vector<TimingCase> cases = sweepCases(t.requestedSweep, request ? lab::labTimingName(*request) : "");
    const std::string title = std::string(sweepKindName(t.requestedSweep.kind)) +
                              (t.requestedSweep.kind == SweepKind::Lecture ? " table" : " sweep");  // "ladder sweep"
    if (!cases.empty()) worker.start(std::move(cases), title, std::move(request));  // the panel offers no Run for an empty one
  }
  worker.copyTo(t);
}

}  // namespace tilescope::ui
