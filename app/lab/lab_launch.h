// The lab's steps that need no process (lab_launch.cpp, lab_interpreted.cpp): the request's
// limits, the launch resolved, a compile error at the student's line, the interpreter's run,
// and a runner's or the interpreter's answer finished into a judged run. Internal to app/lab:
// lab.h is the interface. Part of tilescope_lab_core, which the page links.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/result.h"
#include "lab.h"
#include "lab_diagnostics.h"
#include "lab_ipc.h"
#include "lab_source.h"

namespace tilescope::lab::detail {

// Time limits and the source's size within the lab's bounds.
Status checkRequestLimits(const LabRequest& q);
// A signature the lab cannot map, a fragment without a kernel: a compile error at its line.
LabOutcome unreadableKernel(LabOutcome o, const std::string& why, const std::string& fileName);
// The launch with every default resolved; `traced`: the run records a trace, which caps the grid.
Result<LabLaunch> resolveLaunch(const LabRequest& r, const LabKernelSource& k, bool gpu, bool traced);
LabOutcome compileError(LabOutcome o, const std::vector<LabDiagnostic>& diagnostics);
// The Run of the answer `r` (P, the report, the trace slots), finished, judged and checked
// to account for P, into `o`.
Status finishLabRun(const LabRequest& q, const LabKernelSource& k, LabOutcome& o, RunnerResponse&& r);

// Runs a traced request through the lab's own interpreter, in this process
// (lab_interpreted.cpp): `source` as the lab read it, `o` with its launch resolved.
Result<LabOutcome> runInterpreted(const LabRequest& q, const LabKernelSource& kernel, const std::string& source,
                                  LabOutcome o);
// The compile error the interpreter's front end finds in `source` (outside the lab's subset,
// a mistake), or nothing: the GPU compiles only what the interpreter accepts.
std::optional<LabOutcome> refusedByInterpreter(const LabRequest& q, const LabKernelSource& kernel,
                                               const std::string& source, const LabOutcome& o);
// The whole emulator run of a request on the interpreter: limits, the kernel read, the
// launch resolved (`backendNote`: why --backend auto ran here), the interpreter's run.
Result<LabOutcome> runOnInterpreter(const LabRequest& q, const std::string& backendNote);

}  // namespace tilescope::lab::detail
