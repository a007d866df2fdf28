#include "lab.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <csignal>

#include "core/trace/trace.h"
#include "core/asset_paths.h"
#include "core/run/launch_config.h"
#include "kernels/ceil_div.h"
#include "kernels/emu/emulator.h"
#include "lab_cache.h"
#include "lab_child.h"
#include "lab_compile.h"
#include "lab_confine.h"
#include "lab_ipc.h"
#include "lab_judge.h"
#include "lab_process.h"
#include "lab_source.h"
#if TILESCOPE_HAVE_CUDA
#include "kernels/cuda/gpu_info.h"
#endif
#include "core/run/trace_accounts.h"

namespace tilescope::lab {

// The helpers lab_child.cpp calls too (lab_child.h), and lab.cpp's own.
namespace detail {

// Why the lab cannot run on a GPU here, or nothing when it can.
std::optional<std::string> gpuUnavailable() {
#if TILESCOPE_HAVE_CUDA
  if (auto count = cuda::deviceCount(); !count) return count.error().message;
  return std::nullopt;
#else
  return std::string("this tilescope is built without CUDA");
#endif
}

// The runner: $TILESCOPE_LAB_RUNNER, else libexec/tilescope/tilescope-lab-runner in the
// nearest of the executable's directory and its ancestors (the build tree puts it there, and
// so does cmake --install below the prefix).
Result<std::filesystem::path> findRunner() {
  if (const char* r = std::getenv("TILESCOPE_LAB_RUNNER"); r && *r) return std::filesystem::path(r);
  auto exe = executablePath();
  if (!exe) return exe.error();
  std::string looked;
  for (std::filesystem::path d = exe->parent_path();; d = d.parent_path()) {
    const std::filesystem::path candidate = d / "libexec" / "tilescope" / "tilescope-lab-runner";
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    looked += (looked.empty() ? "" : ", ") + candidate.string();
    if (d == d.root_path() || d.empty()) break;
  }
  return unavailable("tilescope-lab-runner not found (looked at " + looked + "); set TILESCOPE_LAB_RUNNER");
}

// The name once the kernel's own name is known (empty: it could not be read).
std::string timingName(const std::string& kernel, const LabRequest& q) {
  std::string given;
  for (const LabDefine& d : q.defines) given += " " + d.name + "=" + d.value;
  return (kernel.empty() ? q.fileName : kernel + " (" + q.fileName + ")") + given;
}
// What --cuda-time measured, as the outcome's verdict and timing.
Status finishTiming(const LabRequest& q, LabOutcome& o, const RunnerResponse& r) {
  const LabLaunch& L = o.launch;
  if (!r.error.empty()) return invalidInput("the GPU refused the launch: " + r.error);
  o.gpu = r.gpu;
  TimingResult t;
  t.what.kind = TimedKind::Lab;
  t.what.name = timingName(o.launch.kernelName, q);  // the kernel that was compiled, not read again
  t.what.config.dims = L.dims;
  t.what.config.seed = q.seed;
  t.what.config.blockX = int(L.block.x);
  t.what.config.blockY = int(L.block.y);
  t.verified = r.timing.verified;
  t.verification = r.timing.verification;
  t.maxRelativeError = r.timing.maxRelativeError;
  if (t.verified) {
    t.medianMs = r.timing.medianMs, t.minMs = r.timing.minMs, t.maxMs = r.timing.maxMs;
    t.repeats = r.timing.repeats;
    t.gflops = r.timing.gflops;
    char text[160];
    std::snprintf(text, sizeof text, "timed: %.1f GFLOP/s, median %.4g ms of %d launches", t.gflops, t.medianMs,
                  t.repeats);
    o.verdict = LabVerdict::Verified;
    o.summary = text + (" (" + t.verification + ")");
  } else {
    o.verdict = LabVerdict::WrongResult;
    o.summary = "wrong result: " + t.verification + " (not timed)";
  }
  o.timing = std::move(t);
  return Ok{};
}

}  // namespace detail

using detail::gpuUnavailable;
using detail::runInChild;
using detail::timingName;

namespace {
// The GPU says neither which thread faulted nor where a kernel hangs; the emulator, running
// the same source on the same launch and inputs, does. Its answer is added to the GPU's
// outcome, named as the emulator's: a GPU time-out the emulator finds to be threads waiting
// at a barrier others never reach is a deadlock.
void locateOnEmulator(const LabRequest& q, LabOutcome& o) {
  LabRequest e = q;
  e.backend = LabBackend::Emulator;
  auto r = runInChild(e, nullptr);
  if (!r) {
    o.summary += " (the emulator cannot say where: " + r.error().message + ")";
    return;
  }
  std::optional<LabWhere> where = r->where;
  if (!where && !r->boundsViolations().empty()) {
    const Event& ev = r->boundsViolations().front().event;
    where = LabWhere{{ev.blockX, ev.blockY, 1}, {ev.threadX, ev.threadY, 1}, int(ev.line)};
  } else if (!where && !r->outsideAllocation.empty()) {
    const OutOfBoundsAccess& a = r->outsideAllocation.front();
    where = LabWhere{a.block, a.thread, a.line};
  }
  if (o.verdict == LabVerdict::TimedOut && r->verdict == LabVerdict::Deadlocked) {
    o.verdict = LabVerdict::Deadlocked;
    o.summary = "deadlocked: the GPU was still running at the time limit; the emulator, on the same launch, found " +
                r->summary.substr(r->summary.find(": ") + 2);
  } else {
    o.summary += "; the emulator, on the same launch: " + r->summary;
  }
  if (where) o.where = where;
  o.emulatorBounds = r->boundsViolations();
  o.outsideAllocation = r->outsideAllocation;
}
}  // namespace

Result<LabOutcome> runLab(const LabRequest& q) {
  auto o = runInChild(q, nullptr);
  const bool cancelled = q.cancel && q.cancel->load();
  if (o && o->launch.backend == "cuda" && !cancelled &&
      (o->verdict == LabVerdict::Crashed || o->verdict == LabVerdict::TimedOut) &&
      uint64_t(o->launch.dims.j) * o->launch.dims.k * o->launch.dims.l <= kMaxEmulatorMultiplyAdds)
    locateOnEmulator(q, *o);
  return o;
}

Result<LabOutcome> timeLab(const LabRequest& q, const TimingOptions& options) {
  if (options.warmup < 0 || options.repeats < 1 || !(options.maxSecondsPerCase > 0.0))
    return invalidInput("timing needs at least 1 repeat, no negative warm-up and a time budget over 0 s");
  if (const std::optional<std::string> why = gpuUnavailable())
    return unavailable("timing a lab kernel needs a GPU: " + *why);
  LabRequest onGpu = q;
  onGpu.backend = LabBackend::Cuda;
  if (options.cancel) onGpu.cancel = options.cancel;
  return runInChild(onGpu, &options);
}

std::string labTimingName(const LabRequest& q) {
  std::vector<std::pair<std::string, std::string>> defines;
  for (const LabDefine& d : q.defines) defines.emplace_back(d.name, d.value);
  auto kernel = readKernelSource(applyDefines(withoutByteOrderMark(q.source), defines), q.fileName);
  return timingName(kernel ? kernel->name : std::string(), q);
}

}  // namespace tilescope::lab
