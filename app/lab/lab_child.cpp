// One lab request run in tilescope-lab-runner, step by step (lab_child.h): the backend, the
// student's kernel read and checked, the kernel compiled (or NVRTC's job prepared), the
// runner's request, the sandboxed child, and the verdict from how it ended or what it returned.
#include "lab_child.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <variant>

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

struct Backend {
  bool gpu = false;
  std::string note;  // why auto fell back to the emulator
};

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

// The kernel in the runner's scratch directory: the emulator's shared object compiled here,
// or for the GPU the unit NVRTC compiles in the runner. `ended` holds the outcome when the
// compile refused the kernel.
struct PreparedKernel {
  std::filesystem::path object;  // the emulator's
  std::optional<GpuCompileJob> gpuJob;
  std::optional<LabOutcome> ended;
};

Result<PreparedKernel> prepareKernel(const LabRequest& q, const LabKernelSource& kernel, const std::string& source,
                                     bool gpu, const Checks& checks, const std::filesystem::path& cache,
                                     const std::filesystem::path& runner, const Scratch& scratch, LabOutcome& o) {
  PreparedKernel p;
  p.object = scratch.dir() / "kernel.so";
  if (gpu) {
    auto job = prepareGpuCompile(gpuTranslationUnit(kernel, source, q.fileName), q.defines, cache, scratch.dir());
    if (!job) return job.error();
    p.gpuJob = std::move(*job);
    copyGpuModulesIn(*p.gpuJob);
    return p;
  }
  CompileOptions options{runner, q.sandbox, q.compileTimeoutSeconds, q.cancel, q.memoryLimitBytes};
  options.checkImports = checks.imports;
  auto compiled = compileForEmulator(emulatorTranslationUnit(kernel, q.fileName), q.fileName, q.defines, cache, options);
  if (!compiled) return compiled.error();
  o.cached = compiled->cached;
  o.compileSeconds = compiled->seconds;
  o.compilerOutput = compiled->output;
  if (!compiled->ok) {
    p.ended = compileError(std::move(o), compiled->diagnostics);
    return p;
  }
  // The runner loads the bytes whose hash was checked, from a place nobody else writes.
  const std::string bytes = loadFromCache(compiled->object);
  if (bytes.empty()) return failure("the compiled kernel " + compiled->object.string() + " changed in the cache before it was loaded: run again");
  if (auto s = writeFileBytes(p.object, bytes); !s) return s.error();
  return p;
}

// What the runner is asked to do; `responseBytes` is the most its answer may hold.
Result<RunnerRequest> runnerRequest(const LabRequest& q, const LabLaunch& launch, const LabKernelSource& kernel,
                                    const TimingOptions* timing, uint64_t& responseBytes) {
  RunnerRequest rq;
  rq.j = launch.dims.j, rq.k = launch.dims.k, rq.l = launch.dims.l;
  rq.grid = launch.grid, rq.block = launch.block;
  rq.sharedBytes = launch.sharedBytes;
  // Room for a tiled kernel's events (loads, reads, barriers and a store per step); the
  // runner doubles it for kernels that record more.
  rq.slotsPerThread = unsigned(std::min<uint64_t>(6ull * uint64_t(launch.dims.k) + 16, 1u << 20));
  rq.maxTraceSlots = kMaxTraceEvents;
  responseBytes = 1ull << 30;
  if (!timing) {  // refused before it runs when its trace would not fit the runner's memory
    auto memory = predictLaunchMemory(rq, q.memoryLimitBytes);
    if (!memory) return memory.error();
    rq.maxTraceSlots = memory->maxTraceSlots;
    responseBytes = memory->responseBytes;
  }
  rq.timeoutSeconds = q.timeoutSeconds;
  for (const LabArg& a : launch.args) rq.scalars.push_back(a.value);
  const TraceSink facts = labTraceSinkFacts(kernel, int(launch.block.x));
  std::copy(std::begin(facts.shared), std::end(facts.shared), std::begin(rq.shared));
  if (timing) {  // the runner draws the inputs from the seed, as many copies as it times
    rq.seed = q.seed;
    rq.warmup = timing->warmup;
    rq.repeats = timing->repeats;
    rq.maxSecondsPerCase = timing->maxSecondsPerCase;
  } else {
    LaunchConfig inputs;
    inputs.dims = launch.dims;
    inputs.seed = q.seed;
    rq.m = inputM(inputs).values;
    rq.n = inputN(inputs).values;
  }
  return rq;
}

struct RunnerFiles {
  std::filesystem::path request, response, stop, log;
  explicit RunnerFiles(const std::filesystem::path& dir)
      : request(dir / "request"), response(dir / "response"), stop(dir / "stop"), log(dir / "output.log") {}
};

