// `lab check` and `lab grade` as a teacher runs them, after the session-11 review: a fresh seed
// each run, printed and written (F1); every *.cu entry of a class folder gets a row, links not
// followed (F4); a kernel that stops the compiler at the lab's limits is a compile error at the
// student's line in plain words (F8); `lab check` exits 1 for a file that does not compile (F11).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cli_runner.h"

namespace tilescope {
namespace {

using testing::runCli;
namespace fs = std::filesystem;

const std::string kSolution = std::string(TILESCOPE_LAB_FIXTURES) + "/solutions/bounds_jkl.cu";

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
// The seed a report names: "inputs drawn with seed N".
std::string seedOf(const std::string& text) {
  std::smatch m;
  return std::regex_search(text, m, std::regex("inputs drawn with seed ([0-9]+)")) ? m[1].str() : "";
}

TEST(LabGradeCliTrust, EachCheckDrawsAFreshSeedAndPrintsItAndSeedRepeatsIt) {
  std::set<std::string> seeds;
  for (int i = 0; i < 3; ++i) {
    const auto r = runCli("lab check bounds_jkl " + kSolution);
    EXPECT_EQ(r.exitCode, 0) << r.all();
    seeds.insert(seedOf(r.out));
  }
  EXPECT_EQ(seeds.count(""), 0u);
  EXPECT_GE(seeds.size(), 2u) << "three runs, one seed: the inputs are known in advance";
  const auto again = runCli("lab check bounds_jkl " + kSolution + " --seed 4242 --json");
  EXPECT_EQ(again.exitCode, 0) << again.all();
  EXPECT_NE(again.out.find("\"seed\":4242"), std::string::npos) << again.out;
}

TEST(LabGradeCliTrust, EveryEntryOfTheClassFolderGetsARowAndLinksAreNotFollowed) {
  const fs::path dir = testing::testTempPath("_class");
  fs::remove_all(dir);
  fs::create_directories(dir / "folder.cu");
  fs::copy_file(kSolution, dir / "good.cu");
  fs::create_symlink("good.cu", dir / "link_to_good.cu");
  fs::create_symlink("/etc/passwd", dir / "passwd.cu");
  fs::create_symlink("/nonexistent", dir / "dangling.cu");
  ASSERT_EQ(mkfifo((dir / "fifo.cu").c_str(), 0600), 0);
  const fs::path csv = dir.string() + ".csv", gs = dir.string() + ".gs.json";
  const auto r = runCli("lab grade bounds_jkl " + dir.string() + " --seed 77 --csv " + csv.string() + " --gradescope " +
                        gs.string());
  EXPECT_EQ(r.exitCode, 1) << r.all();  // some files could not be graded
  EXPECT_NE(r.out.find("1 of 6 files passed bounds_jkl (inputs drawn with seed 77"), std::string::npos) << r.out;
  for (const char* row : {"== link_to_good.cu: not graded (error)\n   not a regular file: a symbolic link",
                          "== passwd.cu: not graded (error)\n   not a regular file: a symbolic link",
                          "== dangling.cu: not graded (error)\n   not a regular file: a symbolic link",
                          "== folder.cu: not graded (error)\n   not a regular file: a folder",
                          "== fifo.cu: not graded (error)\n   not a regular file: a named pipe",
                          "== good.cu: passed (verified)"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << "\n" << r.out;
  const std::string table = readAll(csv);
  EXPECT_NE(table.find(",seed,seconds,error\n"), std::string::npos) << table;
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 7) << table;  // the header and six rows
  EXPECT_NE(table.find(",77,"), std::string::npos) << table;
  EXPECT_NE(readAll(gs).find("with seed 77"), std::string::npos);
  fs::remove_all(dir);
  fs::remove(csv);
  fs::remove(gs);
}

// An oversized array at file scope is refused at the student's line before anything is built or
// run (the interpreter takes no variables outside the kernels), and a local array too large for a
// thread is refused at its line with the limit.
TEST(LabGradeCliTrust, AFileThatDoesNotCompileExitsOneAndAnOversizedArrayIsTheStudentsLine) {
  const fs::path dir = testing::testTempPath("_big");
  fs::create_directories(dir);
  {
    std::ofstream(dir / "typo.cu") << "__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {\n"
                                      "  P[0] = Pval;\n}\n";
    std::ofstream big(dir / "big.cu");
    big << "__device__ char big[1 << 29] = {1};\n" << readAll(kSolution);
  }
  const auto typo = runCli("lab check bounds_jkl " + (dir / "typo.cu").string());
  EXPECT_EQ(typo.exitCode, 1) << typo.all();
  const auto big = runCli("lab check bounds_jkl " + (dir / "big.cu").string());
  EXPECT_EQ(big.exitCode, 1) << big.all();
  EXPECT_NE(big.out.find("big.cu:1: __device__ variables are outside the lab's CUDA subset"), std::string::npos)
      << big.all();
  {
    std::ofstream local(dir / "local.cu");
    local << "__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {\n"
             "  float tile[1 << 20];\n  P[0] = tile[0];\n}\n";
  }
  const auto local = runCli("lab check bounds_jkl " + (dir / "local.cu").string());
  EXPECT_EQ(local.exitCode, 1) << local.all();
  EXPECT_NE(local.out.find("local.cu:2: the local array 'tile' is too large"), std::string::npos) << local.all();
  for (const char* word : {"internal compiler error", "bug report", "/usr/"})
    EXPECT_EQ(big.all().find(word), std::string::npos) << word << "\n" << big.all();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tilescope
