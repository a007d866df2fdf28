// Runs the real tilescope-cli binary (TILESCOPE_CLI, set by CMake for each test target) and
// captures its exit code, standard output and standard error, for the CLI test suites.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace tilescope::testing {

struct CliResult {
  int exitCode = -1;
  std::string out, err;
  std::string all() const { return out + err; }
};

// A path in the test temp directory unique to the running test: CTest runs the tests of one
// binary in parallel processes, so shared file names would collide.
inline std::string testTempPath(const std::string& suffix) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(test->test_suite_name()) + "_" + test->name();
  for (char& c : name)
    if (c == '/') c = '_';
  return ::testing::TempDir() + name + suffix;
}

inline CliResult runCli(const std::string& args) {
  const std::string errFile = testTempPath(".stderr");
  const std::string cmd = std::string(TILESCOPE_CLI) + " " + args + " 2>" + errFile;
  CliResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream ss;
  ss << std::ifstream(errFile).rdbuf();
  r.err = ss.str();
  return r;
}

}  // namespace tilescope::testing
