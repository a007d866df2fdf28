// The grader's defences one by one, without a class (lab_class_test.cpp grades one): a
// runner's response is read only within its bound; scratch is removed whatever a child did to it; no child inherits a
// descriptor; a child that fills its scratch is stopped; and what
// reaches the terminal, a CSV, a JSON or a course platform is only what it says.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "cli_runner.h"
#include "grade_output.h"
#include "json_check.h"
#include "lab/lab_cache.h"
#include "lab/lab_ipc.h"
#include "lab/lab_process.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;
using testing::Json;
using testing::JsonReader;

// --- a runner's response ---------------------------------------------------------------------

// A response is read only within its bound (a GPU run's is a few hundred bytes).
TEST(LabResponse, AResponseOverItsBoundIsRefusedUnread) {
  const fs::path file = testing::testTempPath("_response");
  {
    std::ofstream out(file, std::ios::binary);
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 8; ++i) out << block;  // 8 MiB where 1 MiB was predicted
  }
  auto r = lab::readRunnerResponse(file, 1 << 20);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("8388608 bytes, over the limit of 1048576"), std::string::npos) << r.error().message;
  fs::remove(file);
}

// --- scratch, descriptors, disk -------------------------------------------------------------

// 1,500 levels made relative to each other (a path that long is past PATH_MAX), a file and a
// link out of the tree at each level, every directory then chmod 0 from the top down; removed
// with removeTree. 0 when the tree is gone and the link's target kept, else the step that failed.
int makeAndRemoveADeepTree(const fs::path& root, const fs::path& outside) {
  std::error_code ec;
  fs::remove_all(root, ec);
  if (mkdir(root.c_str(), 0700) != 0) return 1;
  if (!std::ofstream(outside).write("kept", 4)) return 2;
  int fd = open(root.c_str(), O_RDONLY | O_DIRECTORY);
  for (int depth = 0; depth < 1500; ++depth) {
    if (mkdirat(fd, "dddddddddd", 0700) != 0) return 3;
    const int file = openat(fd, "f", O_WRONLY | O_CREAT, 0600);
    if (file < 0 || write(file, "x", 1) != 1) return 4;
    close(file);
    if (symlinkat(outside.c_str(), fd, "link") != 0) return 5;
    const int next = openat(fd, "dddddddddd", O_RDONLY | O_DIRECTORY);
    fchmod(fd, 0);
    close(fd);
    fd = next;
  }
  close(fd);
  if (!lab::removeTree(root)) return 6;
  if (fs::exists(root, ec)) return 7;
  if (!fs::exists(outside, ec)) return 8;  // a link was followed out of the tree
  fs::remove(outside, ec);
  return 0;
}

TEST(LabScratch, ATreeDeeperThanTheOpenFileLimitWithoutPermissionsIsRemoved) {
  const fs::path root = "/tmp/tilescope-deep-tree-" + std::to_string(getpid());
  const fs::path outside = root.string() + "-outside";
  if (geteuid() != 0) {
    EXPECT_EQ(makeAndRemoveADeepTree(root, outside), 0);
    return;
  }
  // Root reads and removes whatever the permissions say: the tree is made and removed by a
  // child that is not root (nobody), as a teacher grading a class is not.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(100);
    _exit(makeAndRemoveADeepTree(root, outside));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "100: could not become nobody; else the step of makeAndRemoveADeepTree";
}

TEST(LabChild, InheritsNoDescriptorAboveTwo) {
  const fs::path log = testing::testTempPath("_fds.log");
  // Opened the way std::ifstream opens a file: without close-on-exec.
  const int leaked = open("/proc/self/exe", O_RDONLY);
  ASSERT_GE(leaked, 3);
  auto r = lab::runChild({"/bin/sh", "-c", "ls /proc/$$/fd"}, {"PATH=/bin:/usr/bin"}, 10.0, nullptr, log);
  close(leaked);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->exitCode, 0) << r->output;
  EXPECT_EQ(r->output, "0\n1\n2\n") << "the child's descriptors";
  fs::remove(log);
}

TEST(LabChild, IsStoppedWhenItsScratchOutgrowsTheLimit) {
  const fs::path dir = testing::testTempPath("_disk");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto start = std::chrono::steady_clock::now();
  // 1 MiB files, one after another, forever; the limit is 8 MiB.
  const std::string fill = "cd '" + dir.string() + "' && i=0; while :; do head -c 1048576 /dev/zero > f$i; i=$((i+1)); done";
  auto r = lab::runChild({"/bin/sh", "-c", fill},
                         {"PATH=/bin:/usr/bin"}, 30.0, nullptr, dir / "log", {dir, 8u << 20});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->diskExceeded);
  EXPECT_FALSE(r->timedOut);
  EXPECT_LT(seconds, 10.0);
  EXPECT_TRUE(lab::removeTree(dir));
}

// --- output -----------------------------------------------------------------------------------

