// The GPU's part of the lab, in tilescope-lab-runner (lab_child.cpp), and the helpers of lab.cpp
// it calls. Internal to app/lab: lab.h is the interface.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "kernels/result.h"
#include "lab.h"
#include "lab_launch.h"

namespace tilescope::lab::detail {

struct Backend {
  bool gpu = false;
  std::string note;  // why auto fell back to the emulator
};
// The request's backend here: the GPU where asked (an Error when there is none), auto's choice.
Result<Backend> chooseBackend(const LabRequest& q);

// NVRTC compiles the kernel as written and tilescope-lab-runner --cuda-time, in its sandbox,
// checks one launch's P against the reference and then times it (finishTiming's verdict).
Result<LabOutcome> runOnGpu(const LabRequest& q, const TimingOptions& timing);

// tilescope-lab-runner --cuda, in its sandbox: the kernel's traced run on the GPU (NVRTC's
// compile of its code over the views), on the inputs of `interpreted` (the interpreter's run
// of the same request, which ran to its end), with room for as many events as that run
// recorded; finished and compared with it by finishGpuTrace.
Result<LabOutcome> traceOnGpu(const LabRequest& q, const LabOutcome& interpreted);

// lab.cpp's, used by the steps.
std::optional<std::string> gpuUnavailable();
Result<std::filesystem::path> findRunner();
Status finishTiming(const LabRequest& q, LabOutcome& o, const RunnerResponse& r);

}  // namespace tilescope::lab::detail
