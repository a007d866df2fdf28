// The files the lab and tilescope-lab-runner exchange: what to run (sizes, launch, inputs,
// the recorder's facts) and what happened (P, the emulator's report, the raw trace slots,
// where the static shared arrays were placed). Both ends are this build, so the format is
// plain and versionless; the reader still checks every length.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "kernels/launch_report.h"
#include "kernels/result.h"
#include "lab.h"
#include "lab_abi.h"

namespace tilescope::lab {

struct RunnerRequest {
  int j = 0, k = 0, l = 0;
  Dim3 grid, block;
  unsigned sharedBytes = 0;
  unsigned slotsPerThread = 0;      // to start with; doubled while a thread overflows
  uint64_t maxTraceSlots = 0;       // the cap on threads x slots
  double timeoutSeconds = 0.0;      // the runner stops itself here (the parent kills later)
  std::vector<double> scalars;      // further scalar parameters, in order
  SharedArrayFacts shared[kMaxSharedArrays];
  std::vector<float> m, n;  // a traced run's inputs
  // tilescope-lab-runner --cuda-time only: the runner draws the inputs itself from the seed
  // (as core/run.h draws them), several copies of them at large sizes, and times the kernel.
  uint64_t seed = 0;
  int warmup = 0, repeats = 0;
  double maxSecondsPerCase = 0.0;
};

// What a timed run measured (tilescope-lab-runner --cuda-time): TimingResult's numbers.
struct RunnerTiming {
  bool verified = false;
  std::string verification;
  double maxRelativeError = 0.0, medianMs = 0.0, minMs = 0.0, maxMs = 0.0, gflops = 0.0;
  int repeats = 0;
};

struct RunnerResponse {
  std::string error;  // a launch the emulator refused
  std::vector<OutOfBoundsAccess> outOfBounds;
  uint64_t outOfBoundsTotal = 0;
  std::vector<BarrierDivergence> divergences;
  bool traceOverflowed = false;
  unsigned slotsPerThread = 0;  // of `slots`: the most any thread used
  std::vector<float> p;
  EventVector slots;            // threads x slotsPerThread, unused slots Op::None
  StaticSharedGeometry geometry[kMaxSharedArrays];
  // tilescope-lab-runner --cuda only:
  bool slotsDecoded = false;  // `slots` is the canonical trace, decoded on the device
  bool compileFailed = false;  // NVRTC refused the unit: compileLog says why, nothing ran
  bool compileCached = false;
  std::string compileLog;
  double compileSeconds = 0.0;
  std::string kernelFault;  // the kernel faulted while it ran (an illegal address, ...)
  LabGpuFacts gpu;
  RunnerTiming timing;  // --cuda-time
};

Status writeRunnerRequest(const std::filesystem::path& file, const RunnerRequest& r);
Result<RunnerRequest> readRunnerRequest(const std::filesystem::path& file);
Status writeRunnerResponse(const std::filesystem::path& file, const RunnerResponse& r);
// Refused, unread, when the file holds more than `maxBytes`: a child may have written
// anything there.
Result<RunnerResponse> readRunnerResponse(const std::filesystem::path& file, uint64_t maxBytes = uint64_t(1) << 40);

// Why a traced response cannot be this request's launch ("" when it can): a P of another size,
// more events than its threads have room for, an event outside the launch or its arrays (the
// GPU's trace comes decoded, in canonical order).
std::string responseMisfit(const RunnerResponse& r, const RunnerRequest& q);

// What the runner's signal handler leaves behind: "signal 11", "timeout", "sandbox N" (seccomp
// refused system call N), then "block X Y",
// "thread X Y", "line L" where it knew them.
struct RunnerStop {
  bool timeout = false;
  int signal = 0;
  int syscall = -1;  // the system call the sandbox refused, or -1
  bool located = false;
  Dim3 block, thread;
  int line = 0;
};
RunnerStop readRunnerStop(const std::filesystem::path& file);

}  // namespace tilescope::lab
