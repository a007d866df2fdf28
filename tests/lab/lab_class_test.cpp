// A hostile class graded as a teacher grades it (tilescope-cli lab grade ... -j 8): two honest
// solutions and a file for each way one student could take the others down, reach them, leave
// something behind or forge a line of the report (issue 26). Each hostile file must be its
// own row, failed or `error` with a reason; the honest files pass; nothing one file holds
// reaches another; nothing stays on disk; the CSV, the JSON and Gradescope's results.json are
// what their readers accept. Then the grader's lifetime: SIGTERM or a closed terminal ends it
// within a second, and after a SIGKILL the next run grades as before.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli_runner.h"
#include "json_check.h"

namespace tilescope {
namespace {

using testing::Json;
using testing::JsonReader;
namespace fs = std::filesystem;

const fs::path kHostile = TILESCOPE_LAB_FIXTURES "/hostile";
const fs::path kSolution = TILESCOPE_LAB_FIXTURES "/solutions/missing_barrier.cu";
// Names the forged report lines and spreadsheet cells would carry.
const std::string kNewlineName = "late\n== forged.cu: passed (verified)\n.cu";
const std::string kFormulaName = "=HYPERLINK(\"http-x\").cu";
const std::string kNotUtf8Name = std::string("caf\xe9\xff.cu");

std::string slurp(const fs::path& p) {
  std::stringstream s;
  s << std::ifstream(p, std::ios::binary).rdbuf();
  return s.str();
}

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// An honest solution with a line only it carries: were any classmate to read it, the line would
// show up in the grades.
std::string honest(const std::string& owner) { return "// SECRET-OF-" + owner + "-5e1f\n" + slurp(kSolution); }

bool scratchLeft(const fs::path& cache) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cache, ec))
    if (e.path().filename().string().rfind("run-", 0) == 0) return true;
  return false;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string line; std::getline(s, line);) out.push_back(line);
  return out;
}

// The terminal: one report per file, the honest ones passed, nothing forged or raw.
void expectTerminalReports(const std::string& out, std::size_t files) {
  EXPECT_NE(out.find("== alice.cu: passed (verified)"), std::string::npos) << out;
  EXPECT_NE(out.find("== bob.cu: passed (verified)"), std::string::npos) << out;
  EXPECT_NE(out.find("2 of 12 files passed"), std::string::npos) << out;
  std::size_t reports = 0;
  for (const std::string& line : lines(out)) {
    reports += line.rfind("== ", 0) == 0;
    EXPECT_NE(line.rfind("== forged.cu", 0), 0u) << "a file name forged a line: " << line;
  }
  EXPECT_EQ(reports, files) << out;
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << "an escape sequence reached the terminal";
  EXPECT_EQ(out.find('\xff'), std::string::npos);
  EXPECT_NE(out.find("late\\x0a== forged.cu"), std::string::npos) << out;

}

// The CSV: a header and a row per file, no control bytes, no formula; each row's verdict.
void expectCsvRows(const std::string& csv, std::size_t files) {
  const std::vector<std::string> rows = lines(csv);
  ASSERT_EQ(rows.size(), files + 1) << csv;
  for (const std::string& row : rows) {
    for (char c : row) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20) << row;
    EXPECT_EQ(row.find(",="), std::string::npos) << row;
    EXPECT_NE(row.rfind("=", 0), 0u) << row;
  }
  auto rowOf = [&](const std::string& file) {
    for (const std::string& row : rows)
      if (row.rfind(file + ",", 0) == 0) return row;
    return std::string();
  };
  EXPECT_NE(rowOf("alice.cu").find(",true,verified,"), std::string::npos) << csv;
  EXPECT_NE(rowOf("\"'=HYPERLINK(\"\"http-x\"\").cu\"").find(",false,"), std::string::npos) << csv;
  EXPECT_NE(rowOf("class_race_storm.cu").find(",false,hazard,"), std::string::npos) << csv;
  // The files that reach the C library (extern "C" declarations of open, pread, fopen ...) or
  // forge a runner's answer are refused as compile errors: outside the interpreter's subset.
  auto refusedOr = [&](const std::string& file, const std::string& reason) {
    const std::string row = rowOf(file);
    EXPECT_TRUE(row.find(",false,compile error,") != std::string::npos ||
                (row.find(",false,error,") != std::string::npos && row.find(reason) != std::string::npos))
        << row;
  };
  refusedOr("class_forged_response.cu", "response");
  refusedOr("class_forged_event.cu", "thread (65535,0) is outside the launch");
  EXPECT_NE(rowOf("class_big_source.cu").find("1048576"), std::string::npos) << csv;
  EXPECT_NE(rowOf("class_read_classmates.cu").find(",false,"), std::string::npos) << csv;
  EXPECT_NE(rowOf("class_fill_disk.cu").find(",false,"), std::string::npos) << csv;
  for (const std::string& row : rows) {  // every failed row names why: a failed check's verdict or an error
    if (row.find(",false,") != std::string::npos) {
      EXPECT_EQ(row.find(",false,verified,"), std::string::npos) << row;
    }
  }

}

