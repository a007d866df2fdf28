// What lab.cpp's run in a child needs from the sandbox and the cache: the runner's policy,
// the launch's memory predicted before it runs, and the GPU's compiled modules carried
// between the cache and the runner's scratch directory (the runner never writes the cache).
#pragma once
#include <filesystem>
#include <string>

#include "kernels/result.h"
#include "lab.h"
#include "lab_compile.h"
#include "lab_ipc.h"
#include "lab_sandbox.h"

namespace tilescope::lab {

// Unavailable, in plain words, when the request wants the sandbox and this machine's kernel
// cannot give it.
Status requireSandbox(const LabRequest& request);

// What the runner may read and write: the system's libraries, its scratch directory, and on
// the GPU the driver's device files, /proc and /sys and the lab's headers (for NVRTC).
SandboxPolicy runnerPolicy(bool gpu, const std::filesystem::path& scratch, const std::filesystem::path& include,
                           const LabRequest& request, double cpuSeconds, uint64_t fileSizeBytes);

// The runner's memory for a traced launch, predicted before it runs: the trace slots twice
// (filled, then packed for the response), the matrices three times, and the runner itself.
// How many times its first estimate of events per thread a lab kernel's trace may grow to.
inline constexpr uint64_t kMaxTraceGrowth = 64;
struct LaunchMemory {
  uint64_t predictedBytes = 0;
  uint64_t maxTraceSlots = 0;  // the most the runner may grow the trace to within the limit
  uint64_t responseBytes = 0;  // the largest response file it may write
};
// InvalidInput, with both figures, when the launch would not fit `limitBytes`.
Result<LaunchMemory> predictLaunchMemory(const RunnerRequest& request, uint64_t limitBytes);

// The cache's checked modules for the job copied into the scratch directory, where the runner
// looks; after the run, the modules it compiled stored into the cache.
void copyGpuModulesIn(const GpuCompileJob& job);
void storeGpuModulesOut(const GpuCompileJob& job);

// "crashed: ..." for a runner the sandbox stopped at system call `syscall`.
std::string sandboxStopSummary(int syscall);

}  // namespace tilescope::lab
