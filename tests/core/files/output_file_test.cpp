// Output files a user names (core/files/output_file.h): staged and renamed when they are files,
// written in place when they are not, so a device or a pipe is never replaced by a plain file.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "core/files/output_file.h"
#include "core/files/trace_file.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {
fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("tilescope-output-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}
}  // namespace

TEST(OutputFile, AFileOrANewNameIsStagedBesideIt) {
  const fs::path dir = freshDir("staged");
  const std::string existing = (dir / "old.tstrace").string();
  std::ofstream(existing) << "old";
  EXPECT_EQ(stagingPathFor(existing), existing + ".tmp");
  EXPECT_EQ(stagingPathFor((dir / "new.tstrace").string()), (dir / "new.tstrace.tmp").string());
  fs::remove_all(dir);
}

TEST(OutputFile, ADeviceIsWrittenInPlace) {
  // Only the query: the fix's own test must not risk the machine's /dev/null.
  EXPECT_EQ(stagingPathFor("/dev/null"), "/dev/null");
}

TEST(OutputFile, ATraceSavedIntoAPipeLeavesThePipeAPipe) {
  const fs::path dir = freshDir("fifo");
  const std::string fifo = (dir / "pipe").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // A plain thread, not std::async: the sanitize build's local-exec TLS model cannot link
  // std::async's call_once state.
  std::string bytes;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  });
  const tilescope::Run run = tilescope::testing::runEmulated(tilescope::testing::tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, 7), true);
  const bool saved = saveRun(run, fifo).ok();
  if (!saved) std::ofstream(fifo).close();  // a writer that never came would leave the reader waiting
  reader.join();
  ASSERT_TRUE(saved);
  EXPECT_EQ(bytes.substr(0, 8), "TSCTRACE") << "the reader got the trace through the pipe";
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo))) << "the pipe is still a pipe, not a file renamed over it";
  EXPECT_FALSE(fs::exists(fifo + ".tmp"));
  fs::remove_all(dir);
}
