// The Timing panel's worker thread (app/ui/workers/timing_worker.h) with a fake engine, so it runs
// without a GPU: start-up finds the engine or says why not and loads the recorded results;
// sweeps run off the calling thread and fill the live report case by case; Cancel stops
// between cases; failed cases are kept but never plotted; intents reach the worker.
#include "ui/workers/timing_worker.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

#include "ui/state/app_state.h"

namespace tilescope::ui {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Takes `perCase` per case, checking the cancel flag in slices as the CUDA engine does between
// launches; GFLOP/s = N so tests can tell results apart. N = failN fails verification.
class FakeEngine : public TimingEngine {
 public:
  FakeEngine(std::chrono::milliseconds perCase, int failN) : perCase_(perCase), failN_(failN) {}
  std::string deviceName() const override { return "Fake GPU"; }
  Result<Ceilings> ceilings() override { return Ceilings{100000.0, "fake peak", 1000.0}; }
  Result<TimingResult> time(const TimingCase& c, const TimingOptions& options) override {
    for (int slice = 0; slice < 10; ++slice) {
      if (options.cancel && options.cancel->load()) return failure("cancelled");
      std::this_thread::sleep_for(std::chrono::microseconds(perCase_) / 10);
    }
    TimingResult r;
    r.what = c;
    r.verified = c.config.dims.j != failN_;
    r.verification = r.verified ? "verified" : "P[0][0] is NaN";
    if (r.verified) r.gflops = c.config.dims.j, r.medianMs = 1.0, r.repeats = 10;
    return r;
  }

 private:
  std::chrono::milliseconds perCase_;
  int failN_;
};

TimingEngineFactory fake(std::chrono::milliseconds perCase, int failN = -1) {
  return [=]() -> Result<std::unique_ptr<TimingEngine>> {
    return std::unique_ptr<TimingEngine>(std::make_unique<FakeEngine>(perCase, failN));
  };
}

// Polls `worker` until `done(state)` or the deadline; returns the last state seen.
TimingState waitFor(const TimingWorker& worker, const std::function<bool(const TimingState&)>& done,
                    std::chrono::milliseconds deadline = 10s) {
  TimingState s;
  const auto end = Clock::now() + deadline;
  do {
    worker.copyTo(s);
    if (done(s)) return s;
    std::this_thread::sleep_for(2ms);
  } while (Clock::now() < end);
  ADD_FAILURE() << "timed out waiting for the timing worker";
  return s;
}

std::size_t liveCount(const TimingState& s) { return s.live ? s.live->report->results.size() : 0; }

TEST(TimingWorker, WithoutAnEngineShowsTheRecordedResultsAndSaysWhy) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE),
                      [] { return Result<std::unique_ptr<TimingEngine>>(unavailable("no CUDA device: test")); });
  TimingState s = waitFor(worker, [](const TimingState& t) { return t.probed; });
  EXPECT_EQ(s.liveUnavailable, "no CUDA device: test");
  ASSERT_TRUE(s.recorded);
  EXPECT_TRUE(s.recorded->report->recorded);
  EXPECT_EQ(s.recorded->report->device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(s.shown(), s.recorded.get());
  worker.start(lectureCases(), "lecture table");
  s = waitFor(worker, [](const TimingState& t) { return !t.lastSweep.empty(); });
  EXPECT_EQ(s.lastSweep, "lecture table: not started: no CUDA device: test");
  EXPECT_FALSE(s.live);
  EXPECT_FALSE(worker.busy());
}

TEST(TimingWorker, AMissingRecordedFileIsAnErrorValueNotAFailure) {
  TimingWorker worker(std::string("/nonexistent/timings.csv"), fake(1ms));
  const TimingState s = waitFor(worker, [](const TimingState& t) { return t.probed; });
  EXPECT_FALSE(s.recorded);
  EXPECT_FALSE(s.recordedError.empty());
  EXPECT_EQ(s.device, "Fake GPU");
  EXPECT_TRUE(s.liveUnavailable.empty());
}

