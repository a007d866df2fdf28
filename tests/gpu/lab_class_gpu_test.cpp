// The hostile class graded on a GPU machine: every file of tests/fixtures/lab/hostile graded
// with `lab grade missing_barrier --backend cuda`, beside two honest solutions. A grade is the
// interpreter's on every backend (the GPU is no authority over it), so no hostile file passes,
// every row says why it did not (a failing check's detail, or the error that kept it from being
// graded), and the solutions pass, each row naming the interpreter's run ("emulator"). Skipped without a CUDA device, or without Landlock and seccomp.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../lab/json_check.h"
#include "cli_runner.h"
#include "gpu_support.h"
#include "lab/lab_sandbox.h"

namespace tilescope::testing {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::stringstream s;
  s << std::ifstream(p, std::ios::binary).rdbuf();
  return s.str();
}

TEST(LabClassGpu, NoHostileFilePassesOnTheGpuRunnerAndTheSolutionsDo) {
  REQUIRE_CUDA_BACKEND(backend);
  (void)backend;
  const lab::SandboxSupport& sandbox = lab::sandboxSupport();
  if (!sandbox.complete()) GTEST_SKIP() << "this machine's kernel lacks " << sandbox.missing;
  const fs::path dir = testTempPath("_gpu_class"), students = dir / "students", cache = dir / "cache";
  fs::remove_all(dir);
  fs::create_directories(students);
  std::size_t hostile = 0;
  for (const auto& e : fs::directory_iterator(TILESCOPE_LAB_FIXTURES "/hostile"))
    if (e.path().extension() == ".cu") fs::copy_file(e.path(), students / e.path().filename()), ++hostile;
  const std::string solution = slurp(TILESCOPE_LAB_FIXTURES "/solutions/missing_barrier.cu");
  std::ofstream(students / "honest_alice.cu") << solution;
  std::ofstream(students / "honest_bob.cu") << "// bob's copy\n" << solution;

  const std::string json = (dir / "grades.json").string();
  setenv("TILESCOPE_LAB_CACHE", cache.c_str(), 1);
  const CliResult r = runCli("lab grade missing_barrier " + students.string() + " --backend cuda -j 4 --json " + json);
  unsetenv("TILESCOPE_LAB_CACHE");
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << r.all();  // 1: some file was not graded (its row says why)

  std::string why;
  auto grades = JsonReader::parse(slurp(json), &why);
  ASSERT_TRUE(grades) << why << "\n" << r.all();
  ASSERT_TRUE(grades->at("files"));
  const std::vector<Json>& rows = grades->at("files")->array;
  ASSERT_EQ(rows.size(), hostile + 2) << r.all();
  int honestPassed = 0;
  for (const Json& row : rows) {
    const std::string file = row.at("file")->string;
    SCOPED_TRACE(file);
    const bool passed = row.at("passed")->boolean;
    if (file.rfind("honest_", 0) == 0) {
      EXPECT_TRUE(passed) << row.at("summary")->string;
      honestPassed += passed;
    } else {
      EXPECT_FALSE(passed) << "a hostile file passed on the GPU: " << row.at("summary")->string;
    }
    // Every row has a reason: the error that kept it from being graded, or its summary.
    const bool graded = row.at("graded")->boolean;
    EXPECT_FALSE((graded ? row.at("summary") : row.at("error"))->string.empty());
    if (!passed && graded) {
      bool failingDetail = false;
      for (const Json& check : row.at("checks")->array)
        failingDetail = failingDetail || (!check.at("passed")->boolean && !check.at("detail")->string.empty());
      EXPECT_TRUE(failingDetail) << "a failing row without a failing check's reason";
    }
    // The interpreter measured it, on a GPU machine too.
    if (file.rfind("honest_", 0) == 0) {
      EXPECT_EQ(row.at("backend")->string, "emulator");
    }
  }
  EXPECT_EQ(honestPassed, 2);
  EXPECT_NE(r.out.find("2 of " + std::to_string(hostile + 2) + " files passed"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilescope::testing