TEST(GradeOutput, TheTerminalGetsOneLineWithoutControlSequences) {
  EXPECT_EQ(cli::forTerminal("a\n== x.cu: passed"), "a\\x0a== x.cu: passed");
  EXPECT_EQ(cli::forTerminal("\x1b[2Jred"), "\\x1b[2Jred");
  EXPECT_EQ(cli::forTerminal("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 as it is
  EXPECT_EQ(cli::forTerminal("\xff"), "\\xff");
  EXPECT_EQ(cli::forTerminal("\xc2\x9b" "31m"), "\\u{009B}31m");            // C1 CSI
  EXPECT_EQ(cli::forTerminal("\xe2\x80\xae" "gnp.cu"), "\\u{202E}gnp.cu");  // right-to-left override
  EXPECT_EQ(cli::forTerminal("\xc0\xaf"), "\\xc0\\xaf");                     // an overlong '/'
}

TEST(GradeOutput, ACsvFieldIsNeitherAFormulaNorSeveralLines) {
  EXPECT_EQ(cli::csvField("=1+1"), "'=1+1");
  EXPECT_EQ(cli::csvField("+1"), "'+1");
  EXPECT_EQ(cli::csvField("-1"), "'-1");
  EXPECT_EQ(cli::csvField("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(cli::csvField("a\nb\x1b"), "a\\x0ab\\x1b");
  EXPECT_EQ(cli::csvField("a,\"b\""), "\"a,\"\"b\"\"\"");
  EXPECT_EQ(cli::csvField("x\xff"), "x\\xff");
}

TEST(GradeOutput, JsonTextIsAlwaysValidUtf8) {
  EXPECT_EQ(cli::validUtf8("ok \xc3\xa9"), "ok \xc3\xa9");
  EXPECT_EQ(cli::validUtf8("\xff\xfe"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(cli::validUtf8("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");  // a surrogate
}

// Two files against three checks: alice passes all, "b\xff.cu" was not graded.
std::vector<cli::FileGrade> twoFiles() {
  cli::FileGrade a, b;
  a.file = "alice.cu", a.graded = true, a.grade.passed = true, a.seconds = 1.5;
  a.grade.items = {{"correct at 8x8x8", true, "verified", std::nullopt},
                   {"no hazards", true, "none", std::nullopt},
                   {"min barriers-per-thread 4", true, "measured 4", 4.0}};
  b.file = "b\xff.cu", b.error = "the file is too large: \x1b[31m";
  return {a, b};
}
const std::vector<std::string> kChecks = {"correct at 8x8x8", "no hazards", "min barriers-per-thread 4"};

TEST(GradeOutput, GradescopeResultsFollowTheAutograderSpecification) {
  std::string why;
  auto doc = JsonReader::parse(cli::gradescopeResults(twoFiles(), kChecks), &why);
  ASSERT_TRUE(doc) << why;
  ASSERT_EQ(doc->type, Json::Type::Object);
  ASSERT_TRUE(doc->at("score") && doc->at("max_score") && doc->at("tests"));
  EXPECT_EQ(doc->at("score")->type, Json::Type::Number);
  EXPECT_EQ(doc->at("score")->number, 3.0);      // alice's three checks
  EXPECT_EQ(doc->at("max_score")->number, 6.0);  // three checks for each of two files
  ASSERT_EQ(doc->at("tests")->type, Json::Type::Array);
  const std::vector<Json>& tests = doc->at("tests")->array;
  ASSERT_EQ(tests.size(), 4u);  // alice's three, and b's "graded"
  for (const Json& t : tests) {
    ASSERT_EQ(t.type, Json::Type::Object);
    for (const char* key : {"name", "status", "output"}) {
      ASSERT_TRUE(t.at(key)) << key;
      EXPECT_EQ(t.at(key)->type, Json::Type::String) << key;
    }
    for (const char* key : {"score", "max_score"}) {
      ASSERT_TRUE(t.at(key)) << key;
      EXPECT_EQ(t.at(key)->type, Json::Type::Number) << key;
    }
    const std::string status = t.at("status")->string;
    EXPECT_TRUE(status == "passed" || status == "failed") << status;
    EXPECT_EQ(t.at("score")->number, status == "passed" ? 1.0 : 0.0);
  }
  EXPECT_EQ(tests[0].at("name")->string, "alice.cu: correct at 8x8x8");
  EXPECT_EQ(tests[3].at("status")->string, "failed");
  EXPECT_NE(tests[3].at("output")->string.find("too large"), std::string::npos);
}

TEST(GradeOutput, GithubClassroomGetsARunnerResult) {
  std::string why;
  auto doc = JsonReader::parse(cli::classroomResults(twoFiles(), kChecks), &why);
  ASSERT_TRUE(doc) << why;
  EXPECT_EQ(doc->at("version")->number, 1.0);
  EXPECT_EQ(doc->at("status")->string, "error");  // a file could not be graded
  EXPECT_EQ(doc->at("max_score")->number, 6.0);
  ASSERT_EQ(doc->at("tests")->array.size(), 4u);
  for (const Json& t : doc->at("tests")->array) {
    EXPECT_EQ(t.at("name")->type, Json::Type::String);
    EXPECT_TRUE(t.at("status")->string == "pass" || t.at("status")->string == "fail");
    EXPECT_EQ(t.at("score")->type, Json::Type::Number);
  }
}

TEST(GradeOutput, TheVerdictIsTheFilesOverallOne) {
  cli::FileGrade g;
  g.graded = true;
  g.grade.measured = lab::LabOutcome{};  // verified at the first size
  g.grade.items = {{"correct at 8x8x8", true, "verified: ...", std::nullopt},
                   {"correct at 6x5x7", false, "out-of-bounds: 3 accesses outside their array", std::nullopt}};
  EXPECT_EQ(cli::overallVerdict(g), "out-of-bounds");
  g.grade.items[1] = {"no hazards", false, "2 hazard groups", std::nullopt};
  EXPECT_EQ(cli::overallVerdict(g), "hazard");
  g.graded = false;
  EXPECT_EQ(cli::overallVerdict(g), "error");
}

}  // namespace
}  // namespace tilescope
