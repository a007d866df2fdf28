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

// The tile width a launch implies when no block is given.
std::optional<int> tileDefine(const LabRequest& r) {
  for (const char* name : {"TILE_WIDTH", "TILE_SIZE", "BLOCK_SIZE", "BLOCKSIZE", "TILE"}) {
    for (const LabDefine& d : r.defines)
      if (d.name == name) {
        try {
          return std::stoi(d.value);
        } catch (...) {
        }
      }
    if (auto v = definedInteger(r.source, name)) return v;
  }
  return std::nullopt;
}

// `traced`: the run records a trace, which caps the grid (a timed run has no such cap).
Result<LabLaunch> resolveLaunch(const LabRequest& r, const LabKernelSource& k, bool gpu, bool traced) {
  LabLaunch L;
  L.kernelName = k.name;
  L.dims = r.dims;
  L.widthForm = k.widthForm;
  L.defines = r.defines;
  L.sharedBytes = r.sharedBytes;
  for (int d : {r.dims.j, r.dims.k, r.dims.l})
    if (d < 1 || d > kMaxDimension)
      return invalidInput("matrix dimension " + std::to_string(d) + " is out of range: each of j, k, l must be 1 to " +
                          std::to_string(kMaxDimension));
  if (k.widthForm && !(r.dims.j == r.dims.k && r.dims.k == r.dims.l))
    return invalidInput(r.fileName + ":" + std::to_string(k.line) + ": " + k.name +
                        " takes one size (int Width): give --size W, or write the kernel with int j, int k, int l");
  if (!gpu && uint64_t(r.dims.j) * r.dims.k * r.dims.l > kMaxEmulatorMultiplyAdds)
    return invalidInput("the emulator runs at most " + std::to_string(kMaxEmulatorMultiplyAdds) +
                        " multiply-adds per launch: choose a smaller size");
  const int tile = tileDefine(r).value_or(16);
  L.block = r.block.value_or(Dim3{unsigned(tile), unsigned(tile), 1});
  if (L.block.x < 1 || L.block.y < 1 || uint64_t(L.block.x) * L.block.y > uint64_t(kMaxThreadsPerBlock))
    return invalidInput("block " + std::to_string(L.block.x) + "x" + std::to_string(L.block.y) +
                        " is out of range: bx and by must be at least 1 and bx*by at most " +
                        std::to_string(kMaxThreadsPerBlock) + " threads");
  const int columnsPerBlock = int(L.block.x) * std::max(r.gridCoarsenX, 1);
  L.grid = r.grid.value_or(Dim3{unsigned(ceilDiv(r.dims.l, columnsPerBlock)), unsigned(ceilDiv(r.dims.j, int(L.block.y))), 1});
  if (L.grid.x < 1 || L.grid.y < 1 || L.grid.x > unsigned(kMaxGridDim) || L.grid.y > unsigned(kMaxGridDim))
    return invalidInput("grid " + std::to_string(L.grid.x) + "x" + std::to_string(L.grid.y) +
                        " is out of range: each grid dimension must be 1 to " + std::to_string(kMaxGridDim));
  if (r.sharedBytes > emu::kMaxDynamicSharedBytes)
    return invalidInput("--shared-bytes " + std::to_string(r.sharedBytes) + " is over the " +
                        std::to_string(emu::kMaxDynamicSharedBytes) + "-byte limit per block");
  for (const KernelParam& p : k.params) {
    if (p.role != KernelParam::Role::Arg) continue;
    auto given = std::find_if(r.args.begin(), r.args.end(), [&](const LabArg& a) { return a.name == p.name; });
    if (given == r.args.end())
      return invalidInput(r.fileName + ":" + std::to_string(k.line) + ": the parameter '" + p.name + "' of " + k.name +
                          " needs a value: --arg " + p.name + "=VALUE");
    L.args.push_back(*given);
  }
  if (L.args.size() > std::size_t(kMaxScalarArgs))
    return invalidInput(k.name + " has more than " + std::to_string(kMaxScalarArgs) + " further scalar parameters");
  for (const LabArg& a : r.args)
    if (std::none_of(k.params.begin(), k.params.end(),
                     [&](const KernelParam& p) { return p.role == KernelParam::Role::Arg && p.name == a.name; }))
      return invalidInput("--arg " + a.name + ": " + k.name + " has no further scalar parameter of that name");
  const uint64_t threads = uint64_t(L.grid.x) * L.grid.y * L.block.x * L.block.y;
  if (traced && threads > kMaxTraceEvents / 4)
    return invalidInput("a grid of " + std::to_string(threads) + " threads is more than the lab traces: choose a smaller size");
  return L;
}