// The runner's command line: its sandbox, the kernel (or NVRTC's job) and the files.
std::vector<std::string> runnerArguments(const std::filesystem::path& runner, const LabRequest& q,
                                         const SandboxPolicy& policy, const PreparedKernel& p,
                                         const RunnerFiles& files, const TimingOptions* timing) {
  std::vector<std::string> argv = {runner.string()};
  if (q.sandbox)
    for (const std::string& a : sandboxArguments(policy)) argv.push_back(a);
  if (p.gpuJob)
    argv.insert(argv.end(), {timing ? "--cuda-time" : "--cuda", p.gpuJob->unitFile.string(), p.gpuJob->cubinStem.string()});
  else argv.push_back(p.object.string());
  argv.insert(argv.end(), {files.request.string(), files.response.string(), files.stop.string()});
  if (p.gpuJob) {
    argv.push_back(p.gpuJob->programName.string());
    argv.insert(argv.end(), p.gpuJob->options.begin(), p.gpuJob->options.end());
  }
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
std::optional<Result<LabOutcome>> gpuCompileOrFault(const LabRequest& q, const RunnerResponse& response, LabOutcome& o) {
  o.cached = response.compileCached;
  o.compileSeconds = response.compileSeconds;
  o.runSeconds = std::max(0.0, o.runSeconds - o.compileSeconds);
  o.compilerOutput = response.compileLog;
  if (response.compileFailed) {
    auto diagnostics = parseDiagnostics(response.compileLog, q.fileName);
    if (diagnostics.empty())
      return Result<LabOutcome>(failure("NVRTC failed without an error message: " + response.compileLog.substr(0, 400)));
    return Result<LabOutcome>(compileError(std::move(o), diagnostics));
  }
  if (!response.kernelFault.empty()) {
    o.verdict = LabVerdict::Crashed;
    o.gpu = response.gpu;
    o.summary = "crashed: the GPU stopped the kernel: " + response.kernelFault;
    return Result<LabOutcome>(std::move(o));
  }
  return std::nullopt;
}

// The response of a runner that exited normally, read within its prediction and checked
// against its launch before anything is graded from it.
Result<LabOutcome> finishFromResponse(const LabRequest& q, const LabKernelSource& kernel, const RunnerRequest& rq,
                                      const TimingOptions* timing, const RunnerFiles& files, uint64_t responseBytes,
                                      LabOutcome o) {
  auto response = readRunnerResponse(files.response, responseBytes);
  if (!response) return response.error();
  if (!timing && !response->compileFailed && response->kernelFault.empty())
    if (auto s = checkReturnedEvents(*response, rq); !s) return s.error();
  if (o.launch.backend == "cuda")
    if (auto ended = gpuCompileOrFault(q, *response, o)) return std::move(*ended);
  if (auto s = timing ? finishTiming(q, o, *response) : finishLabRun(q, kernel, o, std::move(*response)); !s)
    return s.error();
  return o;
}

// The student's source with its defines applied, checked and read: the kernel, or the outcome
// (a compile error at the student's line) that ends the run here.
std::variant<LabKernelSource, LabOutcome> readStudentKernel(const LabRequest& q, const Checks& checks,
                                                            const std::string& source) {
  LabOutcome o;
  o.source = q.source;
  if (checks.source)
    if (auto refused = checkStudentSource(source, q.fileName)) return compileError(std::move(o), {*refused});
  auto kernel = readKernelSource(source, q.fileName);
  if (!kernel) return unreadableKernel(std::move(o), kernel.error().message, q.fileName);
  return std::move(*kernel);
}

// The sandboxed child: its policy, command line and limits; the outcome from how it ended.
Result<LabOutcome> runRunner(const LabRequest& q, const LabKernelSource& kernel, const TimingOptions* timing,
                             const std::filesystem::path& runner, const Scratch& scratch, const PreparedKernel& p,
                             LabOutcome o) {
  const bool gpu = p.gpuJob.has_value();
  uint64_t responseBytes = 0;
  auto rq = runnerRequest(q, o.launch, kernel, timing, responseBytes);
  if (!rq) return rq.error();
  const RunnerFiles files(scratch.dir());
  if (auto s = writeRunnerRequest(files.request, *rq); !s) return s.error();
  // The runner stops itself at the limit and says where; the kill a few seconds later is the
  // backstop (the runner's libraries, CUDA's among them, can take a second or more to load
  // on a busy machine before it arms its timer; on the GPU NVRTC's compile comes first too).
  // A timed run draws its inputs and copies them around L2 first (seconds at 8192), then
  // runs for up to the time limit plus the timing budget.
  const double timedSeconds = timing ? timing->maxSecondsPerCase + kTimingSetupSeconds : 0.0;
  const double limitSeconds = q.timeoutSeconds + timedSeconds + (gpu ? q.compileTimeoutSeconds + kGpuStartSeconds : 5.0);
  const SandboxPolicy policy =
      runnerPolicy(gpu, scratch.dir(), gpu ? p.gpuJob->include : std::filesystem::path(), q, limitSeconds, responseBytes);
  o.sandbox = describeSandbox(q.sandbox, policy.kind, policy.limits);
  // The disk the runner may fill: its response and the files the lab put there.
  const ScratchLimit disk{scratch.dir(), responseBytes + kScratchMarginBytes};
  auto child = runChild(runnerArguments(runner, q, policy, p, files, timing), childEnvironment(scratch.dir().string()),
                        limitSeconds, q.cancel, files.log, disk);
  // What NVRTC compiled goes into the cache, whatever the child did.
  if (p.gpuJob) storeGpuModulesOut(*p.gpuJob);
  if (!child) return child.error();
  o.runSeconds = child->seconds;
  o.childOutput = child->output;
  const RunnerStop stop = readRunnerStop(files.stop);
  if (stop.located) o.where = LabWhere{stop.block, stop.thread, stop.line};
  // The runner's own refusal (a bad request): its first line, as the lab's error.
  if (child->exitCode == 2 && !child->diskExceeded && !child->timedOut && !child->cancelled && !stop.timeout &&
      stop.syscall < 0 && stop.signal == 0 && child->output.find("tilescope-lab-runner:") != std::string::npos)
    return failure(child->output.substr(0, child->output.find('\n')));
  if (verdictFromEnding(*child, stop, disk, q.timeoutSeconds + (timing ? timing->maxSecondsPerCase : 0.0), o)) return o;
  return finishFromResponse(q, kernel, *rq, timing, files, responseBytes, std::move(o));
}

}  // namespace

