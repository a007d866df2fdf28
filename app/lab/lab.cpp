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
#include "exercise.h"
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
using detail::timingName;

namespace {
// Whether the interpreter ran the kernel to its end within every array: only then does the
// GPU run it (nothing the interpreter refused, stopped or saw reach past an array).
bool ranWhole(const LabOutcome& o) {
  return o.verdict == LabVerdict::Verified || o.verdict == LabVerdict::WrongResult || o.verdict == LabVerdict::Hazard;
}

// The GPU's compile or run ended the check (`gpu` is how): its words into the lab's outcome.
// True when they decide it (a compile error; a verified run the GPU does not repeat).
bool gpuEnded(const LabOutcome& gpu, LabOutcome& o) {
  o.compilerOutput = gpu.compilerOutput;
  o.childOutput = gpu.childOutput;
  o.sandbox = gpu.sandbox;
  if (gpu.gpu) o.gpu = gpu.gpu;
  if (gpu.verdict == LabVerdict::Verified) return false;
  if (gpu.verdict == LabVerdict::CompileError) {
    o.verdict = LabVerdict::CompileError;
    o.diagnostics = gpu.diagnostics;
    o.summary = "the GPU's compiler refuses what the lab ran: " + gpu.summary;
  } else if (o.verdict == LabVerdict::Verified) {
    const bool wrong = gpu.verdict == LabVerdict::WrongResult;
    o.verdict = wrong ? LabVerdict::WrongResult : gpu.verdict;
    o.summary = gpu.summary.starts_with("behaves differently on the GPU")
                    ? gpu.summary
                    : "behaves differently on the GPU: the lab's run was verified, the GPU's " + gpu.summary;
  } else {
    o.summary += "; on the GPU: " + gpu.summary;
  }
  return true;
}

// On the GPU the interpreter's outcome stays the lab's answer (its trace, counters, hazards and
// correctness); the GPU adds what only it can. NVRTC compiles the source as written; the
// kernel's traced run there must give the interpreter's trace (else it behaves differently on
// the GPU, and the run fails); then one launch of the kernel as written is checked against the
// reference and timed.
Status addGpuCheck(const LabRequest& q, LabOutcome& o) {
  auto traced = detail::traceOnGpu(q, o);
  if (!traced) return traced.error();
  o.launch.backend = "cuda";
  o.compileSeconds = traced->compileSeconds;
  o.cached = traced->cached;
  if (gpuEnded(*traced, o)) return Ok{};
  TimingOptions options;
  options.cancel = q.cancel;
  auto timed = detail::runOnGpu(q, options);
  if (!timed) return timed.error();
  o.timing = timed->timing;
  o.cached = o.cached || timed->cached;
  if (gpuEnded(*timed, o)) return Ok{};
  o.summary += "; on the GPU: " + traced->summary + "; " + timed->summary;
  return Ok{};
}
}  // namespace

std::optional<std::string> labGpuUnavailable() { return gpuUnavailable(); }

Result<LabOutcome> runLab(const LabRequest& q) {
  auto backend = detail::chooseBackend(q);
  if (!backend) return backend.error();
  auto o = detail::runOnInterpreter(q, backend->note);
  const bool cancelled = q.cancel && q.cancel->load();
  // The GPU runs only what the interpreter ran to its end within every array: nothing it
  // refused, stopped (a crash, a time-out, a deadlock) or saw reach past an array.
  if (!o || !backend->gpu || cancelled || !ranWhole(*o)) return o;
  if (auto s = addGpuCheck(q, *o); !s) return s.error();
  return o;
}

Status addGpuChecks(const Exercise& x, const std::string& source, const std::string& fileName, const LabRequest& base,
                    Grade& g) {
  if (std::any_of(g.items.begin(), g.items.end(), [](const GradeItem& i) { return i.check == "compiles"; })) return Ok{};
  for (const Dims& d : x.sizes) {
    const LabRequest q = exerciseRequest(x, base, source, fileName, d);
    auto o = runLabInterpreted(q);
    if (!o) return o.error();
    GradeItem item{gpuCheckName(d), false, "", std::nullopt};
    if (!ranWhole(*o)) {
      item.detail = "not run on the GPU: the lab's run did not end within its arrays (" + o->summary + ")";
    } else {
      auto traced = detail::traceOnGpu(q, *o);
      if (!traced) return traced.error();
      item.passed = traced->verdict == LabVerdict::Verified;
      item.detail = traced->summary;
    }
    g.passed = g.passed && item.passed;
    g.items.push_back(std::move(item));
  }
  return Ok{};
}

Result<LabOutcome> timeLab(const LabRequest& q, const TimingOptions& options) {
  if (options.warmup < 0 || options.repeats < 1 || !(options.maxSecondsPerCase > 0.0))
    return invalidInput("timing needs at least 1 repeat, no negative warm-up and a time budget over 0 s");
  if (const std::optional<std::string> why = gpuUnavailable())
    return unavailable("timing a lab kernel needs a GPU: " + *why);
  LabRequest onGpu = q;
  onGpu.backend = LabBackend::Cuda;
  if (options.cancel) onGpu.cancel = options.cancel;
  return detail::runOnGpu(onGpu, options);
}

std::string labTimingName(const LabRequest& q) {
  std::vector<std::pair<std::string, std::string>> defines;
  for (const LabDefine& d : q.defines) defines.emplace_back(d.name, d.value);
  auto kernel = readKernelSource(applyDefines(withoutByteOrderMark(q.source), defines), q.fileName);
  return timingName(kernel ? kernel->name : std::string(), q);
}

}  // namespace tilescope::lab