TEST(TimingWorker, SweepsRunOffTheCallingThreadAndFillInCaseByCase) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(20ms));
  waitFor(worker, [](const TimingState& t) { return t.probed; });
  const auto cases = liveSweepCases(1024);  // N = 256, 512, 1024: 5 cases each
  ASSERT_EQ(cases.size(), 15u);
  worker.start(cases, "live sweep");
  TimingState started;
  worker.copyTo(started);
  EXPECT_EQ(liveCount(started), 0u) << "start() must not time anything itself";
  EXPECT_TRUE(started.running);
  EXPECT_TRUE(worker.busy());
  // Part-way, the live report already holds the cases timed so far.
  const TimingState partial = waitFor(worker, [](const TimingState& t) { return liveCount(t) >= 3; });
  EXPECT_TRUE(partial.running);
  EXPECT_LT(liveCount(partial), cases.size());
  EXPECT_EQ(partial.progress.total, cases.size());
  EXPECT_EQ(partial.shown(), partial.live.get());  // live wins over recorded once it exists
  const TimingState s = waitFor(worker, [](const TimingState& t) { return !t.running; });
  EXPECT_EQ(liveCount(s), cases.size());
  EXPECT_EQ(s.live->report->device, "Fake GPU");
  EXPECT_FALSE(s.live->report->recorded);
  EXPECT_EQ(s.lastSweep.rfind("live sweep: timed 15 of 15 cases in ", 0), 0u) << s.lastSweep;
  // A second sweep replaces the cases it repeats and keeps the others.
  worker.start(lectureCases(), "lecture table");
  const TimingState both = waitFor(worker, [](const TimingState& t) { return t.lastSweep.rfind("lecture", 0) == 0; });
  EXPECT_EQ(liveCount(both), cases.size() + lectureCases().size());
}

TEST(TimingWorker, CancelStopsBetweenCases) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(30ms));
  waitFor(worker, [](const TimingState& t) { return t.probed; });
  worker.start(liveSweepCases(4096), "live sweep");  // 25 cases: 750 ms if left alone
  waitFor(worker, [](const TimingState& t) { return t.progress.done >= 2; });
  const auto cancelled = Clock::now();
  worker.cancel();
  const TimingState s = waitFor(
      worker, [](const TimingState& t) { return !t.running; }, 2s);
  EXPECT_LT(Clock::now() - cancelled, 200ms) << "a cancel waits at most for one launch";
  EXPECT_GE(liveCount(s), 2u);
  EXPECT_LT(liveCount(s), 25u);
  EXPECT_NE(s.lastSweep.find("cancelled after"), std::string::npos) << s.lastSweep;
  EXPECT_FALSE(worker.busy());
}

TEST(TimingWorker, FailedCasesAreKeptButNeverPlotted) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(1ms, /*failN=*/512));
  waitFor(worker, [](const TimingState& t) { return t.probed; });
  worker.start(liveSweepCases(1024), "live sweep");
  const TimingState s = waitFor(worker, [](const TimingState& t) { return t.probed && !t.running && t.live; });
  ASSERT_TRUE(s.live);
  EXPECT_EQ(unverifiedCount(*s.live->report), 5);  // every case at N = 512
  std::size_t plotted = 0;
  for (const TimingSeries& series : buildSeries(*s.live->report))
    for (const SeriesPoint& p : series.points) {
      ++plotted;
      EXPECT_NE(p.n, 512.0) << series.label;
    }
  EXPECT_EQ(plotted, 10u);  // 5 cases at each of N = 256 and 1024
  EXPECT_NE(s.lastSweep.find("5 failed verification (not plotted)"), std::string::npos) << s.lastSweep;
  // What the panel draws was derived by the worker from the very report it hands out.
  EXPECT_EQ(s.live->unverified, 5);
  const std::vector<TimingSeries> expected = buildSeries(*s.live->report);
  ASSERT_EQ(s.live->series.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(s.live->series[i].label, expected[i].label);
    EXPECT_EQ(s.live->series[i].points.size(), expected[i].points.size());
  }
  EXPECT_EQ(s.live->lectureRows.size(), lectureRows(*s.live->report).size());
}