TEST(LabClass, AHostileClassIsGradedFileByFileAtEightJobs) {
  const fs::path dir = testing::testTempPath("_class"), students = dir / "students", cache = dir / "cache";
  fs::remove_all(dir);
  fs::create_directories(students);
  put(students / "alice.cu", honest("alice"));
  put(students / "bob.cu", honest("bob"));
  for (const char* f : {"class_read_classmates.cu", "class_race_storm.cu", "class_forged_response.cu",
                        "class_forged_event.cu", "class_fill_disk.cu", "class_escape_error.cu"})
    fs::copy_file(kHostile / f, students / f);
  const std::string starter = "__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {}\n";
  for (const std::string& name : {kNewlineName, kFormulaName, kNotUtf8Name}) put(students / name, starter);
  put(students / "class_big_source.cu", starter + "// " + std::string(2u << 20, 'x') + "\n");  // 2 MiB

  const auto start = std::chrono::steady_clock::now();
  const std::string out = (dir / "grades").string();
  setenv("TILESCOPE_LAB_CACHE", cache.c_str(), 1);  // its own, to see that nothing stays in it
  const testing::CliResult r =
      testing::runCli("lab grade missing_barrier " + students.string() + " -j 8 --csv " + out + ".csv --json " + out +
                      ".json --gradescope " + out + "-gradescope.json --classroom " + out + "-classroom.json");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  unsetenv("TILESCOPE_LAB_CACHE");
  EXPECT_EQ(r.exitCode, 1) << r.all();  // some files were not graded: their rows say why
  EXPECT_LT(seconds, 60.0);
  const std::size_t files = 12;

  expectTerminalReports(r.out, files);

  // Nothing of a classmate's file reached another's grades, on any output.
  const std::string csv = slurp(out + ".csv"), json = slurp(out + ".json");
  for (const std::string* text : {&r.out, &r.err, &csv, &json}) EXPECT_EQ(text->find("SECRET-OF-"), std::string::npos);

  expectCsvRows(csv, files);

  // The JSON and Gradescope's file are JSON (valid UTF-8, the name that was not replaced).
  std::string why;
  auto grades = JsonReader::parse(json, &why);
  ASSERT_TRUE(grades) << why << "\n" << json;
  ASSERT_TRUE(grades->at("files"));
  EXPECT_EQ(grades->at("files")->array.size(), files);
  // The race storm is checked fully (races.h counts its pairs class by class), not cut short.
  EXPECT_EQ(json.find("the race check stopped"), std::string::npos) << json;
  EXPECT_TRUE(JsonReader::parse(slurp(out + "-gradescope.json"), &why)) << why;
  EXPECT_TRUE(JsonReader::parse(slurp(out + "-classroom.json"), &why)) << why;

  // Nothing left on disk: no scratch directory, and the student's folder as it was.
  EXPECT_FALSE(scratchLeft(cache));
  std::size_t left = 0;
  for (const auto& e : fs::directory_iterator(students)) left += e.is_regular_file();
  EXPECT_EQ(left, files);
  fs::remove_all(dir);
}

// A kernel that never ends, for the lifetime tests.
const char* kSpinner =
    "__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {\n"
    "  int x = 0;\n  while (true) x = x + 1;\n}\n";

pid_t startGrader(const fs::path& students) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(TILESCOPE_CLI, TILESCOPE_CLI, "lab", "grade", "missing_barrier", students.c_str(), "-j", "2", "--timeout",
          "60", static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// The grader ended by `sig` while both files spin in the interpreter: SIGTERM and a closed
// terminal (SIGHUP) cancel the runs where they are and end it within a second, exit 130.
void endTheGraderWhileItRuns(int sig, const char* what) {
  const fs::path dir = testing::testTempPath(std::string("_") + what), students = dir / "students";
  fs::remove_all(dir);
  fs::create_directories(students);
  put(students / "spin_a.cu", kSpinner);
  put(students / "spin_b.cu", std::string("// b\n") + kSpinner);
  const pid_t pid = startGrader(students);
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // both files well into their loops
  const auto start = std::chrono::steady_clock::now();
  kill(pid, sig);
  int status = 0;
  waitpid(pid, &status, 0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 1.0) << what;
  ASSERT_TRUE(WIFEXITED(status)) << what;
  EXPECT_EQ(WEXITSTATUS(status), 130) << what;
  fs::remove_all(dir);
}

TEST(LabClass, SigtermEndsTheGraderWithinASecond) { endTheGraderWhileItRuns(SIGTERM, "sigterm"); }

TEST(LabClass, AClosedTerminalEndsTheGraderWithinASecond) { endTheGraderWhileItRuns(SIGHUP, "sighup"); }

// A grader killed outright leaves nothing running (no child: the interpreter runs in its own
// process) and the next run grades as if nothing had happened.
TEST(LabClass, AfterASigkillTheNextRunGrades) {
  const fs::path dir = testing::testTempPath("_sigkill"), students = dir / "students";
  fs::remove_all(dir);
  fs::create_directories(students);
  put(students / "spin.cu", kSpinner);
  const pid_t pid = startGrader(students);
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  fs::remove(students / "spin.cu");
  put(students / "alice.cu", honest("alice"));
  const testing::CliResult r = testing::runCli("lab grade missing_barrier " + students.string());
  EXPECT_EQ(r.exitCode, 0) << r.all();
  EXPECT_NE(r.out.find("1 of 1 files passed"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilescope
