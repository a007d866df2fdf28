// Replaying a trace file in the app (app/ui/workers/replay.h) through the same path the UI, script
// mode and --open use: the OpenTraceFile intent, RunWorker off the calling thread, collectRun.
// What it guarantees: the picture is the file's run (its device, its result, even a wrong
// one), not a run made here; the controls take the file's config, so changing one starts a
// fresh run and the replay ends; a bad file leaves the previous picture and says why.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <unistd.h>

#include "core/files/trace_file.h"
#include "ui/state/apply_intents.h"

namespace tilescope::ui {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// tiled 8x8x8 T=4 seed 5, dressed as a capture from a GPU machine, with one P element wrong
// (a run made here would get it right, so the test can tell the two apart).
LaunchConfig savedConfig() {
  LaunchConfig c;
  c.kernel = KernelId::Tiled;
  c.dims = {8, 8, 8};
  c.tile = 4;
  c.seed = 5;
  return c;
}

class Replay : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("tilescope-replay-" + std::to_string(::getpid()));
    fs::create_directories(folder_);
    auto emulator = makeEmulatorBackend();
    auto run = executeRun(*emulator, savedConfig(), true);
    ASSERT_TRUE(run) << run.error().message;
    run->backend = "cuda";
    run->device = "NVIDIA H100 80GB HBM3";
    run->p.at(2, 3) += 100.0f;
    good_ = (folder_ / "h100.tstrace").string();
    ASSERT_TRUE(saveRun(*run, good_));
    std::ifstream in(good_, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    truncated_ = (folder_ / "truncated.tstrace").string();
    std::ofstream(truncated_, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size() / 2));
  }
  void TearDown() override { fs::remove_all(folder_); }

  // Frames without a window: apply intents, collect results, until the newest request is in.
  void settle() {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    do {
      applyIntents(state_, worker_);
      collectRun(state_, worker_);
      if (state_.request.generation == state_.request.shownGeneration && worker_.idle()) return;
      std::this_thread::sleep_for(2ms);
    } while (std::chrono::steady_clock::now() < deadline);
    FAIL() << "the worker did not answer within 60 s";
  }

  fs::path folder_;
  std::string good_, truncated_;
  AppState state_;
  RunWorker worker_;
};

TEST_F(Replay, ShowsTheFilesRunWithItsDeviceAndConfig) {
  state_.intents.push_back(ApplyPreset{"book-4x4"});
  settle();
  state_.intents.push_back(OpenTraceFile{good_});
  settle();
  const LoadedRun* run = shownRun(state_);
  ASSERT_NE(run, nullptr);
  ASSERT_TRUE(run->replay.has_value()) << state_.request.error;
  EXPECT_EQ(run->replay->file, good_);
  EXPECT_EQ(run->replay->toolVersion, toolVersion());
  EXPECT_FALSE(run->replay->savedAt.empty());
  EXPECT_EQ(run->run.device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(run->run.backend, "cuda");
  EXPECT_EQ(replayLabel(*run->replay, run->run).rfind("replaying " + good_ + ": recorded on NVIDIA H100 80GB HBM3 (cuda), ", 0),
            0u);
  // The controls now show the file's config (the book example was 4x4 with T=2).
  EXPECT_EQ(state_.request.config, savedConfig());
  EXPECT_TRUE(state_.request.error.empty());
  // The file's result, wrong element included, and the views a fresh run would get.
  EXPECT_FALSE(run->run.verification.passed);
  ASSERT_EQ(run->run.verification.wrongCells.size(), 64u) << "the verification marks every element of an 8 x 8 P";
  for (int i = 0; i < 64; ++i) EXPECT_EQ(run->wrongAt(i / 8, i % 8), i == 2 * 8 + 3) << "P element " << i;
  auto emulator = makeEmulatorBackend();
  auto fresh = executeRun(*emulator, savedConfig(), true);
  ASSERT_TRUE(fresh);
  const Timeline freshTimeline = Timeline::build(*fresh->trace);
  EXPECT_EQ(run->timeline.steps(), freshTimeline.steps());
  EXPECT_EQ(run->run.trace->events.size(), fresh->trace->events.size());
  // A new picture starts like a preset: block (0,0), cursor after phase 0's tile loads.
  EXPECT_EQ(state_.shown.bx, 0);
  EXPECT_EQ(state_.shown.by, 0);
  EXPECT_EQ(state_.shown.cursor, run->timeline.seekPhase(0));
}

TEST_F(Replay, ChangingASettingRunsAfreshAndEndsTheReplay) {
  state_.intents.push_back(OpenTraceFile{good_});
  settle();
  ASSERT_TRUE(shownRun(state_) && shownRun(state_)->replay);
  LaunchConfig changed = state_.request.config;  // what a slider edits
  changed.tile = 2;
  state_.intents.push_back(SetConfig{changed});
  settle();
  const LoadedRun* run = shownRun(state_);
  ASSERT_NE(run, nullptr);
  EXPECT_FALSE(run->replay.has_value());
  EXPECT_TRUE(state_.request.openFile.empty());
  EXPECT_EQ(run->run.config, changed);
  EXPECT_EQ(run->run.backend, "emulator");
  EXPECT_TRUE(run->run.verification.passed);
}

TEST_F(Replay, TruncatedFileKeepsThePictureAndSaysWhy) {
  state_.intents.push_back(OpenTraceFile{good_});
  settle();
  const auto before = state_.shown.loaded;
  ASSERT_TRUE(before);
  state_.intents.push_back(OpenTraceFile{truncated_});
  settle();
  EXPECT_EQ(state_.shown.loaded, before) << "the previous picture stays";
  EXPECT_EQ(state_.request.openFile, truncated_);
  EXPECT_NE(state_.request.error.find(truncated_), std::string::npos) << state_.request.error;
  EXPECT_NE(state_.request.error.find("truncated"), std::string::npos) << state_.request.error;
  EXPECT_EQ(state_.request.config, savedConfig()) << "the controls still describe the picture";
}

TEST_F(Replay, MissingFileNamesIt) {
  state_.intents.push_back(ApplyPreset{"book-4x4"});
  settle();
  const auto before = state_.shown.loaded;
  const std::string missing = (folder_ / "nowhere.tstrace").string();
  state_.intents.push_back(OpenTraceFile{missing});
  settle();
  EXPECT_EQ(state_.shown.loaded, before);
  EXPECT_NE(state_.request.error.find("cannot open '" + missing + "'"), std::string::npos) << state_.request.error;
}

}  // namespace
}  // namespace tilescope::ui
