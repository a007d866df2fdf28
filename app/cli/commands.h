// The CLI's commands. Each writes to `out` and returns the process exit code.
#pragma once
#include <ostream>

#include "cli_options.h"
#include "core/finished/finished_run.h"

namespace tilescope::cli {

enum ExitCode { kExitOk = 0, kExitVerifyFailed = 1, kExitBadInput = 2, kExitRuntime = 3 };

int listKernels(const Options& o, std::ostream& out);
int runCommand(const Options& o, std::ostream& out);
int traceCommand(const Options& o, std::ostream& out);
int demoCommand(const Options& o, std::ostream& out);
int analyzeCommand(const Options& o, std::ostream& out);  // analyze_command.cpp
int benchCommand(const Options& o, std::ostream& out);    // bench_command.cpp
int bugsCommand(const Options& o, std::ostream& out);     // teaching_commands.cpp
int saveCommand(const Options& o, std::ostream& out);     // teaching_commands.cpp
int openCommand(const Options& o, std::ostream& out);     // teaching_commands.cpp
int lessonsCommand(const Options& o, std::ostream& out);  // teaching_commands.cpp
int labCommand(const Options& o, std::ostream& out);      // lab_command.cpp
int labCheck(const Options& o, std::ostream& out);        // lab_check_command.cpp
int labGrade(const Options& o, std::ostream& out);        // lab_grade_command.cpp
int labGradeFile(const Options& o, std::ostream& out);    // lab_grade_command.cpp: one file, the grader's child
int labExercises(const Options& o, std::ostream& out);    // lab_check_command.cpp
int labAutograder(const Options& o, std::ostream& out);   // lab_autograder_command.cpp

// `config` run on the backend the options name and finished (core/finished): the one way every
// command gets a run. The CLI prints no views, so no timeline is cut.
Result<std::shared_ptr<FinishedRun>> finishedRun(const Options& o, const LaunchConfig& config, Tracing tracing);

// The device a kernel's own schedule reasons about: the backend's own, or the h100 profile
// when the backend has none (the emulator).
Result<DeviceProfile> selectorDevice(BackendChoice backend);
// `config` through the one door (core/run/launch_door.h): a kernel whose facts choose its
// schedule, given neither --tiling nor --grid-blocks, gets its choice for the backend's device
// (asked only then), and `reason` says which ran and why, one line. Any other config comes
// back as it is, `reason` empty.
Result<LaunchConfig> throughTheDoor(const LaunchConfig& config, BackendChoice backend, std::string& reason);

// Prints "tilescope-cli: MESSAGE" to stderr and returns the exit code for its kind.
int reportError(const Error& e);
// A lab command's error: its message through escapedError (grade_output.h: a student's file
// name or line can quote anything), then as reportError.
int reportLabError(const Error& e);
// A lab command stopped by Ctrl-C or SIGTERM (lab::labInterrupted): says so, returns 130.
int reportInterrupt();

}  // namespace tilescope::cli