// Where the analyses place the M and N tiles: each at the first shared array holding tiles of
// it. A static array is where the emulator put it, rows as declared; a pointer into the
// dynamic array starts after the static arrays, the N tile after the M tile's extent.
SharedTileLayout labTiles(const LabKernelSource& k, const RunnerResponse& r, const Trace* trace, unsigned rowStride,
                          unsigned sharedBytes) {
  SharedTileLayout t;
  uint32_t staticEnd = 0;
  for (const StaticSharedGeometry& g : r.geometry)
    if (g.declared) staticEnd = std::max(staticEnd, uint32_t(g.offset + g.rows * std::max(g.cols, 1ll) * g.elementBytes));
  const uint32_t dynamicStart = (staticEnd + 15) / 16 * 16;
  uint32_t extentM = 0;  // bytes of the M tile the trace touched
  if (trace)
    for (const Event& e : trace->events)
      if ((e.op == Op::LoadM || e.op == Op::ReadM) && e.sharedRow >= 0 && e.sharedCol >= 0)
        extentM = std::max(extentM, uint32_t((e.sharedRow * int(rowStride) + e.sharedCol + 1) * 4));
  bool haveM = false, haveN = false;
  for (std::size_t i = 0; i < k.shared.size() && i < std::size_t(kMaxSharedArrays); ++i) {
    const LabSharedArray& a = k.shared[i];
    const bool m = a.matrix == MatrixRole::M;
    if ((!m && a.matrix != MatrixRole::N) || (m ? haveM : haveN)) continue;
    const StaticSharedGeometry& g = r.geometry[i];
    uint32_t base;
    int stride;
    if (a.declared && !a.isExtern && g.declared) {
      base = uint32_t(g.offset);
      stride = g.cols > 0 ? int(g.cols) : int(rowStride);
    } else {
      base = dynamicStart + (m || !haveM || k.shared.size() < 2 ? 0 : (extentM + 15) / 16 * 16);
      stride = int(rowStride);
    }
    (m ? t.baseM : t.baseN) = base;
    (m ? t.strideM : t.strideN) = stride;
    (m ? haveM : haveN) = true;
  }
  t.bytes = std::max<uint32_t>(staticEnd, dynamicStart + sharedBytes);
  return t;
}

LabOutcome compileError(LabOutcome o, const std::vector<LabDiagnostic>& diagnostics) {
  o.verdict = LabVerdict::CompileError;
  o.diagnostics = diagnostics;
  explainDiagnostics(o.diagnostics, o.source);  // at the student's line, in the student's words
  const LabDiagnostic& d = o.diagnostics.front();
  o.summary = "compile error: " + d.file + ":" + std::to_string(d.line) + ": " + d.message;
  return o;
}