TEST(TimingWorker, IntentsReachTheWorkerThroughSyncTiming) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(5ms));
  AppState state;
  applyTimingIntent(state.timing, TimingIntent{StartSweep{SweepSpec{SweepKind::Lecture, {}}}});
  EXPECT_EQ(state.timing.view.source, TimingSource::Live);
  EXPECT_EQ(state.timing.view.sweep.kind, SweepKind::Lecture) << "the chooser shows the sweep that runs";
  syncTiming(state.timing, state.lab, worker);  // hands the request over once
  EXPECT_EQ(state.timing.sweepSubmitted, state.timing.sweepRequested);
  const auto end = Clock::now() + 10s;
  while ((state.timing.running || !state.timing.live) && Clock::now() < end) {
    std::this_thread::sleep_for(2ms);
    syncTiming(state.timing, state.lab, worker);
  }
  ASSERT_TRUE(state.timing.live);
  EXPECT_EQ(state.timing.live->report->results.size(), lectureCases().size());
  EXPECT_EQ(state.timing.lastSweep.rfind("lecture table: timed 10 of 10", 0), 0u) << state.timing.lastSweep;
  // Showing the recorded results instead is a view change, not a new sweep.
  TimingView v = state.timing.view;
  v.source = TimingSource::Recorded;
  applyTimingIntent(state.timing, TimingIntent{SetTimingView{v}});
  syncTiming(state.timing, state.lab, worker);
  EXPECT_FALSE(state.timing.running);
  EXPECT_EQ(state.timing.shown(), state.timing.recorded.get());
}


// The fake engine gives every case N GFLOP/s, cuBLAS included, so every rung is at 100 % of
// cuBLAS when both come from one sweep. A second sweep that re-times only cuBLAS leaves the
// rungs without a partner from their own sweep: no percentage, never one across sweeps.
TEST(TimingWorker, LadderPercentagesPairResultsOfOneSweep) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(1ms), std::string("/nonexistent/ladder.csv"));
  TimingState s = waitFor(worker, [](const TimingState& t) { return t.probed; });
  EXPECT_FALSE(s.recordedLadder);
  EXPECT_NE(s.recordedLadderError.find("/nonexistent/ladder.csv"), std::string::npos) << s.recordedLadderError;
  worker.start(ladderCases({256, 512}), "ladder sweep");
  s = waitFor(worker, [](const TimingState& t) { return !t.running && t.live; });
  const LadderTable& ladder = s.live->ladder;
  ASSERT_FALSE(ladder.empty());
  EXPECT_EQ(ladder.rows.size(), ladderKernels().size());
  int checked = 0;
  for (const LadderRow& row : ladder.rows)
    for (const LadderCell& cell : row.cells) {
      ASSERT_TRUE(cell.percent);
      EXPECT_DOUBLE_EQ(*cell.percent, 100.0);
      ++checked;
    }
  EXPECT_EQ(checked, int(ladderKernels().size()) * 2);
  std::vector<TimingCase> cublasOnly;
  for (const TimingCase& c : ladderCases({256}))
    if (c.kind == TimedKind::Cublas) cublasOnly.push_back(c);
  worker.start(cublasOnly, "custom sweep");
  s = waitFor(worker, [](const TimingState& t) { return !t.running && t.lastSweep.rfind("custom", 0) == 0; });
  for (const LadderRow& row : s.live->ladder.rows) {
    EXPECT_FALSE(row.cells[0].percent) << "N = 256: cuBLAS now comes from another sweep";
    EXPECT_TRUE(row.cells[1].percent) << "N = 512: both still from the ladder sweep";
  }
}

