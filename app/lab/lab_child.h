// The lab's run of one request in tilescope-lab-runner, step by step (lab_child.cpp), and the
// helpers of lab.cpp those steps call. Internal to app/lab: lab.h is the interface.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "kernels/result.h"
#include "lab.h"
#include "lab_launch.h"

namespace tilescope::lab::detail {

// What the lab checks before a kernel runs. Both are on for every run a user starts; the
// sandbox's own tests (tests/lab/lab_runtime_sandbox_test.cpp) turn them off to hand the
// runner hostile compiled code directly (lab_testing.h).
struct Checks {
  bool source = true;   // checkStudentSource: includes, host code, the lab's own names
  bool imports = true;  // the compiled object imports only what the device runtime provides
};

// Runs the request in tilescope-lab-runner: a traced run (timing null) or a timed one.
Result<LabOutcome> runInChild(const LabRequest& q, const TimingOptions* timing, const Checks& checks = {});

// lab.cpp's, used by the steps.
std::optional<std::string> gpuUnavailable();
Result<std::filesystem::path> findRunner();
Status finishTiming(const LabRequest& q, LabOutcome& o, const RunnerResponse& r);

}  // namespace tilescope::lab::detail
