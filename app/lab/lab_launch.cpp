// The lab's launch and its finish, without processes: the launch resolved from a request and
// the kernel's signature, the run the interpreter (or the GPU's runner) returned made into a
// finished Run, judged as every run is. What the page's lab links (tilescope_lab_core).
#include "lab_launch.h"

#include <algorithm>
#include <charconv>

#include "core/run/launch_config.h"
#include "core/run/launch_door.h"
#include "core/run/trace_accounts.h"
#include "core/trace/trace.h"
#include "kernels/ceil_div.h"
#include "kernels/emu/emulator.h"
#include "lab_judge.h"
#include "lab_trace_compare.h"

namespace tilescope::lab::detail {

// The tile width a launch implies when no block is given.
std::optional<int> tileDefine(const LabRequest& r) {
  for (const char* name : {"TILE_WIDTH", "TILE_SIZE", "BLOCK_SIZE", "BLOCKSIZE", "TILE"}) {
    for (const LabDefine& d : r.defines)
      if (d.name == name) {  // its leading number, as std::stoi reads it, without its exceptions (the page has none)
        const std::size_t start = std::min(d.value.find_first_not_of(" \t"), d.value.size());
        const char* first = d.value.data() + start + (d.value.compare(start, 1, "+") == 0 ? 1 : 0);
        int value = 0;
        if (std::from_chars(first, d.value.data() + d.value.size(), value).ec == std::errc{}) return value;
      }
    if (auto v = definedInteger(r.source, name)) return v;
  }
  return std::nullopt;
}

// The trace slots a thread of a lab kernel is first given: a load, two reads and a
// multiply-add per step of k, and room to spare (the interpreter doubles them while a thread
// overflows, lab_interpreted.cpp).
unsigned firstSlotsPerThread(const Dims& d) { return unsigned(std::min<uint64_t>(6ull * uint64_t(d.k) + 16, 1u << 20)); }

// The run's description for the core's door: the shape read from the kernel's declarations
// and the request (the block from --block or the tile's define, the grid from --grid or one
// block per block-sized tile of P, times the request's coarsening).
LaunchConfig labConfig(const LabRequest& r, Dim3 block) {
  LaunchConfig c;
  c.dims = r.dims;
  c.seed = r.seed;
  c.blockX = int(block.x), c.blockY = int(block.y);
  c.tile = int(block.x);
  LaunchShape shape;
  shape.blockX = block.x, shape.blockY = block.y;
  if (r.grid) shape.gridX = r.grid->x, shape.gridY = r.grid->y;
  else if (block.x >= 1) shape.gridX = unsigned(ceilDiv(r.dims.l, int(block.x) * std::max(r.gridCoarsenX, 1)));
  shape.dynamicSharedFloats = r.sharedBytes / 4;
  shape.eventsPerThread = firstSlotsPerThread(r.dims);
  c.givenShape = shape;
  return c;
}

// The further scalar parameters' values, in the kernel's order: each one given, none unknown.
Result<std::vector<LabArg>> scalarArguments(const LabRequest& r, const LabKernelSource& k) {
  std::vector<LabArg> args;
  for (const KernelParam& p : k.params) {
    if (p.role != KernelParam::Role::Arg) continue;
    auto given = std::find_if(r.args.begin(), r.args.end(), [&](const LabArg& a) { return a.name == p.name; });
    if (given == r.args.end())
      return invalidInput(r.fileName + ":" + std::to_string(k.line) + ": the parameter '" + p.name + "' of " + k.name +
                          " needs a value: --arg " + p.name + "=VALUE");
    args.push_back(*given);
  }
  if (args.size() > std::size_t(kMaxScalarArgs))
    return invalidInput(k.name + " has more than " + std::to_string(kMaxScalarArgs) + " further scalar parameters");
  for (const LabArg& a : r.args)
    if (std::none_of(k.params.begin(), k.params.end(),
                     [&](const KernelParam& p) { return p.role == KernelParam::Role::Arg && p.name == a.name; }))
      return invalidInput("--arg " + a.name + ": " + k.name + " has no further scalar parameter of that name");
  return args;
}

// The launch is planned by the core's one door, as a built-in kernel's is; what is the lab's
// alone (a kernel written for one size, the scalar parameters) is checked here.
Result<LabLaunch> resolveLaunch(const LabRequest& r, const LabKernelSource& k, bool gpu) {
  LabLaunch L;
  L.kernelName = k.name;
  L.dims = r.dims;
  L.widthForm = k.widthForm;
  L.defines = r.defines;
  L.sharedBytes = r.sharedBytes;
  if (r.sharedBytes > emu::kMaxDynamicSharedBytes)
    return invalidInput("--shared-bytes " + std::to_string(r.sharedBytes) + " is over the " +
                        std::to_string(emu::kMaxDynamicSharedBytes) + "-byte limit per block");
  if (r.grid && (r.grid->x < 1 || r.grid->y < 1))
    return invalidInput("grid " + std::to_string(r.grid->x) + "x" + std::to_string(r.grid->y) +
                        " is out of range: each grid dimension must be 1 to " + std::to_string(kMaxGridDim));
  const int tile = tileDefine(r).value_or(16);
  L.config = labConfig(r, r.block.value_or(Dim3{unsigned(tile), unsigned(tile), 1}));
  RunPlace place;
  place.emulator = !gpu;
  // The interpreter bounds its own trace (traceRoom, lab_interpreted.cpp): by the lab's memory
  // limit first, with both figures, then by kMaxTraceEvents; the door is not asked for it here.
  place.maxTraceEvents = UINT64_MAX;
  // A lab kernel has no schedule of its own: the device is not asked (an empty profile).
  auto planned = planLaunchOn(L.config, DeviceProfile{}, place);
  if (!planned) return planned.error();
  if (!planned->refusedHere.empty()) return invalidInput(planned->refusedHere + ": choose a smaller size");
  L.plan = planned->plan;
  L.block = Dim3{L.plan.launch.blockX, L.plan.launch.blockY, 1};
  L.grid = Dim3{L.plan.launch.gridX, L.plan.launch.gridY, 1};
  if (k.widthForm && !(r.dims.j == r.dims.k && r.dims.k == r.dims.l))
    return invalidInput(r.fileName + ":" + std::to_string(k.line) + ": " + k.name +
                        " takes one size (int Width): give --size W, or write the kernel with int j, int k, int l");
  auto args = scalarArguments(r, k);
  if (!args) return args.error();
  L.args = std::move(*args);
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

// The Run of the launch the runner made: the lab kernel, the launch as the door planned it,
// the inputs drawn as for a built-in kernel, the P and slots the runner returned, decoded and
// verified by completeLaunch as executeRun's are. Its shared tiles are placed from the
// declarations.
Result<Run> labRun(const LabRequest& q, const LabKernelSource& k, const LabOutcome& o, RunnerResponse& r) {
  const LabLaunch& L = o.launch;
  const bool gpu = L.backend == "cuda";
  Run run;
  run.kernel = LabKernel{L.kernelName, q.fileName, q.source};
  run.config = L.config;
  run.plan = L.plan;
  run.plan.slotsPerThread = r.slotsPerThread;  // as many as the run grew to
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
  judge(o, r, f, k.shared);
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

Result<LabOutcome> finishGpuTrace(const LabRequest& q, const LabKernelSource& k, LabOutcome o, RunnerResponse&& r,
                                  const LabOutcome& interpreted) {
  o.gpu = r.gpu;
  const bool overflowed = r.traceOverflowed;
  auto gpuRun = labRun(q, k, o, r);  // its P verified against the reference, as every run's is
  if (!gpuRun) return gpuRun.error();
  const Run& lab = interpreted.finished->run;
  const std::string differently = "behaves differently on the GPU: ";
  o.verdict = LabVerdict::WrongResult;
  if (overflowed || !gpuRun->trace) {
    o.summary = differently + "its threads recorded more events than in the lab's run (" +
                std::to_string(lab.trace->events.size()) + " events there)";
    return o;
  }
  const TraceDifference d = compareWithGpu(*lab.trace, *gpuRun->trace, !interpreted.hazards().empty());
  if (d.differences > 0) {
    o.summary = differently + "its trace is not the lab's: " + d.first + " (" + std::to_string(d.differences) +
                " of " + std::to_string(lab.trace->events.size()) + " events differ)";
  } else if (lab.verification.passed && !gpuRun->verification.passed) {
    o.summary = differently + "the lab's P was right, the GPU's " + gpuRun->verification.summary();
  } else {
    o.verdict = LabVerdict::Verified;
    o.summary = "the GPU's trace is the lab's, event for event (" + std::to_string(lab.trace->events.size()) + " events)";
  }
  return o;
}

Status checkRequestLimits(const LabRequest& q) {
  if (!(q.timeoutSeconds > 0.0) || q.timeoutSeconds > 3600.0)
    return invalidInput("--timeout must be more than 0 and at most 3600 seconds");
  if (!(q.compileTimeoutSeconds > 0.0) || q.compileTimeoutSeconds > 3600.0)
    return invalidInput("--compile-timeout must be more than 0 and at most 3600 seconds");
  if (q.source.size() > kMaxSourceBytes)
    return invalidInput(q.fileName + " is " + std::to_string(q.source.size()) + " bytes, over the lab's limit of " +
                        std::to_string(kMaxSourceBytes) + " bytes for a kernel's source");
  return Ok{};
}

// A signature the lab cannot map, a fragment without a kernel: shown like a compiler's error,
// at its line.
LabOutcome unreadableKernel(LabOutcome o, const std::string& why, const std::string& fileName) {
  o.verdict = LabVerdict::CompileError;
  const std::string prefix = fileName + ":";
  int line = 1;
  std::string message = why;
  if (why.rfind(prefix, 0) == 0) {
    const std::size_t colon = why.find(": ", prefix.size());
    line = std::atoi(why.c_str() + prefix.size());
    message = colon != std::string::npos ? why.substr(colon + 2) : why.substr(prefix.size());
  }
  o.diagnostics.push_back({fileName, std::max(line, 1), 1, message});
  o.summary = "compile error: " + fileName + ":" + std::to_string(o.diagnostics.front().line) + ": " + message;
  return o;
}

Result<OpenedRequest> openRequest(const LabRequest& q, bool gpu) {
  if (auto s = checkRequestLimits(q); !s) return s.error();
  std::vector<std::pair<std::string, std::string>> defines;
  for (const LabDefine& d : q.defines) defines.emplace_back(d.name, d.value);
  OpenedRequest opened;
  opened.source = applyDefines(withoutByteOrderMark(q.source), defines);
  opened.outcome.source = q.source;
  auto kernel = readKernelSource(opened.source, q.fileName);
  if (!kernel) {
    opened.outcome = unreadableKernel(std::move(opened.outcome), kernel.error().message, q.fileName);
    return opened;
  }
  // The interpreter's trace is bounded where it runs (traceRoom, lab_interpreted.cpp).
  auto launch = resolveLaunch(q, *kernel, gpu);
  if (!launch) return launch.error();
  opened.outcome.launch = *launch;
  opened.outcome.launch.backend = gpu ? "cuda" : "emulator";
  opened.kernel = std::move(*kernel);
  return opened;
}

Result<LabOutcome> runOnInterpreter(const LabRequest& q, const std::string& backendNote) {
  auto opened = openRequest(q, false);
  if (!opened) return opened.error();
  if (!opened->kernel) return std::move(opened->outcome);
  opened->outcome.launch.backendNote = backendNote;
  return runInterpreted(q, *opened->kernel, opened->source, std::move(opened->outcome));
}

}  // namespace tilescope::lab::detail

namespace tilescope::lab {

Result<LabOutcome> runLabInterpreted(const LabRequest& request) { return detail::runOnInterpreter(request, {}); }

}  // namespace tilescope::lab