// Rung 9 in the live sweep runs as its selector picks, as `run` and `bench` run it: here (no
// device to ask: the H100 profile, 132 SMs) N = 1024 is 32 tiles of 128 x 256, a quarter of one
// wave, so stream-K over 128 blocks, 4 to a tile; N = 4096 is 512 tiles in 3.88 waves (97 % busy), so one
// block per tile. The fake engine hands back the case it was given.
TEST(TimingWorker, TheLiveSweepRunsRung9AtItsSelectorsChoice) {
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(1ms));
  waitFor(worker, [](const TimingState& t) { return t.probed; });
  std::vector<TimingCase> cases(2);
  for (int i = 0; i < 2; ++i) {
    cases[i].config.kernel = KernelId::StreamK;
    cases[i].config.dims = i == 0 ? Dims{1024, 1024, 1024} : Dims{4096, 4096, 4096};
  }
  worker.start(cases, "custom sweep");
  const TimingState s = waitFor(worker, [](const TimingState& t) { return !t.running && liveCount(t) == 2; });
  ASSERT_EQ(liveCount(s), 2u);
  const Tiling large{128, 256, 32, 64, 64, 8, 16};
  for (const TimingResult& r : s.live->report->results) {
    const LaunchConfig& c = r.what.config;
    EXPECT_EQ(c.tiling, large);
    EXPECT_EQ(c.persistentBlocks, c.dims.j == 1024 ? 128 : 0) << "N = " << c.dims.j;
  }
}

// A lab kernel in the live sweep: the worker hands the Lab tab's request to the lab timer at
// each case's size (here a fake that reads the size back as GFLOP/s, half of cuBLAS's), so
// the series is the lab kernel's, each point with its percentage of cuBLAS from the same
// sweep; a kernel that does not compile stops the sweep with the lab's message.
TEST(TimingWorker, ALabKernelJoinsTheLiveSweepNextToCublas) {
  std::vector<Dims> asked;
  std::mutex askedMutex;
  LabTimer fakeLab = [&](const lab::LabRequest& q, const TimingOptions&) -> Result<lab::LabOutcome> {
    std::lock_guard lock(askedMutex);
    asked.push_back(q.dims);
    lab::LabOutcome o;
    if (q.source.find("oops") != std::string::npos) {
      o.verdict = lab::LabVerdict::CompileError;
      o.summary = "compile error: mine.cu:3: identifier \"oops\" is undefined";
      return o;
    }
    TimingResult t;
    t.what.kind = TimedKind::Lab;
    t.what.config.dims = q.dims;
    t.verified = true;
    t.verification = "verified";
    t.gflops = q.dims.j / 2.0;  // the fake engine gives cuBLAS N
    t.medianMs = 2.0, t.repeats = 10;
    o.timing = t;
    return o;
  };
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(1ms), std::string("/nonexistent/ladder.csv"), fakeLab);
  waitFor(worker, [](const TimingState& t) { return t.probed; });
  lab::LabRequest q;
  q.source = "__global__ void mine(float* M, float* N, float* P, int Width) {}\n";
  q.fileName = "mine.cu";
  const std::vector<TimingCase> cases = labSweepCases(lab::labTimingName(q), 1024);
  ASSERT_EQ(cases.size(), 6u);  // N = 256, 512, 1024: the lab kernel, then cuBLAS
  EXPECT_EQ(cases[0].label(), "lab: mine (mine.cu)");
  EXPECT_EQ(cases[1].kind, TimedKind::Cublas);
  worker.start(cases, "lab sweep", q);
  TimingState s = waitFor(worker, [](const TimingState& t) { return !t.running && t.live; });
  EXPECT_EQ(s.lastSweep.rfind("lab sweep: timed 6 of 6 cases", 0), 0u) << s.lastSweep;
  {
    std::lock_guard lock(askedMutex);
    ASSERT_EQ(asked.size(), 3u);
    EXPECT_EQ(asked[0], (Dims{256, 256, 256}));
    EXPECT_EQ(asked[2], (Dims{1024, 1024, 1024}));
  }
  const TimingSeries* series = nullptr;
  for (const TimingSeries& x : s.live->series)
    if (x.family == Family::Lab) series = &x;
  ASSERT_NE(series, nullptr);
  EXPECT_EQ(series->label, "lab: mine (mine.cu)");
  EXPECT_TRUE(shownByDefault(series->label));
  ASSERT_EQ(series->points.size(), 3u);
  for (const SeriesPoint& p : series->points) {
    ASSERT_TRUE(p.percentOfCublas) << "N = " << p.n;
    EXPECT_DOUBLE_EQ(*p.percentOfCublas, 50.0);
  }
  // The roofline has no intensity for a kernel it cannot trace in the app: no point for it.
  for (const RooflineKernel& k : s.live->roofline) EXPECT_NE(k.family, Family::Lab);

  q.source = "__global__ void mine(float* M, float* N, float* P, int Width) {\n\n  oops;\n}\n";
  worker.start(labSweepCases(lab::labTimingName(q), 1024), "lab sweep", q);
  s = waitFor(worker, [](const TimingState& t) { return !t.running && t.lastSweep.find("stopped") != std::string::npos; });
  EXPECT_NE(s.lastSweep.find("the lab kernel: compile error: mine.cu:3:"), std::string::npos) << s.lastSweep;
  std::lock_guard lock(askedMutex);
  EXPECT_EQ(asked.size(), 4u) << "a kernel that does not compile is not tried at the larger sizes";
}