namespace {
// The lab's emulator engine: the native runner (the default while the rest of the lab's tests
// are re-expressed for the interpreter) or, with TILESCOPE_LAB_ENGINE=interpreter, the interpreter.
bool interpreterEngine() {
  const char* engine = std::getenv("TILESCOPE_LAB_ENGINE");
  return engine && std::string_view(engine) == "interpreter";
}
}  // namespace

Result<LabOutcome> runInChild(const LabRequest& q, const TimingOptions* timing, const Checks& checks) {
  auto backend = chooseBackend(q);
  if (!backend) return backend.error();
  if (auto s = checkRequestLimits(q); !s) return s.error();
  std::vector<std::pair<std::string, std::string>> defines;
  for (const LabDefine& d : q.defines) defines.emplace_back(d.name, d.value);
  const std::string source = applyDefines(withoutByteOrderMark(q.source), defines);
  auto student = readStudentKernel(q, checks, source);
  if (LabOutcome* ended = std::get_if<LabOutcome>(&student)) return std::move(*ended);
  const LabKernelSource& kernel = std::get<LabKernelSource>(student);
  LabOutcome o;
  o.source = q.source;
  auto launch = resolveLaunch(q, kernel, backend->gpu, timing == nullptr);
  if (!launch) return launch.error();
  o.launch = *launch;
  o.launch.backend = backend->gpu ? "cuda" : "emulator";
  o.launch.backendNote = backend->note;
  // With TILESCOPE_LAB_ENGINE=interpreter the emulator never runs the kernel as native code: the
  // lab's own interpreter runs it (lab_interpreted.cpp). The sandbox's own tests (checks off,
  // lab_testing.h) always hand the native runner their hostile code, to hold its sandbox.
  if (!backend->gpu && !timing && checks.source && interpreterEngine())
    return runInterpreted(q, kernel, source, std::move(o));
  if (auto s = requireSandbox(q); !s) return s.error();
  auto cache = labCacheDirectory(q.cacheDir);
  if (!cache) return cache.error();
  auto runner = findRunner();
  if (!runner) return runner.error();
  auto scratch = Scratch::create(*cache, "run");  // the runner's only writable directory, removed on return
  if (!scratch) return scratch.error();
  auto prepared = prepareKernel(q, kernel, source, backend->gpu, checks, *cache, *runner, *scratch, o);
  if (!prepared) return prepared.error();
  if (prepared->ended) return std::move(*prepared->ended);
  return runRunner(q, kernel, timing, *runner, *scratch, *prepared, std::move(o));
}

}  // namespace tilescope::lab::detail
