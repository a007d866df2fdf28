#include "ui/workers/run_worker.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "ui/model/analysis_profile.h"

namespace tilescope::ui {

int firstPictureFirst(const RunRequest& request) {
  if (request.whole || request.lab || !request.traceFile.empty()) return 0;
  return firstPictureBarriers(request.config);
}

RunWorker::RunWorker() : thread_([this] { return step(); }) {}

RunWorker::~RunWorker() {
  std::lock_guard lock(mutex_);
  stop_ = true;
  labCancel_ = true;  // a lab kernel still running (an endless loop) must not hold up the quit
}  // thread_ goes first (the last member): it lets the running step end

void RunWorker::submit(const RunRequest& request) {
  {
    std::lock_guard lock(mutex_);
    queued_ = request;
  }
  thread_.wake();
}

std::optional<RunResult> RunWorker::poll() {
  std::optional<RunResult> result;
  bool analyseNow = false;
  {
    std::lock_guard lock(mutex_);
    result = std::exchange(finished_, std::nullopt);
    analyseNow = pollsSinceHandOver_ < kPollsBeforeAnalysis && ++pollsSinceHandOver_ == kPollsBeforeAnalysis;
  }
  if (analyseNow) thread_.wake();
  return result;
}

std::optional<AnalysisResult> RunWorker::pollAnalysis() {
  std::lock_guard lock(mutex_);
  return std::exchange(analysed_, std::nullopt);
}

bool RunWorker::idle() const {
  std::lock_guard lock(mutex_);
  return !queued_ && !running_ && !finished_ && !analysed_;
}

Result<DeviceProfile> RunWorker::deviceProfile() const {
  std::lock_guard lock(mutex_);
  return deviceProfile_;
}

std::string RunWorker::cudaCodeNote() const {
  std::lock_guard lock(mutex_);
  return cudaCodeNote_;
}

std::optional<std::string> RunWorker::cudaUnavailableReason() const {
  std::lock_guard lock(mutex_);
  if (!cudaProbed_) return std::string("checking for a CUDA device...");
  return cudaReason_;
}

bool RunWorker::step() {
  std::optional<RunRequest> request;
  bool probed = false;
  {
    std::lock_guard lock(mutex_);
    if (stop_) return false;
    probed = cudaProbed_;
    if (probed && queued_) {
      request = std::exchange(queued_, std::nullopt);
      running_ = true;
    }
  }
  if (!probed) {
    probe();
    return true;
  }
  if (request) {
    runRequest(std::move(*request));
    return true;
  }
  return analyseOwed();
}

void RunWorker::probe() {
  // Probe CUDA once, here, so a slow driver start never stalls a frame; the device's
  // profile measures the copy bandwidth (milliseconds), so it is taken here too.
  auto cuda = makeCudaBackend();
  std::string codeNote = cudaCodeNote();
  Result<DeviceProfile> profile = cuda ? (*cuda)->deviceProfile() : Result<DeviceProfile>(cuda.error());
  std::lock_guard lock(mutex_);
  deviceProfile_ = std::move(profile);
  cudaCodeNote_ = std::move(codeNote);
  if (cuda) cuda_ = std::move(*cuda);
  else cudaReason_ = cuda.error().message;
  cudaProbed_ = true;
  emulator_ = makeEmulatorBackend();
}

void RunWorker::runRequest(RunRequest request) {
  // A run whose analysis was still owed when this request came is now the older run.
  if (owed_) deferred_ = std::exchange(owed_, std::nullopt);
  PendingAnalysis pending;
  auto loaded = execute(request, pending);
  RunResult result;
  result.generation = request.generation;
  result.config = request.config;
  result.lab = std::exchange(labResult_, nullptr);
  if (loaded) result.loaded = std::move(*loaded);
  else result.error = loaded.error().message;
  const bool partial = result.loaded && result.loaded->partial;
  {
    std::lock_guard lock(mutex_);
    // A first picture is followed by its whole run, unless a newer request came meanwhile
    // (a slider dragged on): then that one runs, and this launch is no longer wanted whole.
    if (partial && !queued_) {
      queued_ = std::move(request);
      queued_->whole = true;
    }
    finished_ = std::move(result);  // an unpolled older result is stale: replace it
    // The picture is out; the analysis comes in the next step. The worker stays busy (not
    // idle) until it is published, so scripts that wait for the run see the analysis panels filled.
    if (pending.run && queued_) deferred_ = std::move(pending);
    else if (pending.run) owed_ = std::move(pending);
    else if (deferred_) owed_ = std::exchange(deferred_, std::nullopt);
    if (!owed_) running_ = false;
    pollsSinceHandOver_ = 0;
  }
  if (handedOver_) handedOver_();
}

bool RunWorker::analyseOwed() {
  if (!owed_) return false;
  DeviceProfile profile;
  {
    std::lock_guard lock(mutex_);
    if (pollsSinceHandOver_ < kPollsBeforeAnalysis) return false;  // poll() wakes the thread
    profile = deviceProfile_ ? *deviceProfile_ : *profileByName(kProfileWithoutGpu);
  }
  auto report = std::make_shared<const AnalysisReport>(analyzeRun(*owed_->run, profile, std::move(owed_->resources)));
  std::lock_guard lock(mutex_);
  analysed_ = AnalysisResult{std::move(owed_->run), std::move(report)};  // an unpolled older one is stale
  owed_.reset();
  deferred_.reset();
  running_ = false;
  return true;
}

Result<std::shared_ptr<const LoadedRun>> RunWorker::execute(const RunRequest& request, PendingAnalysis& pending) {
  const auto start = std::chrono::steady_clock::now();
  if (request.lab) return executeLab(request, pending, start);
  if (!request.traceFile.empty()) {
    // A replay: the file's run stands in for a launch and gets the same views. The file
    // keeps no compiled kernel, so registers come from the profile's estimate.
    auto opened = openTraceFile(request.traceFile);
    if (!opened) return opened.error();
    auto loaded = std::make_shared<LoadedRun>();
    loaded->replay = std::move(opened->info);
    finishInto(*loaded, std::move(opened->run), FinishOptions{.timeline = true, .startedAt = start});
    return prepare(std::move(loaded), KernelResources{}, start, pending);
  }
  Backend* backend = emulator_.get();
  if (request.backend == BackendChoice::Cuda || request.backend == BackendChoice::Auto) {
    if (cuda_) backend = cuda_.get();
    else if (request.backend == BackendChoice::Cuda) return unavailable("CUDA backend: " + cudaReason_.value_or("?"));
  }
  // The app keeps the whole trace and its timeline in memory and must stay responsive, so
  // it animates smaller traces than the core's cap allows (the CLI takes the larger ones).
  RunOptions options;
  options.maxTraceEvents = kAppMaxTraceEvents;
  options.overLimitHint = "the app animates at most that; trace it with tilescope-cli, or pick a smaller size";
  // A large launch's first picture: every block to the end of its first phase, or of its loads
  // (firstPictureBarriers), on an emulator of its own that stops there.
  const int barriers = backend == emulator_.get() ? firstPictureFirst(request) : 0;
  std::unique_ptr<Backend> firstPicture = barriers > 0 ? makeEmulatorBackend(barriers) : nullptr;
  if (firstPicture) backend = firstPicture.get();
  auto run = executeRun(*backend, request.config, options);
  if (!run) return run.error();
  if (!run->trace) return failure("the run produced no trace");
  // A launch that ended before the barrier limit ran whole (and was verified): it is final.
  const bool partial = run->outcome.blocksStopped > 0;
  // Registers: the compiled kernel's on a GPU, else the profile's estimate (an empty
  // KernelResources). Off the UI thread, like the analysis itself.
  KernelResources resources;
  if (auto compiled = backend->compiledResources(run->plan)) resources = std::move(*compiled);
  auto loaded = std::make_shared<LoadedRun>();
  finishInto(*loaded, std::move(*run), FinishOptions{.timeline = true, .startedAt = start});
  if (!partial) return prepare(std::move(loaded), std::move(resources), start, pending);
  const Timeline& timeline = loaded->timeline;
  loaded->partial = PartialPicture{barriers, timeline.phasesDone(timeline.end()), timeline.phases()};
  return std::shared_ptr<const LoadedRun>(std::move(loaded));  // no analysis: the whole run's follows
}

// What the views precompute for every run they show, fresh, replayed or the lab's.
Result<std::shared_ptr<const LoadedRun>> RunWorker::prepare(std::shared_ptr<LoadedRun> finished, KernelResources resources,
                                                            std::chrono::steady_clock::time_point start,
                                                            PendingAnalysis& pending) {
  if (!finished->hasTimeline) addTimeline(*finished, FinishOptions{.timeline = true, .startedAt = start});
  std::shared_ptr<const LoadedRun> shared = std::move(finished);
  pending = PendingAnalysis{shared, std::move(resources)};  // analysed by loop() once handed over
  return shared;
}

}  // namespace tilescope::ui
