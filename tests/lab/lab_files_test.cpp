// The grader's files, the trust model's last leftovers (session 11's review, F4, F5, F9, F10):
// a class file swapped for a link (or a fifo) after the folder's scan is refused by the very
// open that reads it; the GPU's compile cache stays within its bound, least recently used out;
// and two different student
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

// --- the compile cache's bound ----------------------------------------------------------------

// Five 1 MiB entries used one, two, ... five hours ago (each with its .sum), the embedded
// headers' folder and a file being written: trimmed to 3 MiB and a little, the two oldest go
// with their .sum files, everything else stays.
TEST_F(LabFiles, TheCompileCacheKeepsItsBoundOldestOut) {
  const std::string mib(1 << 20, 'x');
  const auto now = fs::file_time_type::clock::now();
  for (int i = 1; i <= 5; ++i) {
    const fs::path entry = dir_ / ("e" + std::to_string(i) + ".so");
    ASSERT_TRUE(lab::storeInCache(entry, mib));
    fs::last_write_time(entry, now - std::chrono::hours(i));
  }
  fs::create_directories(dir_ / "include-0123");
  put(dir_ / "include-0123" / "big.h", mib + mib);
  put(dir_ / "e9.so.tmp-1-2-3", mib);
  lab::trimCache(dir_, (3u << 20) + 100, 60s);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_TRUE(fs::exists(dir_ / ("e" + std::to_string(i) + ".so"))) << i;
    EXPECT_TRUE(fs::exists(dir_ / ("e" + std::to_string(i) + ".so.sum"))) << i;
  }
  for (int i = 4; i <= 5; ++i) {
    EXPECT_FALSE(fs::exists(dir_ / ("e" + std::to_string(i) + ".so"))) << i;
    EXPECT_FALSE(fs::exists(dir_ / ("e" + std::to_string(i) + ".so.sum"))) << i;
  }
  EXPECT_TRUE(fs::exists(dir_ / "include-0123" / "big.h"));
  EXPECT_TRUE(fs::exists(dir_ / "e9.so.tmp-1-2-3"));
}

// An entry loaded is used now: the oldest entry, loaded, outlives the others. Entries used in the
// last minute stay even over the bound (a parallel run may be copying one).
TEST_F(LabFiles, TheCompileCacheTrimsTheLeastRecentlyUsed) {
  const auto now = fs::file_time_type::clock::now();
  for (int i = 1; i <= 3; ++i) {
    const fs::path entry = dir_ / ("e" + std::to_string(i) + ".so");
    ASSERT_TRUE(lab::storeInCache(entry, "entry " + std::to_string(i)));
    fs::last_write_time(entry, now - std::chrono::hours(i));
  }
  EXPECT_EQ(lab::loadFromCache(dir_ / "e3.so"), "entry 3");  // the oldest, used now
  lab::trimCache(dir_, 0, 60s);
  EXPECT_FALSE(fs::exists(dir_ / "e1.so"));
  EXPECT_FALSE(fs::exists(dir_ / "e2.so"));
  EXPECT_TRUE(fs::exists(dir_ / "e3.so")) << "an entry used in the last minute was removed";
  lab::trimCache(dir_, 0, 0s);
  EXPECT_FALSE(fs::exists(dir_ / "e3.so"));
  EXPECT_FALSE(fs::exists(dir_ / "e3.so.sum"));
}

// --- names that must stay distinct ------------------------------------------------------------

// Hostile names: a quote, a comma, a newline, a space where another has the newline, bytes that
// are not UTF-8 (two different ones), the text "\xff" where another has the byte, a backslash, a
// formula and the same behind a quote.
const std::vector<std::string> kHostileNames = {
    "a\"b.cu", "a,b.cu", "a\nb.cu", "a b.cu", "a\xff.cu", "a\xfe.cu", "a\\xff.cu", "a\\.cu", "=1+1.cu", "'=1+1.cu",
    "a\r\n.cu", "a\\x0d\\x0a.cu"};

// One CSV record (RFC 4180) read back: its fields, unquoted.
std::vector<std::string> csvRecord(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

TEST(GradeOutputNames, TwoNamesAreNeverOneCsvField) {
  std::set<std::string> seen;
  for (const std::string& name : kHostileNames) {
    const std::string field = cli::csvField(name);
    for (char c : field) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20) << field;
    EXPECT_TRUE(seen.insert(field).second) << "two names print as " << field;
    cli::FileGrade g;
    g.file = name, g.error = "not graded";
    const std::string row = cli::csvRow(g, {"compiles"});
    ASSERT_EQ(row.back(), '\n');
    const std::vector<std::string> fields = csvRecord(row.substr(0, row.size() - 1));
    ASSERT_EQ(fields.size(), 10u) << row;  // file, file_ascii, passed, verdict, passed, total, 1 check, seed, seconds, error
    EXPECT_EQ(fields[0], field.front() == '"' ? csvRecord(field)[0] : field);
  }
  EXPECT_EQ(cli::csvField("a\nb.cu"), "a\\x0ab.cu");
  EXPECT_EQ(cli::csvField("a\xff.cu"), "a\\xff.cu");
  EXPECT_EQ(cli::csvField("a\\xff.cu"), "a\\\\xff.cu");
  EXPECT_EQ(cli::csvField("'=1+1.cu"), "''=1+1.cu");
  EXPECT_EQ(cli::csvField("a,b.cu"), "\"a,b.cu\"");
}

TEST(GradeOutputNames, TwoNamesAreNeverOneJsonName) {
  std::vector<cli::FileGrade> grades;
  for (const std::string& name : kHostileNames) {
    cli::FileGrade g;
    g.file = name, g.error = "not graded";
    grades.push_back(g);
  }
  std::string files = cli::jsonHead("bounds_jkl");
  for (std::size_t i = 0; i < grades.size(); ++i) files += (i ? ",\n" : "") + cli::jsonFile(grades[i]);
  files += cli::jsonTail();
  for (const std::string& text : {files, cli::gradescopeResults(grades, {"compiles"}), cli::classroomResults(grades, {"compiles"})}) {
    std::string error;
    auto json = testing::JsonReader::parse(text, &error);
    ASSERT_TRUE(json) << error << "\n" << text;
  }
  std::set<std::string> seen;
  for (const std::string& name : kHostileNames) EXPECT_TRUE(seen.insert(cli::jsonName(name)).second) << cli::jsonName(name);
  EXPECT_EQ(cli::jsonName("a\xff.cu"), "a\\xff.cu");
  EXPECT_EQ(cli::jsonName("a\\xff.cu"), "a\\\\xff.cu");
  EXPECT_EQ(cli::jsonName("a\nb.cu"), "a\nb.cu");  // JsonWriter writes the newline as \n
  EXPECT_NE(files.find("\"a\\nb.cu\""), std::string::npos) << files;
  EXPECT_NE(files.find("\"a\\\\xff.cu\""), std::string::npos) << files;
  EXPECT_NE(files.find("\"a\\\\\\\\xff.cu\""), std::string::npos) << files;
}

}  // namespace
}  // namespace tilescope
