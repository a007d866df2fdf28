// The teaching commands of the real tilescope-cli binary: a trace saved by the CLI opens
// with identical events, `open --chrome` writes JSON Perfetto can read, bad files give
// exit code 2 with the file named, and every gallery bug behaves as the gallery says.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/teaching/bugs.h"
#include "core/files/trace_file.h"
#include "cli_runner.h"
#include "json_check.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::CliResult;
using testing::runCli;

std::string tempPath(const std::string& suffix) { return testing::testTempPath(suffix); }

TEST(CliSaveOpen, ASavedTraceReopensWithIdenticalEvents) {
  const uint64_t seed = testing::freshSeed();
  const std::string file = tempPath(".tstrace");
  const CliResult save =
      runCli("save --kernel tiled-bounds --dims 5,7,3 --tile 2 --backend emu --seed " + std::to_string(seed) +
             " --file " + file);
  ASSERT_EQ(save.exitCode, 0) << save.err;
  auto saved = loadRun(file);
  ASSERT_TRUE(saved.ok()) << saved.error().message;

  LaunchConfig c;
  c.kernel = KernelId::TiledBounds;
  c.dims = {5, 7, 3};
  c.tile = 2;
  c.seed = seed;
  const tilescope::Run here = testing::runEmulated(c, true);
  EXPECT_EQ(saved->run.config, c);
  ASSERT_TRUE(saved->run.trace.has_value());
  ASSERT_EQ(saved->run.trace->events.size(), here.trace->events.size());
  EXPECT_EQ(std::memcmp(saved->run.trace->events.data(), here.trace->events.data(),
                        here.trace->events.size() * sizeof(Event)),
            0);
  EXPECT_TRUE(saved->run.verification.passed);

  const std::string chrome = tempPath(".json");
  const CliResult open = runCli("open --file " + file + " --chrome " + chrome);
  EXPECT_EQ(open.exitCode, 0) << open.err;
  EXPECT_NE(open.out.find("format " + std::to_string(kTraceFileVersion)), std::string::npos) << open.out;
  EXPECT_NE(open.out.find(std::to_string(here.trace->events.size()) + " events traced"), std::string::npos);
  std::stringstream json;
  json << std::ifstream(chrome).rdbuf();
  testing::Json doc;
  EXPECT_TRUE(testing::JsonParser(json.str()).parse(doc));
  EXPECT_NE(doc.find("traceEvents"), nullptr);

  const CliResult openJson = runCli("open --json --file " + file);
  EXPECT_EQ(openJson.exitCode, 0);
  EXPECT_TRUE(testing::JsonParser(openJson.out).parse(doc)) << openJson.out;
  EXPECT_EQ(doc.find("events")->number, double(here.trace->events.size()));
}

TEST(CliSaveOpen, ACorruptFileIsRefusedWithItsName) {
  const std::string file = tempPath(".tstrace");
  std::ofstream(file, std::ios::binary) << "TSCTRACE but not really a trace file at all";
  const CliResult r = runCli("open --file " + file);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(runCli("open").exitCode, 2);
  EXPECT_EQ(runCli("save --kernel tiled").exitCode, 2) << "save needs --file";
}

TEST(CliBugs, ListsTheGalleryAndEveryBugBehavesAsDescribed) {
  const CliResult list = runCli("bugs");
  EXPECT_EQ(list.exitCode, 0);
  ASSERT_EQ(bugGallery().size(), 7u);  // the README's table (its ids: tests/core/teaching/bugs_test.cpp)
  for (const Bug& bug : bugGallery()) {
    SCOPED_TRACE(std::string(bug.id));
    EXPECT_NE(list.out.find(std::string(bug.id)), std::string::npos);
    const CliResult buggy = runCli("bugs --backend emu --show " + std::string(bug.id));
    EXPECT_EQ(buggy.exitCode, 0) << buggy.out << buggy.err;
    EXPECT_NE(buggy.out.find("symptom shown"), std::string::npos);
    const CliResult fixed = runCli("bugs --backend emu --fixed --show " + std::string(bug.id));
    EXPECT_EQ(fixed.exitCode, 0) << fixed.out << fixed.err;
    EXPECT_NE(fixed.out.find("the fix removes the symptom"), std::string::npos);
  }
  EXPECT_EQ(runCli("bugs --show no-such-bug").exitCode, 2);
}

}  // namespace
}  // namespace tilescope
