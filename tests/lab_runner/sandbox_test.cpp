// The lab's sandbox holds against hostile kernels (tests/fixtures/lab/hostile), run through
// tilescope-cli as a teacher runs a student's file: each gets a clear verdict, nothing is
// written, deleted, connected or started outside the sandbox (the file system and the
// process table are checked afterwards), nothing private reaches what the user sees, and an
// honest kernel's verdict is the same afterwards. Then a folder of submissions graded by
// `lab grade`. Skipped, with the reason, where the kernel lacks Landlock or seccomp.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "cli_runner.h"
#include "lab/lab_sandbox.h"

namespace tilescope {
namespace {

using testing::CliResult;
using testing::runCli;
namespace fs = std::filesystem;

// The paths the hostile kernels name (they are fixed in their text).
const fs::path kRoot = "/tmp/tilescope-hostile", kHome = kRoot / "home", kCache = kRoot / "cache";
const std::string kSecretFile = "TOP-SECRET-in-a-private-file", kSecretEnv = "TOP-SECRET-in-the-environment";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool sandboxUsable() {
  const lab::SandboxSupport& s = lab::sandboxSupport();
  if (!s.complete()) std::printf("skipped: this machine's kernel lacks %s\n", s.missing.c_str());
  return s.complete();
}

// `sleep 600` is what fork_exec.cu would leave running.
bool strayProcess() { return std::system("pgrep -f '^sleep 600$' > /dev/null 2>&1") == 0; }

struct Hostile {
  const char* file;
  const char* verdict;  // the start of the verdict line
};

TEST(LabSandbox, HostileKernelsAreContained) {
  if (!sandboxUsable()) GTEST_SKIP() << "Landlock or seccomp unavailable";
  fs::remove_all(kRoot);
  fs::create_directories(kHome);
  fs::create_directories(kCache);
  std::ofstream(kHome / "private.txt") << kSecretFile << "\n";
  setenv("TILESCOPE_LAB_CACHE", kCache.c_str(), 1);
  setenv("TILESCOPE_HOSTILE_SECRET", kSecretEnv.c_str(), 1);
  const std::string honest = std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu";
  const CliResult before = runCli("lab run " + honest + " --backend emu");
  ASSERT_EQ(before.exitCode, 0) << before.all();

  // A kernel calling libc is refused once compiled (its object imports a host function, which
  // NVRTC would refuse: lab_imports.h), so none of these reaches the sandbox on the emulator
  // any more; the sandbox stays for what a deliberate exploit could still do.
  const Hostile kernels[] = {
      {"shell_in_kernel.cu", "compile error: shell_in_kernel.cu:8: system is a host (libc) function"},
      // refused before compiling: an initializer at namespace scope would run on the host
      {"shell_in_initializer.cu", "compile error: shell_in_initializer.cu:6: this initializer runs code"},
      {"files_in_home.cu", "compile error: files_in_home.cu:9: fopen is a host (libc) function"},
      {"include_private.cu", "compile error: include_private.cu:6: #include of a file the lab does not provide"},
      {"socket_connect.cu", "compile error: socket_connect.cu:13: connect is a host (libc) function"},
      {"fork_exec.cu", "compile error: fork_exec.cu:11: fork is a host (libc) function"},
      {"environment.cu", "compile error: environment.cu:9: getenv is a host (libc) function"},
      {"write_cache.cu", "compile error: write_cache.cu:9: fopen is a host (libc) function"},
      {"detach_recorder.cu", "compile error: detach_recorder.cu:8: 'attach' is the lab's own"},
  };
  for (const Hostile& h : kernels) {
    SCOPED_TRACE(h.file);
    const CliResult r = runCli("lab run " + std::string(TILESCOPE_HOSTILE) + "/" + h.file + " --backend emu");
    EXPECT_NE(("\n" + r.out).find(std::string("\n") + h.verdict), std::string::npos) << r.all();
    EXPECT_EQ(r.all().find(kSecretFile), std::string::npos) << r.all();
    EXPECT_EQ(r.all().find(kSecretEnv), std::string::npos) << r.all();
    if (std::string(h.verdict).rfind("compile error", 0) != 0) {  // refused before anything ran
      EXPECT_NE(r.out.find("sandboxed: Landlock ABI"), std::string::npos) << r.all();
    }
  }
  // Nothing started, written or deleted outside the sandbox; nothing left in the cache.
  EXPECT_FALSE(fs::exists(kRoot / "pwned-kernel"));
  EXPECT_FALSE(fs::exists(kRoot / "pwned-static"));
  EXPECT_FALSE(fs::exists(kHome / "written"));
  EXPECT_EQ(read(kHome / "private.txt"), kSecretFile + "\n");
  EXPECT_FALSE(fs::exists(kCache / "planted.so"));
  EXPECT_FALSE(strayProcess());
  for (const auto& e : fs::directory_iterator(kCache))
    EXPECT_NE(e.path().filename().string().rfind("run-", 0), 0u) << "a scratch directory was left: " << e.path();
  EXPECT_EQ(fs::status(kCache).permissions() & fs::perms::all, fs::perms::owner_all);

  const CliResult after = runCli("lab run " + honest + " --backend emu");
  EXPECT_EQ(after.exitCode, 0) << after.all();
  auto verdictLine = [](const std::string& out) { return out.substr(out.find('\n') + 1); };
  EXPECT_EQ(verdictLine(after.out), verdictLine(before.out));
  unsetenv("TILESCOPE_LAB_CACHE");
  fs::remove_all(kRoot);
}

// A cache entry altered after it was stored is not loaded: it is compiled again.
TEST(LabSandbox, AlteredCacheEntryIsNotLoaded) {
  if (!sandboxUsable()) GTEST_SKIP() << "Landlock or seccomp unavailable";
  const fs::path cache = testing::testTempPath("_cache");
  fs::remove_all(cache);
  setenv("TILESCOPE_LAB_CACHE", cache.c_str(), 1);
  const std::string honest = std::string(TILESCOPE_LAB_EXAMPLES) + "/pmpp_fig5_9.cu";
  ASSERT_EQ(runCli("lab run " + honest + " --backend emu").exitCode, 0);
  for (const auto& e : fs::directory_iterator(cache))
    if (e.path().extension() == ".so") std::ofstream(e.path(), std::ios::binary) << "not a kernel";
  const CliResult again = runCli("lab run " + honest + " --backend emu --json");
  EXPECT_EQ(again.exitCode, 0) << again.all();
  EXPECT_NE(again.out.find("\"cached\":false"), std::string::npos) << again.out;
  unsetenv("TILESCOPE_LAB_CACHE");
}

// A folder as a class hands it in: a right kernel, a wrong one, one that crashes, hostile ones.
TEST(LabSandbox, GradeAFolder) {
  if (!sandboxUsable()) GTEST_SKIP() << "Landlock or seccomp unavailable";
  const fs::path dir = testing::testTempPath("_class"), cache = testing::testTempPath("_cache");
  fs::remove_all(dir);
  fs::create_directories(dir);
  setenv("TILESCOPE_LAB_CACHE", cache.c_str(), 1);
  const std::string right = read(std::string(TILESCOPE_LAB_SOLUTIONS) + "/bounds_jkl.cu");
  std::ofstream(dir / "alice.cu") << right;
  std::string wrong = right;
  wrong.replace(wrong.find("+="), 2, "=");  // keeps only the last product
  std::ofstream(dir / "bob.cu") << wrong;
  std::ofstream(dir / "carol.cu") << "__global__ void k(float* M, float* N, float* P, int j, int k, int l) {\n"
                                     "  int zero = j - j;\n  P[0] = float(l / zero);\n}\n";
  std::ofstream(dir / "dave.cu") << "#include <stdlib.h>\n"
                                    "__global__ void k(float* M, float* N, float* P, int j, int k, int l) {\n"
                                    "  system(\"touch /tmp/tilescope-grade-pwned\");\n}\n";
  const fs::path csv = dir / "grades.csv";
  const CliResult r = runCli("lab grade bounds_jkl " + dir.string() + " --csv " + csv.string() + " -j 2");
  EXPECT_EQ(r.exitCode, 0) << r.all();
  const std::string table = read(csv);
  std::istringstream lines(table);
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("file,file_ascii,passed,verdict,checks_passed,checks_total", 0), 0u) << header;
  std::map<std::string, std::string> rows;
  while (std::getline(lines, line)) rows[line.substr(0, line.find(','))] = line;
  ASSERT_EQ(rows.size(), 4u) << table;
  EXPECT_EQ(rows["alice.cu"].rfind("alice.cu,alice.cu,true,verified,", 0), 0u) << rows["alice.cu"];
  EXPECT_EQ(rows["bob.cu"].rfind("bob.cu,bob.cu,false,wrong result,", 0), 0u) << rows["bob.cu"];
  EXPECT_EQ(rows["carol.cu"].rfind("carol.cu,carol.cu,false,crashed,", 0), 0u) << rows["carol.cu"];
  EXPECT_EQ(rows["dave.cu"].rfind("dave.cu,dave.cu,false,compile error,", 0), 0u) << rows["dave.cu"];  // system(): lab_imports.h
  EXPECT_FALSE(fs::exists("/tmp/tilescope-grade-pwned"));
  EXPECT_EQ(runCli("lab grade bounds_jkl /nonexistent-folder").exitCode, 2);
  unsetenv("TILESCOPE_LAB_CACHE");
}

}  // namespace
}  // namespace tilescope
