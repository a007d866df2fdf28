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
// The launch with every default resolved (the interpreter bounds its own trace: traceRoom).
Result<LabLaunch> resolveLaunch(const LabRequest& r, const LabKernelSource& k, bool gpu);
LabOutcome compileError(LabOutcome o, const std::vector<LabDiagnostic>& diagnostics);
// The Run of the answer `r` (P, the report, the trace slots), finished, judged and checked
// to account for P, into `o`.
Status finishLabRun(const LabRequest& q, const LabKernelSource& k, LabOutcome& o, RunnerResponse&& r);

// The GPU's traced run `r` of the request (tilescope-lab-runner --cuda, its trace decoded on
// the device) finished as a run and held to `interpreted`, the interpreter's run of the same
// request: Verified when its trace is the interpreter's event for event (lab_trace_compare.h)
// and its P is right where the interpreter's was; else WrongResult, "behaves differently on
// the GPU: " and the first difference.
Result<LabOutcome> finishGpuTrace(const LabRequest& q, const LabKernelSource& k, LabOutcome o, RunnerResponse&& r,
                                  const LabOutcome& interpreted);

// Runs a traced request through the lab's own interpreter, in this process
// (lab_interpreted.cpp): `source` as the lab read it, `o` with its launch resolved.
Result<LabOutcome> runInterpreted(const LabRequest& q, const LabKernelSource& kernel, const std::string& source,
                                  LabOutcome o);
// The compile error the interpreter's front end finds in `source` (outside the lab's subset,
// a mistake), or nothing: the GPU compiles only what the interpreter accepts.
std::optional<LabOutcome> refusedByInterpreter(const LabRequest& q, const LabKernelSource& kernel,
                                               const std::string& source, const LabOutcome& o);
// The opening every run of a request shares, on either backend: the request's limits, the
// source as the lab reads it (the request's defines applied), the kernel's signature and the
// launch through the core's door. Without `kernel`, `outcome` is already the answer (a
// signature the lab cannot read, a compile error at its line).
struct OpenedRequest {
  std::string source;
  std::optional<LabKernelSource> kernel;
  LabOutcome outcome;  // the launch resolved, its backend named
};
Result<OpenedRequest> openRequest(const LabRequest& q, bool gpu);

// The whole emulator run of a request on the interpreter: limits, the kernel read, the
// launch resolved (`backendNote`: why --backend auto ran here), the interpreter's run.
Result<LabOutcome> runOnInterpreter(const LabRequest& q, const std::string& backendNote);

}  // namespace tilescope::lab::detail