// The Lab tab's Time (or `timing sweep lab`): syncTiming hands the editor's kernel with its
// launch fields to the worker, which times it at each size of the sweep.
TEST(TimingWorker, TheLabTabsKernelReachesTheLabSweepThroughSyncTiming) {
  std::vector<lab::LabRequest> asked;
  std::mutex askedMutex;
  LabTimer fakeLab = [&](const lab::LabRequest& q, const TimingOptions&) -> Result<lab::LabOutcome> {
    std::lock_guard lock(askedMutex);
    asked.push_back(q);
    lab::LabOutcome o;
    TimingResult t;
    t.what.kind = TimedKind::Lab;
    t.what.config.dims = q.dims;
    t.verified = true;
    t.gflops = 1.0, t.medianMs = 1.0, t.repeats = 3;
    o.timing = t;
    return o;
  };
  TimingWorker worker(std::string(TILESCOPE_TIMINGS_FILE), fake(1ms), std::string("/nonexistent/ladder.csv"), fakeLab);
  AppState state;
  state.lab.text = "#define TILE_WIDTH 8\n__global__ void tiledKernel(float* M, float* N, float* P, int Width) {}\n";
  state.lab.path = "/somewhere/tiled.cu";
  state.lab.launch.defines = {{"TILE_WIDTH", "32"}};
  applyTimingIntent(state.timing, TimingIntent{StartSweep{SweepSpec{SweepKind::Lab, {}}}});
  EXPECT_EQ(state.timing.view.sweep.kind, SweepKind::Lab);
  syncTiming(state.timing, state.lab, worker);
  const auto end = Clock::now() + 10s;
  while ((state.timing.running || !state.timing.live) && Clock::now() < end) {
    std::this_thread::sleep_for(2ms);
    syncTiming(state.timing, state.lab, worker);
  }
  ASSERT_TRUE(state.timing.live);
  EXPECT_EQ(state.timing.lastSweep.rfind("lab sweep: timed 10 of 10", 0), 0u) << state.timing.lastSweep;
  std::lock_guard lock(askedMutex);
  ASSERT_EQ(asked.size(), 5u);  // N = 256 .. 4096
  EXPECT_EQ(asked.front().source, state.lab.text);
  ASSERT_EQ(asked.front().defines.size(), 1u);
  EXPECT_EQ(asked.front().defines[0].value, "32");
  EXPECT_EQ(asked.back().dims, (Dims{4096, 4096, 4096}));
  bool found = false;
  for (const TimingSeries& x : state.timing.live->series)
    found = found || x.label == "lab: tiledKernel (tiled.cu) TILE_WIDTH=32";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace tilescope::ui
