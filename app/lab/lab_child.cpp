// The GPU's part of a lab request, run in tilescope-lab-runner step by step (lab_child.h): the
// backend chosen, NVRTC's job prepared, the runner's request, the sandboxed child (--cuda for
// the traced run held to the interpreter's trace, --cuda-time for the timed one), and the
// verdict from how it ended or what it measured. Only native GPU code runs in a child: the
// emulator's runs are the interpreter's (lab_interpreted.cpp), in the lab's own process.
#include "lab_child.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/run/launch_config.h"
#include "lab_cache.h"
#include "lab_compile.h"
#include "lab_confine.h"
#include "lab_judge.h"
#include "lab_process.h"
#include "lab_sandbox.h"

namespace tilescope::lab::detail {

namespace {

// Room in a runner's scratch directory beside its response: the kernel, the request (the
// inputs), the stop file and the log.
constexpr uint64_t kScratchMarginBytes = 128ull << 20;
// CUDA's start-up comes before the run's time limit (NVRTC's compile has its own).
constexpr double kGpuStartSeconds = 10.0;
// A timed run's inputs drawn on the host and copied to the device, before its time limit.
constexpr double kTimingSetupSeconds = 60.0;
// The most a timed run's response may hold: no trace and no P, only NVRTC's log and the figures.
constexpr uint64_t kTimingResponseBytes = 16ull << 20;

// NVRTC's job in the runner's scratch directory: the unit it compiles there, and the cache's
// compiled modules for it copied in.
Result<GpuCompileJob> prepareKernel(const LabRequest& q, const LabKernelSource& kernel, const std::string& source,
                                    const std::filesystem::path& cache, const Scratch& scratch) {
  auto job = prepareGpuCompile(gpuTranslationUnit(kernel, source, q.fileName), q.defines, cache, scratch.dir());
  if (!job) return job.error();
  copyGpuModulesIn(*job);
  return job;
}

// What the runner is asked to do: the launch, and the seed it draws its inputs from (as many
// copies as it times).
RunnerRequest runnerRequest(const LabRequest& q, const LabLaunch& launch, const LabKernelSource& kernel,
                            const TimingOptions& timing) {
  RunnerRequest rq;
  rq.j = launch.dims.j, rq.k = launch.dims.k, rq.l = launch.dims.l;
  rq.grid = launch.grid, rq.block = launch.block;
  rq.sharedBytes = launch.sharedBytes;
  rq.timeoutSeconds = q.timeoutSeconds;
  for (const LabArg& a : launch.args) rq.scalars.push_back(a.value);
  const TraceSink facts = labTraceSinkFacts(kernel, int(launch.block.x));
  std::copy(std::begin(facts.shared), std::end(facts.shared), std::begin(rq.shared));
  rq.seed = q.seed;
  rq.warmup = timing.warmup;
  rq.repeats = timing.repeats;
  rq.maxSecondsPerCase = timing.maxSecondsPerCase;
  return rq;
}

struct RunnerFiles {
  std::filesystem::path request, response, stop, log;
  explicit RunnerFiles(const std::filesystem::path& dir)
      : request(dir / "request"), response(dir / "response"), stop(dir / "stop"), log(dir / "output.log") {}
};

// What every GPU run starts from: the request opened (the outcome, the source as read, the
// kernel), and unless the interpreter's front end refused it, the runner, its scratch
// directory (removed with this) and NVRTC's job. Without `job`, the outcome is the answer.
struct GpuPrepared {
  OpenedRequest opened;
  std::optional<Scratch> scratch;
  std::optional<GpuCompileJob> job;
  std::filesystem::path runner;
};

// The runner's command line: its sandbox, NVRTC's job and the files.
std::vector<std::string> runnerArguments(const std::filesystem::path& runner, const LabRequest& q,
                                         const SandboxPolicy& policy, const GpuCompileJob& job,
                                         const RunnerFiles& files, bool traced) {
  std::vector<std::string> argv = {runner.string()};
  if (q.sandbox)
    for (const std::string& a : sandboxArguments(policy)) argv.push_back(a);
  argv.insert(argv.end(), {traced ? "--cuda" : "--cuda-time", job.unitFile.string(), job.cubinStem.string()});
  argv.insert(argv.end(), {files.request.string(), files.response.string(), files.stop.string()});
  argv.push_back(job.programName.string());
  argv.insert(argv.end(), job.options.begin(), job.options.end());
  return argv;
}

// How the child ended, when that decides the verdict (a limit, the sandbox, a signal): true
// with `o` filled in; false when its response is to be read.
bool verdictFromEnding(const ChildResult& child, const RunnerStop& stop, const ScratchLimit& disk, double limitSeconds,
                       LabOutcome& o) {
  const std::string at = o.where ? " " + whereText(*o.where) : "";
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", limitSeconds);
  if (child.diskExceeded) {
    o.verdict = LabVerdict::Crashed;
    o.summary = "crashed: the kernel wrote more than " + std::to_string(disk.maxBytes >> 20) +
                " MiB into its scratch directory, the lab's disk limit for this launch, and was stopped";
  } else if (child.timedOut || child.cancelled || stop.timeout) {
    o.verdict = LabVerdict::TimedOut;
    o.summary = child.cancelled ? "timed out: cancelled" + at
                                : "timed out: still running after " + std::string(limit) + " s (an endless loop?)" + at;
  } else if (stop.syscall >= 0) {
    o.verdict = LabVerdict::Crashed;
    o.summary = sandboxStopSummary(stop.syscall) + at;
  } else if (child.signal != 0 || stop.signal != 0) {
    o.verdict = LabVerdict::Crashed;
    o.summary = "crashed: " + signalName(child.signal ? child.signal : stop.signal) + at;
  } else if (child.exitCode != 0) {
    o.verdict = LabVerdict::Crashed;
    o.summary = "crashed: the kernel ended the process with exit code " + std::to_string(child.exitCode) + at;
  } else {
    return false;
  }
  return true;
}

// NVRTC's part of a GPU run's response: its compile, or the fault that stopped the kernel.
// True when that is how the run ended (`o` says so), an Error when NVRTC failed without words.
Result<bool> gpuCompileOrFault(const LabRequest& q, const RunnerResponse& response, LabOutcome& o) {
  o.cached = response.compileCached;
  o.compileSeconds = response.compileSeconds;
  o.runSeconds = std::max(0.0, o.runSeconds - o.compileSeconds);
  o.compilerOutput = response.compileLog;
  if (response.compileFailed) {
    auto diagnostics = parseDiagnostics(response.compileLog, q.fileName);
    if (diagnostics.empty()) return failure("NVRTC failed without an error message: " + response.compileLog.substr(0, 400));
    o = compileError(std::move(o), diagnostics);
    return true;
  }
  if (!response.kernelFault.empty()) {
    o.verdict = LabVerdict::Crashed;
    o.gpu = response.gpu;
    o.summary = "crashed: the GPU stopped the kernel: " + response.kernelFault;
    return true;
  }
  return false;
}

// How long the runner may take, what its verdict names as its limit, and the most its
// response may hold.
struct RunnerBounds {
  double limitSeconds = 0.0, verdictSeconds = 0.0;
  uint64_t responseBytes = 0;
};

// The sandboxed child: its policy, command line and limits. Its response when it ran to its
// end; nothing when how it ended is the outcome (`o` says so: a limit, a signal, the sandbox,
// NVRTC's refusal, the kernel's fault).
Result<std::optional<RunnerResponse>> runRunner(const LabRequest& q, const RunnerRequest& rq, const RunnerBounds& bounds,
                                                bool traced, const GpuPrepared& prepared, LabOutcome& o) {
  const Scratch& scratch = *prepared.scratch;
  const GpuCompileJob& job = *prepared.job;
  const RunnerFiles files(scratch.dir());
  if (auto s = writeRunnerRequest(files.request, rq); !s) return s.error();
  const SandboxPolicy policy = runnerPolicy(true, scratch.dir(), job.include, q, bounds.limitSeconds, bounds.responseBytes);
  o.sandbox = describeSandbox(q.sandbox, policy.kind, policy.limits);
  // The disk the runner may fill: its response and the files the lab put there.
  const ScratchLimit disk{scratch.dir(), bounds.responseBytes + kScratchMarginBytes};
  auto child = runChild(runnerArguments(prepared.runner, q, policy, job, files, traced),
                        childEnvironment(scratch.dir().string()), bounds.limitSeconds, q.cancel, files.log, disk);
  storeGpuModulesOut(job);  // what NVRTC compiled goes into the cache, whatever the child did
  if (!child) return child.error();
  o.runSeconds = child->seconds;
  o.childOutput = child->output;
  const RunnerStop stop = readRunnerStop(files.stop);
  // The runner's own refusal (a bad request): its first line, as the lab's error.
  if (child->exitCode == 2 && !child->diskExceeded && !child->timedOut && !child->cancelled && !stop.timeout &&
      stop.syscall < 0 && stop.signal == 0 && child->output.find("tilescope-lab-runner:") != std::string::npos)
    return failure(child->output.substr(0, child->output.find('\n')));
  if (verdictFromEnding(*child, stop, disk, bounds.verdictSeconds, o)) return std::optional<RunnerResponse>();
  auto response = readRunnerResponse(files.response, bounds.responseBytes);
  if (!response) return response.error();
  auto ended = gpuCompileOrFault(q, *response, o);
  if (!ended) return ended.error();
  if (*ended) return std::optional<RunnerResponse>();
  return std::optional<RunnerResponse>(std::move(*response));
}

}  // namespace

Result<Backend> chooseBackend(const LabRequest& q) {
  Backend b{q.backend == LabBackend::Cuda, {}};
  if (q.backend == LabBackend::Emulator) return b;
  const std::optional<std::string> why = gpuUnavailable();
  if (why && b.gpu)
    return unavailable("--backend cuda: " + *why + " (--backend emu runs the kernel on the emulator, auto picks)");
  b.gpu = !why;
  if (why) b.note = why->rfind("No NVIDIA GPU", 0) == 0 ? "no NVIDIA GPU here: runs on the emulator" : *why + ": runs on the emulator";
  return b;
}

namespace {
Result<GpuPrepared> prepareGpuRun(const LabRequest& q) {
  if (const std::optional<std::string> why = gpuUnavailable()) return unavailable("--backend cuda: " + *why);
  auto opened = openRequest(q, true);
  if (!opened) return opened.error();
  GpuPrepared p{std::move(*opened), std::nullopt, std::nullopt, {}};
  if (!p.opened.kernel) return p;
  const LabKernelSource& kernel = *p.opened.kernel;
  if (std::optional<LabOutcome> refused = refusedByInterpreter(q, kernel, p.opened.source, p.opened.outcome)) {
    p.opened.outcome = std::move(*refused);
    p.opened.kernel.reset();
    return p;
  }
  if (auto s = requireSandbox(q); !s) return s.error();
  auto cache = labCacheDirectory(q.cacheDir);
  if (!cache) return cache.error();
  auto runner = findRunner();
  if (!runner) return runner.error();
  p.runner = *runner;
  auto scratch = Scratch::create(*cache, "run");  // the runner's only writable directory, removed with `p`
  if (!scratch) return scratch.error();
  p.scratch.emplace(std::move(*scratch));
  auto job = prepareKernel(q, kernel, p.opened.source, *cache, *p.scratch);
  if (!job) return job.error();
  p.job = std::move(*job);
  return p;
}
}  // namespace

Result<LabOutcome> runOnGpu(const LabRequest& q, const TimingOptions& timing) {
  auto p = prepareGpuRun(q);
  if (!p) return p.error();
  LabOutcome& o = p->opened.outcome;
  if (!p->job) return std::move(o);
  const RunnerRequest rq = runnerRequest(q, o.launch, *p->opened.kernel, timing);
  // The runner stops itself at the limit; the kill a few seconds later is the backstop (CUDA's
  // libraries can take a second or more to load on a busy machine, and NVRTC's compile comes
  // first). A timed run draws its inputs and copies them around L2 first (seconds at 8192),
  // then runs for up to the time limit plus the timing budget.
  RunnerBounds bounds;
  bounds.verdictSeconds = q.timeoutSeconds + timing.maxSecondsPerCase;
  bounds.limitSeconds = bounds.verdictSeconds + kTimingSetupSeconds + q.compileTimeoutSeconds + kGpuStartSeconds;
  bounds.responseBytes = kTimingResponseBytes;
  auto response = runRunner(q, rq, bounds, false, *p, o);
  if (!response) return response.error();
  if (!*response) return std::move(o);
  if (auto s = finishTiming(q, o, **response); !s) return s.error();
  return std::move(o);
}

Result<LabOutcome> traceOnGpu(const LabRequest& q, const LabOutcome& interpreted) {
  if (!interpreted.finished || !interpreted.finished->run.trace)
    return failure("the GPU's trace is compared with the lab's, and the lab's run left none");
  auto p = prepareGpuRun(q);
  if (!p) return p.error();
  LabOutcome& o = p->opened.outcome;
  if (!p->job) return std::move(o);
  RunnerRequest rq = runnerRequest(q, o.launch, *p->opened.kernel, TimingOptions{});
  // Room for as many events per thread as the lab's run needed: a GPU that records more (or
  // other) events than the interpreter is a kernel that behaves differently there.
  const Run& lab = interpreted.finished->run;
  rq.slotsPerThread = std::max(1u, lab.plan.slotsPerThread);
  rq.maxTraceSlots = lab.plan.threads * rq.slotsPerThread;
  rq.m = lab.m.values;
  rq.n = lab.n.values;
  RunnerBounds bounds;
  bounds.verdictSeconds = q.timeoutSeconds;
  bounds.limitSeconds = q.timeoutSeconds + q.compileTimeoutSeconds + kGpuStartSeconds;
  bounds.responseBytes = rq.maxTraceSlots * sizeof(Event) + uint64_t(lab.p.values.size()) * sizeof(float) + kTimingResponseBytes;
  auto response = runRunner(q, rq, bounds, true, *p, o);
  if (!response) return response.error();
  if (!*response) return std::move(o);
  if (!(*response)->error.empty()) return invalidInput("the GPU refused the launch: " + (*response)->error);
  if (std::string why = responseMisfit(**response, rq); !why.empty())
    return failure("the GPU runner's trace is not this launch's: " + why);
  return finishGpuTrace(q, *p->opened.kernel, std::move(o), std::move(**response), interpreted);
}

}  // namespace tilescope::lab::detail
