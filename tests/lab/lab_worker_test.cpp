// The app's Lab tab through its run worker (app/ui/workers/lab_worker.cpp): a lab run is decoded,
// verified and searched once, by the lab, and the app shows that same finished run, adding only
// its timeline. The facts held: the shown run is the object the lab's outcome points at, and it
// carries the lab's hazard search (the app's own finishing never searches hazards: only the
// lab asks for them), next to the timeline the app cut.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "lab/exercise.h"
#include "ui/workers/run_worker.h"

namespace tilescope::ui {
namespace {

using namespace std::chrono_literals;

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Submits `job` and waits (60 s at most) for its result.
RunResult runJob(RunWorker& worker, LabJob job) {
  RunRequest request;
  request.generation = 1;
  request.lab = std::make_shared<const LabJob>(std::move(job));
  worker.submit(request);
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto r = worker.poll()) return *r;
    std::this_thread::sleep_for(2ms);
  }
  ADD_FAILURE() << "the worker did not answer within 60 s";
  return {};
}

// The book's fig. 5.9 at 4x4x4 with T = 2 (the file's own settings name TILE_WIDTH 16: 4x4 keeps it tiny).
LabJob figure59() {
  LabJob job;
  auto q = lab::requestFromFile(readFile(TILESCOPE_LAB_EXAMPLES "/pmpp_fig5_9.cu"), "pmpp_fig5_9.cu");
  EXPECT_TRUE(q) << q.error().message;
  if (q) job.request = *q;
  job.request.defines = {{"TILE_WIDTH", "2"}};
  job.request.block = Dim3{2, 2, 1};
  job.request.dims = {4, 4, 4};
  return job;
}

TEST(LabWorker, ShowsTheLabsOwnFinishedRunWithATimelineAdded) {
  RunWorker worker;
  RunResult r = runJob(worker, figure59());
  ASSERT_TRUE(r.lab);
  ASSERT_TRUE(r.lab->outcome) << r.lab->error;
  ASSERT_TRUE(r.loaded) << r.error << " / " << r.lab->outcome->summary;
  const FinishedRun* shown = r.loaded.get();
  EXPECT_EQ(shown, r.lab->outcome->finished.get()) << "the app finished a copy of the lab's run again";
  EXPECT_TRUE(shown->hazards.has_value()) << "the shown run is not the one the lab searched for hazards";
  EXPECT_TRUE(shown->hasTimeline);
  ASSERT_TRUE(shown->run.trace);
  EXPECT_TRUE(shown->run.verification.passed);
  // Fig. 5.9 at 4x4x4, T = 2: a 2 x 2 grid of blocks, each in 4 / 2 = 2 phases.
  EXPECT_EQ(shown->timeline.blocks(), 4);
  EXPECT_EQ(shown->timeline.phases(), 2);
  EXPECT_TRUE(shown->outOfBounds.empty());
}

TEST(LabWorker, ShowsTheGradesMeasuredRunItself) {
  auto x = lab::findExercise(TILESCOPE_EXERCISES "/bounds_jkl.exercise");
  ASSERT_TRUE(x) << x.error().message;
  LabJob job;
  job.exercise = *x;
  job.request.source = readFile(TILESCOPE_LAB_SOLUTIONS "/bounds_jkl.cu");
  job.request.fileName = "bounds_jkl.cu";
  RunWorker worker;
  RunResult r = runJob(worker, std::move(job));
  ASSERT_TRUE(r.lab);
  ASSERT_TRUE(r.lab->grade) << r.lab->error;
  ASSERT_TRUE(r.lab->grade->measured);
  ASSERT_TRUE(r.loaded) << r.error;
  EXPECT_EQ(static_cast<const FinishedRun*>(r.loaded.get()), r.lab->grade->measured->finished.get());
  EXPECT_TRUE(r.loaded->hazards.has_value());
  EXPECT_TRUE(r.loaded->hasTimeline);
}

}  // namespace
}  // namespace tilescope::ui
