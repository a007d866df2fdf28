// The lab's emulator backend through its own interpreter (app/lab/interp): the student's
// kernel is never compiled to native code; the interpreter runs it in this process, holding
// its values and arrays, and answers as the runner would (a RunnerResponse), so the run is
// finished, judged and graded exactly as before.
#include <chrono>
#include <cmath>
#include <limits>

#include "core/run/launch_config.h"
#include "core/run/run.h"
#include "lab/interp/interp.h"
#include "lab_launch.h"

namespace tilescope::lab::detail {

namespace {

// The lab's own memory beside a run's trace and matrices: its code, the interpreter's program
// and fibers, the finished run's analyses.
constexpr uint64_t kInterpreterBaseBytes = 256ull << 20;
// How many times its first estimate of events per thread a lab kernel's trace may grow to.
constexpr uint64_t kMaxTraceGrowth = 64;

// The kernel's arguments as the lab maps its parameters: the matrices by role, the sizes, then
// the further scalar parameters in order.
std::vector<interp::Argument> argumentsOf(const LabKernelSource& k, const LabLaunch& L) {
  std::vector<interp::Argument> args;
  std::size_t scalar = 0;
  for (const KernelParam& p : k.params) {
    switch (p.role) {
      case KernelParam::Role::M: args.push_back(interp::Argument::matrix(0)); break;
      case KernelParam::Role::N: args.push_back(interp::Argument::matrix(1)); break;
      case KernelParam::Role::P: args.push_back(interp::Argument::matrix(2)); break;
      case KernelParam::Role::Width:
      case KernelParam::Role::J: args.push_back(interp::Argument::number(L.dims.j)); break;
      case KernelParam::Role::K: args.push_back(interp::Argument::number(L.dims.k)); break;
      case KernelParam::Role::L: args.push_back(interp::Argument::number(L.dims.l)); break;
      case KernelParam::Role::Arg: {
        const double v = scalar < L.args.size() ? L.args[scalar++].value : 0.0;
        interp::Argument a = interp::Argument::number((long long)v);
        a.real = v;
        args.push_back(a);
        break;
      }
    }
  }
  return args;
}

// Where the static shared arrays lie in the block's arena: in declaration order, as the
// interpreter asks for them (4-byte aligned floats and ints).
void sharedGeometry(const interp::Program& p, RunnerResponse& r) {
  long long offset = 0;
  for (const interp::ArrayInfo& a : p.arrays) {
    if (a.kind != interp::ArrayKind::Shared || a.traceId < 0 || a.traceId >= kMaxSharedArrays) continue;
    StaticSharedGeometry& g = r.geometry[a.traceId];
    g.declared = 1;
    g.offset = offset;
    g.rows = a.cols > 0 ? a.rows : a.count;  // a 1-D array: its length in rows, no columns
    g.cols = a.cols;
    g.elementBytes = 4;
    offset += a.count * 4;
  }
}

// A run the interpreter stopped: out of time (an endless loop), or at a division by zero, a
// local array overrun or calls nested too deeply, with where it was.
LabOutcome stopped(LabOutcome o, const interp::RunResult& ran) {
  std::string what = ran.error->message;
  if (const std::size_t at = what.find(" (block ("); at != std::string::npos) what.resize(at);
  o.verdict = ran.outOfTime ? LabVerdict::TimedOut : LabVerdict::Crashed;
  o.where = LabWhere{ran.stoppedBlock, ran.stoppedThread, ran.error->line};
  const Dim3 b = ran.stoppedBlock, t = ran.stoppedThread;
  o.summary = std::string(ran.outOfTime ? "timed out: " : "crashed: ") + what + " in block (" + std::to_string(b.x) +
              "," + std::to_string(b.y) + ") thread tx=" + std::to_string(t.x) + ", ty=" + std::to_string(t.y) +
              " at line " + std::to_string(ran.error->line);
  return o;
}

std::string mib(uint64_t bytes) { return std::to_string((bytes + (1ull << 20) - 1) >> 20) + " MiB"; }

// The most trace slots the run may grow to within the lab's memory limit (--memory-limit): the
// matrices, and the slots, which grow from their first estimate while a thread overflows, up
// to kMaxTraceGrowth times it (past that a kernel is looping away, not teaching: no trace). A
// launch whose first estimate does not fit is refused before it runs, with both figures.
Result<uint64_t> traceRoom(const LabLaunch& L, uint64_t threads, unsigned slotsPerThread, uint64_t limit) {
  const uint64_t matrices =
      (uint64_t(L.dims.j) * L.dims.k + uint64_t(L.dims.k) * L.dims.l + uint64_t(L.dims.j) * L.dims.l) * sizeof(float);
  const uint64_t needed = kInterpreterBaseBytes + 2 * matrices + threads * slotsPerThread * sizeof(Event);
  if (needed > limit)
    return invalidInput("this launch's trace needs about " + mib(needed) + " (" + std::to_string(threads) +
                        " threads x " + std::to_string(slotsPerThread) +
                        " events x 32 B, and the matrices), over the lab's memory limit of " + mib(limit) +
                        ": choose a smaller size, or raise the limit (--memory-limit MIB)");
  if (threads * slotsPerThread > kMaxTraceEvents)
    return invalidInput("this launch's trace would hold " + std::to_string(threads * slotsPerThread) +
                        " events, over the " + std::to_string(kMaxTraceEvents) + " the lab keeps: choose a smaller size");
  const uint64_t room = (limit - kInterpreterBaseBytes - 2 * matrices) / sizeof(Event);
  return std::min<uint64_t>({kMaxTraceEvents, room, threads * slotsPerThread * kMaxTraceGrowth});
}

// The interpreter's front end on the source: the kernel lowered into `instance`, or why not,
// at the student's line.
std::optional<LabDiagnostic> frontEnd(const LabRequest& q, const LabKernelSource& kernel, const std::string& source,
                                      interp::Instance& instance) {
  std::vector<interp::Define> defines;
  for (const LabDefine& d : q.defines) defines.push_back({d.name, d.value});
  const interp::Compiled compiled = interp::compileSource(source, defines);
  if (compiled.error)
    return LabDiagnostic{q.fileName, compiled.error->line, compiled.error->column, compiled.error->message};
  instance = interp::instantiate(*compiled.unit, kernel.name, {});
  if (instance.error)
    return LabDiagnostic{q.fileName, instance.error->line, instance.error->column, instance.error->message};
  return std::nullopt;
}

}  // namespace

Result<LabOutcome> runInterpreted(const LabRequest& q, const LabKernelSource& kernel, const std::string& source,
                                  LabOutcome o) {
  interp::Instance instance;
  if (std::optional<LabDiagnostic> refused = frontEnd(q, kernel, source, instance))
    return compileError(std::move(o), {*refused});
  const LabLaunch& L = o.launch;
  LaunchConfig inputs;
  inputs.dims = L.dims;
  inputs.seed = q.seed;
  std::vector<float> m = inputM(inputs).values, n = inputN(inputs).values;
  RunnerResponse r;
  r.p.assign(std::size_t(L.dims.j) * L.dims.l, std::numeric_limits<float>::quiet_NaN());
  interp::RunRequest run;
  run.program = instance.program.get();
  run.grid = L.grid;
  run.block = L.block;
  run.dynamicSharedBytes = L.sharedBytes;
  run.arguments = argumentsOf(kernel, L);
  run.timeLimitSeconds = q.timeoutSeconds;
  run.cancel = q.cancel;
  const uint64_t threads = L.plan.threads;
  TraceSink sink = labTraceSinkFacts(kernel, int(L.block.x));
  sink.j = L.dims.j, sink.k = L.dims.k, sink.l = L.dims.l;
  unsigned slotsPerThread = L.plan.slotsPerThread;  // the door's first estimate, doubled while a thread overflows
  auto maxSlots = traceRoom(L, threads, slotsPerThread, q.memoryLimitBytes);
  if (!maxSlots) return maxSlots.error();
  const auto start = std::chrono::steady_clock::now();
  for (;;) {  // room for every thread's events: doubled while one overflows, up to the trace cap
    std::fill(r.p.begin(), r.p.end(), std::numeric_limits<float>::quiet_NaN());
    r.slots.assign(threads * slotsPerThread, Event{});
    unsigned overflow = 0;
    sink.slots = r.slots.data();
    sink.slotsPerThread = slotsPerThread;
    sink.overflow = &overflow;
    float* data[3] = {m.data(), n.data(), r.p.data()};
    const long long counts[3] = {(long long)m.size(), (long long)n.size(), (long long)r.p.size()};
    for (int i = 0; i < 3; ++i) run.matrices[i] = data[i], run.counts[i] = counts[i];
    run.sink = &sink;
    interp::RunResult ran = interp::runProgram(run);
    o.printed = std::move(ran.printed);  // a run done again for room keeps its last output
    o.printedTruncated = ran.printedTruncated;
    if (ran.error) return stopped(std::move(o), ran);
    r.outOfBounds = std::move(ran.report.outOfBounds);
    r.outOfBoundsTotal = ran.report.outOfBoundsTotal;
    r.divergences = std::move(ran.report.divergences);
    r.traceOverflowed = overflow != 0;
    if (!r.traceOverflowed || threads * slotsPerThread * 2 > *maxSlots) break;
    slotsPerThread *= 2;
  }
  o.runSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.slotsPerThread = slotsPerThread;
  sharedGeometry(*instance.program, r);
  if (auto s = finishLabRun(q, kernel, o, std::move(r)); !s) return s.error();
  return o;
}

std::optional<LabOutcome> refusedByInterpreter(const LabRequest& q, const LabKernelSource& kernel,
                                               const std::string& source, const LabOutcome& o) {
  interp::Instance instance;
  if (std::optional<LabDiagnostic> refused = frontEnd(q, kernel, source, instance)) return compileError(o, {*refused});
  return std::nullopt;
}

}  // namespace tilescope::lab::detail
