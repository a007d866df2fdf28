// A class graded fast and whole: a child's limit is CPU time, not wall-clock time (a loaded
// machine slows a file without failing it); look-alike names never read the same; a CSV
// field is no formula even behind spaces; a race check that spent its budget is a failed check
// named so; and a class is written whole, CSV, JSON, Gradescope and Classroom files, even when
// the grader starts with its file-size limit lowered to nothing.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_runner.h"
#include "grade_output.h"
#include "json_check.h"
#include "lab/lab_process.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using testing::Json;
using testing::JsonReader;

const std::string kCyrillicA = "\xd0\xb0";       // U+0430, drawn as 'a'
const std::string kZeroWidthSpace = "\xe2\x80\x8b";  // U+200B, drawn as nothing

std::string readAll(const fs::path& file) {
  std::stringstream s;
  s << std::ifstream(file, std::ios::binary).rdbuf();
  return s.str();
}

TEST(LabChild, ItsLimitIsCpuTimeSoAWaitingChildIsNotStopped) {
  const fs::path log = testing::testTempPath("_wait.log");
  // 1 s of sleep under a limit of 0.5 s: it uses no CPU, so it is not stopped (the wall-clock
  // backstop is four times the limit).
  auto r = lab::runChild({"/bin/sh", "-c", "sleep 1; echo done"}, {"PATH=/bin:/usr/bin"}, 0.5, nullptr, log);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->timedOut);
  EXPECT_EQ(r->exitCode, 0);
  EXPECT_EQ(r->output, "done\n");
  fs::remove(log);
}

TEST(LabChild, ASpinningChildIsStoppedAtItsCpuLimit) {
  const fs::path log = testing::testTempPath("_spin.log");
  auto r = lab::runChild({"/bin/sh", "-c", "while :; do :; done"}, {"PATH=/bin:/usr/bin"}, 0.5, nullptr, log);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->timedOut);
  EXPECT_LT(r->seconds, 30.0);
  fs::remove(log);
}

TEST(GradeOutput, LookAlikeNamesNeverReadTheSame) {
  EXPECT_EQ(cli::asciiName("alice.cu"), "alice.cu");
  EXPECT_EQ(cli::asciiName(kCyrillicA + "lice.cu"), "\\u{0430}lice.cu");
  EXPECT_EQ(cli::asciiName("al" + kZeroWidthSpace + "ice.cu"), "al\\u{200B}ice.cu");
  EXPECT_EQ(cli::asciiName("a\\u{0430}.cu"), "a\\\\u{0430}.cu");  // the text is not the code point
  EXPECT_EQ(cli::asciiName("a\xff\n.cu"), "a\\xff\\x0a.cu");
  EXPECT_EQ(cli::shownName("alice.cu"), "alice.cu");
  EXPECT_EQ(cli::shownName(kCyrillicA + "lice.cu"), kCyrillicA + "lice.cu (not plain ASCII: \\u{0430}lice.cu)");
  // On the terminal a zero-width character and a bidi control are shown, never drawn as nothing.
  EXPECT_EQ(cli::forTerminal("al" + kZeroWidthSpace + "ice.cu"), "al\\u{200B}ice.cu");
  EXPECT_EQ(cli::forTerminal("\xe2\x81\xa6x"), "\\u{2066}x");  // left-to-right isolate
}

TEST(GradeOutput, AFormulaBehindLeadingSpacesIsGuarded) {
  EXPECT_EQ(cli::csvField(" =1+1"), "' =1+1");
  EXPECT_EQ(cli::csvField("   @SUM(A1)"), "'   @SUM(A1)");
  EXPECT_EQ(cli::csvField("  -2"), "'  -2");
  EXPECT_EQ(cli::csvField("a =b"), "a =b");
  EXPECT_EQ(cli::csvField("\t=1"), "\\x09=1");  // a tab is a control byte: escaped, no formula
}

TEST(GradeOutput, ARaceCheckThatStoppedIsAFailedCheckNamedSo) {
  cli::FileGrade g;
  g.file = "long.cu";
  g.graded = true;
  g.grade.measured = lab::LabOutcome{};
  g.grade.items = {{"correct at 8x8x8", true, "verified: ...", std::nullopt},
                   {"no hazards", false, std::string(lab::kRaceCheckStopped) + " at 8x8x8", std::nullopt}};
  EXPECT_EQ(cli::overallVerdict(g), "race check incomplete");
  std::string why;
  auto doc = JsonReader::parse(cli::gradescopeResults({g}, {"correct at 8x8x8", "no hazards"}), &why);
  ASSERT_TRUE(doc) << why;
  const Json& hazards = doc->at("tests")->array.at(1);
  EXPECT_EQ(hazards.at("status")->string, "failed");
  EXPECT_NE(hazards.at("output")->string.find("stopped at its limit"), std::string::npos);
}

TEST(GradeOutput, AClassNotGradedStillGetsItsPlatformFiles) {
  std::string why;
  auto gs = JsonReader::parse(cli::gradescopeFailure("not graded: no .cu files in 'x'"), &why);
  ASSERT_TRUE(gs) << why;
  EXPECT_EQ(gs->at("score")->number, 0.0);
  EXPECT_EQ(gs->at("tests")->array.at(0).at("status")->string, "failed");
  auto gh = JsonReader::parse(cli::classroomFailure("not graded"), &why);
  ASSERT_TRUE(gh) << why;
  EXPECT_EQ(gh->at("status")->string, "error");
}