// The Run of the launch the runner made: the lab kernel, the launch as resolved, the inputs
// drawn as for a built-in kernel, the P and slots the runner returned, decoded and verified by
// completeLaunch as executeRun's are. Its shared tiles are placed from the declarations.
Result<Run> labRun(const LabRequest& q, const LabKernelSource& k, const LabOutcome& o, RunnerResponse& r) {
  const LabLaunch& L = o.launch;
  const bool gpu = L.backend == "cuda";
  Run run;
  run.kernel = LabKernel{L.kernelName, q.fileName, q.source};
  run.config.dims = L.dims;
  run.config.seed = q.seed;
  run.config.blockX = int(L.block.x);
  run.config.blockY = int(L.block.y);
  run.config.tile = int(L.block.x);
  KernelLaunch& kl = run.plan.launch;
  kl.labTiles = SharedTileLayout{};  // placed from the declarations once the trace is in (below)
  kl.j = L.dims.j, kl.k = L.dims.k, kl.l = L.dims.l;
  kl.tile = int(L.block.x);
  kl.gridX = L.grid.x, kl.gridY = L.grid.y, kl.blockX = L.block.x, kl.blockY = L.block.y;
  kl.dynamicSharedFloats = L.sharedBytes / 4;
  run.plan.slotsPerThread = r.slotsPerThread;
  run.plan.threads = uint64_t(L.grid.x) * L.grid.y * L.block.x * L.block.y;
  run.plan.traceSlots = run.plan.threads * r.slotsPerThread;
  run.backend = gpu ? "cuda" : "emulator";
  run.device = gpu ? r.gpu.device : "CPU emulator";
  run.m = inputM(run.config);
  run.n = inputN(run.config);
  run.p = Matrix(L.dims.j, L.dims.l);
  if (r.p.size() != run.p.values.size()) return failure("the runner returned a P of the wrong size");
  run.p.values = std::move(r.p);
  run.outcome.outOfBounds = r.outOfBounds;
  run.outcome.outOfBoundsTotal = r.outOfBoundsTotal;
  run.outcome.divergences = r.divergences;
  run.outcome.traceOverflowed = r.traceOverflowed;
  run.outcome.slotsDecoded = r.slotsDecoded;  // the GPU decoded its trace on the device
  if (auto s = completeLaunch(run, std::move(r.slots), !r.traceOverflowed); !s) return s.error();
  if (run.trace) {
    int phases = 0;
    for (const Event& e : run.trace->events) phases = std::max(phases, int(e.phase) + 1);  // a count, as plan.phases is for built-in kernels
    run.plan.phases = run.trace->phases = phases;
  }
  run.plan.launch.labTiles = labTiles(k, r, run.trace ? &*run.trace : nullptr, L.block.x, L.sharedBytes);
  if (run.trace) run.trace->launch = run.plan.launch;
  run.seconds = o.runSeconds;
  return run;
}

Status finishLabRun(const LabRequest& q, const LabKernelSource& k, LabOutcome& o, RunnerResponse&& r) {
  const bool gpu = o.launch.backend == "cuda";
  if (!r.error.empty()) return invalidInput(std::string(gpu ? "the GPU" : "the emulator") + " refused the launch: " + r.error);
  auto run = labRun(q, k, o, r);
  if (!run) return run.error();
  // Bounds and hazards are the finished run's, found as for every run (the grade needs no timeline).
  o.finished = q.newFinishedRun ? q.newFinishedRun() : std::make_shared<FinishedRun>();
  finishInto(*o.finished, std::move(*run), FinishOptions{.timeline = false, .hazards = true, .startedAt = std::nullopt});
  const FinishedRun& f = *o.finished;
  o.outsideAllocation = r.outOfBounds;
  if (gpu) o.gpu = r.gpu;
  for (const StaticSharedGeometry& g : r.geometry)
    if (g.declared) o.staticSharedBytes += unsigned(g.rows * std::max(g.cols, 1ll) * g.elementBytes);
  judge(o, r, f);
  // Nothing is graded from a trace that does not describe what computed P (a forged one). The
  // question is asked of a verified result only: a result that is already wrong fails as it is
  // and keeps its hint (an integer accumulator's truncated sums are the student's bug, and
  // their recorded products do not add up to P either).
  if (f.run.trace && o.verdict == LabVerdict::Verified) {
    if (auto problem = accountForP(*f.run.trace, f.run.m, f.run.n, f.run.p, !gpu).problem) {
      o.verdict = LabVerdict::WrongResult;
      o.summary = *problem + " (the run is not graded)";
      o.unaccounted = std::move(*problem);
    }
  }
  if (o.verdict == LabVerdict::WrongResult && !o.unaccounted) {
    o.summary += wrongResultHint(f.run);
    o.wrongLines = wrongResultLines(f.run);
  }
  if (f.hazards && f.hazards->capped)
    o.summary += " (the race check stopped at its limit of " + std::to_string(kMaxHazardWork) +
                 " steps: more hazards may remain)";
  if (r.traceOverflowed) o.summary += " (a thread recorded more events than the lab traces: no trace)";
  return Ok{};
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
