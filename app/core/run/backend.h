// Backends execute a planned launch: the CPU emulator always, CUDA when the build has
// nvcc and the machine a device. The core draws the inputs, poisons P, decodes the trace
// and verifies, so every backend is held to the same checks.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/device_profile.h"
#include "core/run/kernel_resources.h"
#include "kernels/launch_report.h"
#include "kernels/trace/trace_event.h"
#include "core/run/launch_config.h"
#include "core/trace/trace.h"
#include "core/run/matrix.h"
#include "kernels/result.h"

namespace tilescope {

enum class BackendKind { Emulator, Cuda };
enum class BackendChoice { Emulator, Cuda, Auto };

struct LaunchOutcome {
  // Accesses outside an allocation (the emulator sees them; a GPU does not report them).
  std::vector<OutOfBoundsAccess> outOfBounds;
  std::size_t outOfBoundsTotal = 0;
  std::vector<BarrierDivergence> divergences;
  bool traceOverflowed = false;
  // The backend returned the trace already in canonical order (the GPU decodes on the
  // device), holding only the recorded events; otherwise `slots` are raw per-thread slots.
  bool slotsDecoded = false;
  // Blocks the emulator stopped at a barrier limit (makeEmulatorBackend's stopAfterBarriers):
  // 0 for a whole launch. A run cut short holds the first barrier intervals of every block,
  // its P unfinished, so it is not verified (completeLaunch).
  std::size_t blocksStopped = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual BackendKind kind() const = 0;
  virtual std::string name() const = 0;        // "emulator", "cuda"
  virtual std::string deviceName() const = 0;  // "CPU emulator", "NVIDIA H100 80GB HBM3"
  // Runs `plan` on M and N into P. With `slots` non-null the traced kernels run and fill
  // it: plan.traceSlots raw slots, or the canonical trace when outcome.slotsDecoded.
  virtual Result<LaunchOutcome> launch(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P,
                                       EventVector* slots) = 0;
  // Whether this backend has the kernel instantiation `plan` needs.
  virtual Status supports(const LaunchPlan& plan) const = 0;
  // What the compiled plain kernel of `plan` asks of an SM (threads, shared memory,
  // registers per thread), as the device reports it. Unavailable where nothing is compiled
  // for a device (the emulator): the occupancy model then takes the estimate,
  // kernelResources(plan.launch).
  virtual Result<KernelResources> compiledResources(const LaunchPlan& plan) {
    (void)plan;
    return unavailable("the " + name() + " backend compiles no GPU kernel: registers are a profile estimate");
  }
  // The device as an analysis profile (profile "device"): its SM limits and the roofline's
  // ceilings measured on it (once; later calls return the same). Unavailable on the emulator.
  virtual Result<DeviceProfile> deviceProfile() {
    return unavailable("the " + name() + " backend is not a GPU: choose a built-in profile (" + profileNames() + ")");
  }
};

// stopAfterBarriers > 0: each block runs only until all its threads arrived at that barrier
// (emu::runGrid), the app's first picture of a large launch before its whole run.
std::unique_ptr<Backend> makeEmulatorBackend(int stopAfterBarriers = 0);
// Where the first picture of a large launch on the emulator stops (the app shows it while the
// whole run goes on): 2, every block to its second barrier, a tiled kernel's phase 0 whole;
// 1, its first barrier, phase 0's tiles loaded, where phase 0 alone is about a million events
// (128^3 at T = 32); 0, no first picture: a launch under 64^3 multiply-adds (a whole run then
// takes under 75 ms of CPU) or a kernel whose picture is not a tiled kernel's phases (no
// tiles, the ladder's rings, a kernel with a mistake, whose picture may be anywhere in it).
int firstPictureBarriers(const LaunchConfig& config);
// The CUDA backend, or why there is none ("built without CUDA", "no CUDA device", a build
// with no code for this GPU). The first call says on stderr, in one line with the command that
// fixes it, when the build has no machine code for the device (kernels/cuda/gpu_code.h).
Result<std::unique_ptr<Backend>> makeCudaBackend();
// Which GPUs the build has code for ("machine code for sm_90a; PTX for compute_90"), for --version.
std::string cudaBuildDescription();
// "" when the build has machine code for device 0 (or there is none); else one line: it has no
// code for it, or only PTX the driver compiles at every start (the check-only build's
// unoptimised PTX among them), and the command that fixes it. The app's status line keeps it.
std::string cudaCodeNote();
// `program VERSION`, the CUDA code the build has and what device 0 makes of it: --version.
std::string versionText(const std::string& program, std::string_view version);
// Auto picks CUDA when a device is present, else the emulator.
Result<std::unique_ptr<Backend>> makeBackend(BackendChoice choice);

}  // namespace tilescope