// The runner could once lower the grader's file-size limit (prlimit on its parent), and the
// grader died writing the CSV. The grader now raises it back and ignores SIGXFSZ: started with
// a soft limit of 0 bytes, it writes every file whole. Its names: a plain one, a Cyrillic
// look-alike, a zero-width one and a formula behind a space.
TEST(LabGradeWhole, AClassIsWrittenWholeUnderALoweredFileSizeLimit) {
  const fs::path dir = testing::testTempPath("_whole"), students = dir / "students";
  fs::remove_all(dir);
  fs::create_directories(students);
  const std::string solution = readAll(fs::path(TILESCOPE_LAB_SOLUTIONS) / "bounds_jkl.cu");
  for (const std::string& name : {std::string("alice.cu"), kCyrillicA + "lice.cu", "al" + kZeroWidthSpace + "ice.cu",
                                  std::string(" =cmd.cu")})
    std::ofstream(students / name) << solution;
  rlimit saved{};
  getrlimit(RLIMIT_FSIZE, &saved);
  rlimit lowered = saved;
  lowered.rlim_cur = 0;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &lowered), 0);
  const auto r = testing::runCli("lab grade bounds_jkl '" + students.string() + "' -j 2 --csv '" + (dir / "g.csv").string() +
                                 "' --json '" + (dir / "g.json").string() + "' --gradescope '" +
                                 (dir / "gs.json").string() + "' --classroom '" + (dir / "gh.json").string() + "'");
  setrlimit(RLIMIT_FSIZE, &saved);
  EXPECT_EQ(r.exitCode, 0) << r.all();
  EXPECT_NE(r.out.find("4 of 4 files passed"), std::string::npos) << r.all();
  EXPECT_NE(r.out.find("(not plain ASCII: \\u{0430}lice.cu)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(not plain ASCII: al\\u{200B}ice.cu)"), std::string::npos) << r.out;
  const std::string csv = readAll(dir / "g.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  EXPECT_NE(csv.find("\n' =cmd.cu,' =cmd.cu,true,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\\u{0430}lice.cu,true,verified,"), std::string::npos) << csv;
  std::string why;
  auto json = JsonReader::parse(readAll(dir / "g.json"), &why);
  ASSERT_TRUE(json) << why;
  EXPECT_EQ(json->at("files")->array.size(), 4u);
  for (const char* file : {"gs.json", "gh.json"}) {
    auto doc = JsonReader::parse(readAll(dir / file), &why);
    EXPECT_TRUE(doc) << file << ": " << why;
  }
  fs::remove_all(dir);
}


// Each file is graded in a process of its own: one that aborts the interpreter, and one that
// exhausts its memory, are each their own row, saying so; the class around them is graded and
// written whole. The failures come from a test-only hook of the grader's child
// (TILESCOPE_LAB_GRADE_TEST_HOOK), which the environment sets and no student's code can reach.
TEST(LabGradeWhole, AFileThatCrashesTheLabIsOnlyItsOwnRow) {
  const fs::path dir = testing::testTempPath("_crash"), students = dir / "students";
  fs::remove_all(dir);
  fs::create_directories(students);
  const std::string solution = readAll(fs::path(TILESCOPE_LAB_SOLUTIONS) / "bounds_jkl.cu");
  for (const char* name : {"aborts.cu", "exhausts.cu", "honest.cu"}) std::ofstream(students / name) << solution;
  setenv("TILESCOPE_LAB_GRADE_TEST_HOOK", "aborts.cu=abort,exhausts.cu=memory", 1);
  const auto r = testing::runCli("lab grade bounds_jkl '" + students.string() + "' -j 3 --csv '" +
                                 (dir / "g.csv").string() + "' --json '" + (dir / "g.json").string() + "'");
  unsetenv("TILESCOPE_LAB_GRADE_TEST_HOOK");
  EXPECT_EQ(r.exitCode, 1) << r.all();  // some file could not be graded
  EXPECT_NE(r.out.find("1 of 3 files passed"), std::string::npos) << r.all();
  const std::string csv = readAll(dir / "g.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 4) << csv;
  std::string why;
  auto json = JsonReader::parse(readAll(dir / "g.json"), &why);
  ASSERT_TRUE(json) << why;
  std::map<std::string, const Json*> rows;
  for (const Json& f : json->at("files")->array) rows[f.at("file")->string] = &f;
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows["honest.cu"]->at("passed")->boolean);
  for (const char* name : {"aborts.cu", "exhausts.cu"}) {
    const Json& row = *rows[name];
    EXPECT_FALSE(row.at("graded")->boolean) << name;
    EXPECT_NE(row.at("error")->string.find("the lab failed on this file and it was not graded (its grading process "
                                           "ended with SIGABRT"),
              std::string::npos)
        << name << ": " << row.at("error")->string;
  }
  fs::remove_all(dir);
}

// -j 64 on a machine of a few cores: 64 processes share the cores, each gets a small part of
// one, and every file is graded all the same (the limits are CPU time, the interpreter's too).
TEST(LabGradeWhole, SixtyFourAtOnceOnFewCoresGradesEveryFile) {
  const fs::path dir = testing::testTempPath("_j64"), students = dir / "students";
  fs::remove_all(dir);
  fs::create_directories(students);
  const std::string solution = readAll(fs::path(TILESCOPE_LAB_SOLUTIONS) / "bounds_jkl.cu");
  for (int i = 0; i < 64; ++i) std::ofstream(students / ("s" + std::to_string(i) + ".cu")) << solution;
  const auto r = testing::runCli("lab grade bounds_jkl '" + students.string() + "' -j 64 --timeout 2 --csv '" +
                                 (dir / "g.csv").string() + "'");
  EXPECT_EQ(r.exitCode, 0) << r.all();
  EXPECT_NE(r.out.find("64 of 64 files passed"), std::string::npos) << r.all();
  const std::string csv = readAll(dir / "g.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 65) << csv;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilescope
