// The grader's files, the trust model's last leftovers (session 11's review, F4, F5, F9, F10):
// a class file swapped for a link (or a fifo) after the folder's scan is refused by the very
// open that reads it; the compile cache stays within its bound, least recently used out; the
// test-only entry that skips the checks is in no shipped program; and two different student
// file names never print the same in the CSV or the JSON.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "grade_output.h"
#include "json_check.h"
#include "lab/lab_cache.h"
#include "cli_runner.h"
#include "lab/lab.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

class LabFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::testTempPath("_files");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// --- a class file swapped after the scan ------------------------------------------------------

// `lab grade` scans the folder (links, folders, fifos get their "not a regular file" row), then
// reads each file with readFileLimited. Between the two a student may swap a file for a link to
// a classmate's file, or for a fifo: the reader's own open refuses both, since the scan's answer
// is not trusted (the name is opened once, without following a link, and the descriptor is
// checked to be a regular file).
TEST_F(LabFiles, AFileSwappedForALinkAfterTheScanIsNotFollowed) {
  put(dir_ / "classmate.cu", "// SECRET-OF-classmate\n");
  put(dir_ / "mine.cu", "__global__ void k() {}\n");
  ASSERT_EQ(::symlink((dir_ / "classmate.cu").c_str(), (dir_ / "swapped.cu").c_str()), 0);
  ASSERT_EQ(::symlink("/etc/passwd", (dir_ / "passwd.cu").c_str()), 0);
  auto honest = lab::readFileLimited(dir_ / "mine.cu", lab::kMaxSourceBytes);
  ASSERT_TRUE(honest) << honest.error().message;
  EXPECT_EQ(*honest, "__global__ void k() {}\n");
  for (const char* name : {"swapped.cu", "passwd.cu"}) {
    auto read = lab::readFileLimited(dir_ / name, lab::kMaxSourceBytes);
    ASSERT_FALSE(read) << name << " was followed: " << *read;
    EXPECT_NE(read.error().message.find("a symbolic link (not followed)"), std::string::npos) << read.error().message;
  }
}

TEST_F(LabFiles, AFileSwappedForAFifoIsRefusedWithoutWaiting) {
  ASSERT_EQ(::mkfifo((dir_ / "fifo.cu").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  auto read = lab::readFileLimited(dir_ / "fifo.cu", lab::kMaxSourceBytes);  // no writer: a blocking open would hang
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().message.find("not a regular file"), std::string::npos) << read.error().message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

}  // namespace
}  // namespace tilescope
