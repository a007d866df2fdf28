// For the sandbox's tests only: a lab run with the checks before the sandbox turned off.
//
// The source check and the compiled object's import check (lab_source.h, lab_imports.h) now
// refuse every hostile file of tests/fixtures/lab/hostile before it runs, so the run-time
// layer (seccomp, Landlock, rlimits, the disk and time limits, the response's size check) no
// longer meets one. These entries compile the file with the same compiler, flags and headers
// as runLab and run it in the same sandbox, skipping only those two checks, so that a test can
// hand the runner code that opens files, forks or floods its output and see each stopped.
// Defined in lab_testing.cpp, the library tilescope_lab_testing, which only tests link: the CLI
// and the app do not contain it (tests/lab/lab_files_test.cpp reads their symbols).
#pragma once
#include "lab.h"

namespace tilescope::lab {

Result<LabOutcome> runLabWithoutChecksForTesting(const LabRequest& request);

}  // namespace tilescope::lab
