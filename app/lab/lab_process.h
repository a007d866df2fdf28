// Child processes of the lab (the compiler, tilescope-lab-runner): started with posix_spawn in
// a process group of their own, stdout and stderr into a file, killed (the whole group) when
// they outlive their time limit or the caller cancels. Nothing a child does can take the
// caller down.
#pragma once
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/result.h"

namespace tilescope::lab {

struct ChildResult {
  int exitCode = -1;     // when it exited
  int signal = 0;        // when a signal ended it (not our kill)
  bool timedOut = false;  // we killed it at the time limit (CPU time, or the wall-clock backstop)
  bool cancelled = false;
  bool diskExceeded = false;  // we killed it: its scratch directory grew past ScratchLimit
  std::string output;  // its stdout and stderr, at most 64 KiB
  double seconds = 0.0;
};

// The disk a child may fill: the files directly in `dir` (its scratch directory, where it may
// create files but no directories) together at most `maxBytes`. No limit when dir is empty.
struct ScratchLimit {
  std::filesystem::path dir;
  uint64_t maxBytes = 0;
};

// Runs argv[0] (a path) with argv in the environment `environment` (NAME=VALUE each: the
// lab's children get a clean one, lab_sandbox.h); an Error only when it could not be started.
// `timeoutSeconds` is CPU time (the child's and its descendants'), so a loaded machine slows a
// child without failing it; a child that uses no CPU is stopped by wall-clock time at four
// times the limit, more when more children than cores run at once.
// The child's output file is where a sandboxed child may write, its scratch directory. The
// child inherits no descriptor above 2 (closed in the child before it runs anything).
Result<ChildResult> runChild(const std::vector<std::string>& argv, const std::vector<std::string>& environment,
                             double timeoutSeconds, const std::atomic<bool>* cancel,
                             const std::filesystem::path& outputFile, const ScratchLimit& scratch = {});

// Set by an interrupt (the CLI's SIGINT and SIGTERM handler, `lab grade`'s SIGHUP, the app
// closing): every running child's process group is killed, the lab runs return as cancelled
// and remove their files. Setting it is async-signal-safe.
std::atomic<bool>& labInterrupted();

// The first of `names` found on $PATH, or empty.
std::filesystem::path findOnPath(const std::vector<std::string>& names);

}  // namespace tilescope::lab
