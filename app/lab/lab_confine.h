// What the lab's GPU run in a child needs from the sandbox and the cache: the runner's policy
// and the GPU's compiled modules carried between the cache and the runner's scratch directory
// (the runner never writes the cache).
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

// The cache's checked modules for the job copied into the scratch directory, where the runner
// looks; after the run, the modules it compiled stored into the cache.
void copyGpuModulesIn(const GpuCompileJob& job);
void storeGpuModulesOut(const GpuCompileJob& job);

// "crashed: ..." for a runner the sandbox stopped at system call `syscall`.
std::string sandboxStopSummary(int syscall);

}  // namespace tilescope::lab
