// tilescope-lab-runner --cuda|--cuda-time UNIT CUBIN_STEM REQUEST RESPONSE STOP_FILE PROGRAM_NAME
//                      [NVRTC_OPTION...]:
// the lab on the GPU (app/lab/lab.h). --cuda traces a run; --cuda-time times the kernel
// as written (the unit's plain entry) the way the timing engine times a built-in kernel
// (core/gpu_timer.h: verified into a poisoned P first, then median of CUDA-event timings). UNIT (lab_compile.h, gpuTranslationUnit) is the
// student's kernel rewritten into the same views as the built-in traced GPU build; NVRTC
// compiles it for device 0 (cached as CUBIN_STEM-sm_XY.cubin), the driver API loads it and
// launches its entry, and the launch goes through GpuLaunchSession like every traced GPU
// run: NaN-padded matrices, the device trace buffer, the trace decoded on the device.
//
// A process of its own: a kernel that never ends is stopped by the time limit (the runner
// exits and its CUDA context dies with it), one that faults (an illegal address) is
// reported as the kernel's fault, and the parent survives both.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "core/gpu/gpu_launch.h"
#include "core/gpu/gpu_timer.h"
#include "lab/lab_compile.h"
#include "lab/lab_ipc.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/gpu_info.h"
#include "runner.h"

namespace tilescope::lab::runner {

namespace {

// The driver API, reached through the runtime's entry points rather than linked: a runner
// linked to libcuda would not even start on a machine without a driver, where its emulator
// mode must still run.
struct Driver {
#define TILESCOPE_DRIVER_FUNCTIONS(X)                                                                     \
  X(cuGetErrorName) X(cuGetErrorString) X(cuDeviceGet) X(cuDeviceGetAttribute) X(cuDeviceGetName)         \
  X(cuModuleLoadData) X(cuModuleUnload) X(cuModuleGetFunction) X(cuModuleGetGlobal) X(cuFuncGetAttribute) \
  X(cuLaunchKernel) X(cuMemcpyDtoH)
#define TILESCOPE_DRIVER_POINTER(f) decltype(&::f) f = nullptr;
  TILESCOPE_DRIVER_FUNCTIONS(TILESCOPE_DRIVER_POINTER)

  // After the runtime created its context (so the driver is there).
  Status load() {
    cudaDriverEntryPointQueryResult found{};
#define TILESCOPE_DRIVER_LOAD(f)                                                                             \
    if (cudaGetDriverEntryPointByVersion(#f, reinterpret_cast<void**>(&f), CUDA_VERSION, cudaEnableDefault, &found) != \
            cudaSuccess ||                                                                                   \
        found != cudaDriverEntryPointSuccess || !f) {                                                        \
      (void)cudaGetLastError();                                                                              \
      return failure("the CUDA driver does not provide " #f " (CUDA " + std::to_string(CUDA_VERSION / 1000) +  \
                     " or newer is needed)");                                                                \
    }
    TILESCOPE_DRIVER_FUNCTIONS(TILESCOPE_DRIVER_LOAD)
    return Ok{};
  }
};
Driver cu;

Status checkDriver(CUresult code, const char* call) {
  if (code == CUDA_SUCCESS) return Ok{};
  const char* name = nullptr;
  const char* text = nullptr;
  if (cu.cuGetErrorName) cu.cuGetErrorName(code, &name);
  if (cu.cuGetErrorString) cu.cuGetErrorString(code, &text);
  return failure(std::string(call) + " failed: " + (text ? text : "unknown error") + " (" + (name ? name : "?") + ")");
}
Status checkNvrtc(nvrtcResult code, const char* call) {
  if (code == NVRTC_SUCCESS) return Ok{};
  return failure(std::string(call) + " failed: " + nvrtcGetErrorString(code));
}
#define CU_TRY(call)                                                                              \
  do {                                                                                            \
    if (::tilescope::Status cuTryStatus_ = checkDriver((call), #call); !cuTryStatus_) return cuTryStatus_.error(); \
  } while (0)
#define NVRTC_TRY(call)                                                                           \
  do {                                                                                            \
    if (::tilescope::Status nvTryStatus_ = checkNvrtc((call), #call); !nvTryStatus_) return nvTryStatus_.error(); \
  } while (0)

std::string readBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Owns an NVRTC program.
struct Program {
  nvrtcProgram p = nullptr;
  ~Program() {
    if (p) nvrtcDestroyProgram(&p);
  }
};

// The compiled module: a cubin for the device's architecture when this NVRTC knows it, else
// PTX for the newest one it knows (the driver compiles that for the device).
struct Module {
  std::string image;
  std::string target;  // "sm_90" or "compute_90"
  bool failed = false;
  std::string log;
  bool cached = false;
};

// `programName`: what NVRTC calls the unit (lab_compile.h's GpuCompileJob says why it matters).
Result<Module> compileUnit(const std::string& unitFile, const std::string& programName, const std::string& stem,
                           std::vector<std::string> options, int major, int minor) {
  int versionMajor = 0, versionMinor = 0, archCount = 0;
  NVRTC_TRY(nvrtcVersion(&versionMajor, &versionMinor));
  NVRTC_TRY(nvrtcGetNumSupportedArchs(&archCount));
  std::vector<int> archs(std::size_t(std::max(archCount, 0)));
  NVRTC_TRY(nvrtcGetSupportedArchs(archs.data()));
  const int wanted = major * 10 + minor;
  int best = 0;
  for (int a : archs)
    if (a <= wanted) best = std::max(best, a);
  if (best == 0)
    return unavailable("NVRTC " + std::to_string(versionMajor) + "." + std::to_string(versionMinor) +
                       " cannot compile for this device (compute capability " + std::to_string(major) + "." +
                       std::to_string(minor) + ")");
  Module m;
  const bool cubin = best == wanted;
  m.target = (cubin ? "sm_" : "compute_") + std::to_string(best);
  const std::string cached = stem + "-" + m.target + "-nvrtc" + std::to_string(versionMajor) + "." +
                             std::to_string(versionMinor) + (cubin ? ".cubin" : ".ptx");
  std::error_code ec;
  if (std::filesystem::exists(cached, ec)) {
    m.image = readBytes(cached);
    m.cached = !m.image.empty();
    if (m.cached) return m;
  }
  const std::string unit = readBytes(unitFile);
  if (unit.empty()) return failure("cannot read the lab's unit " + unitFile);
  // Kernels from books and slides may include headers NVRTC does not have; what they use
  // from them (printf, the math functions) NVRTC provides, so these are empty.
  const char* const stubs[] = {"cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "stdio.h", "cstdio",
                               "math.h", "cmath", "stdlib.h", "cstdlib"};
  std::vector<const char*> stubTexts(std::size(stubs), "");
  Program program;
  NVRTC_TRY(nvrtcCreateProgram(&program.p, unit.c_str(), programName.c_str(), int(std::size(stubs)), stubTexts.data(),
                               stubs));
  options.push_back("--gpu-architecture=" + m.target);
  std::vector<const char*> raw;
  for (const std::string& o : options) raw.push_back(o.c_str());
  const nvrtcResult compiled = nvrtcCompileProgram(program.p, int(raw.size()), raw.data());
  std::size_t logBytes = 0;
  NVRTC_TRY(nvrtcGetProgramLogSize(program.p, &logBytes));
  m.log.assign(logBytes, '\0');
  NVRTC_TRY(nvrtcGetProgramLog(program.p, m.log.data()));
  while (!m.log.empty() && m.log.back() == '\0') m.log.pop_back();
  if (compiled == NVRTC_ERROR_COMPILATION) {
    m.failed = true;
    return m;
  }
  NVRTC_TRY(compiled);
  std::size_t bytes = 0;
  if (cubin) {
    NVRTC_TRY(nvrtcGetCUBINSize(program.p, &bytes));
    m.image.assign(bytes, '\0');
    NVRTC_TRY(nvrtcGetCUBIN(program.p, m.image.data()));
  } else {
    NVRTC_TRY(nvrtcGetPTXSize(program.p, &bytes));
    m.image.assign(bytes, '\0');
    NVRTC_TRY(nvrtcGetPTX(program.p, m.image.data()));
  }
  // Into the cache under a temporary name, then renamed: a parallel run reads all or nothing.
  const std::string temporary = cached + ".tmp-" + std::to_string(getpid());
  std::ofstream(temporary, std::ios::binary).write(m.image.data(), std::streamsize(m.image.size()));
  std::filesystem::rename(temporary, cached, ec);
  if (ec) std::filesystem::remove(temporary, ec);
  return m;
}

struct LoadedModule {
  CUmodule module = nullptr;
  ~LoadedModule() {
    if (module) cu.cuModuleUnload(module);
  }
};

Result<int> attribute(CUfunction f, CUfunction_attribute a, const char* what) {
  int v = 0;
  if (Status s = checkDriver(cu.cuFuncGetAttribute(&v, a, f), what); !s) return s.error();
  return v;
}

// The unit compiled (or why not) and loaded into device 0's context.
struct Loaded {
  LoadedModule module;
  CUfunction traced = nullptr, plain = nullptr;
  CUdeviceptr geometry = 0;
};

// The launch's values, one kernel parameter each, as both entries take them
// (gpuTranslationUnit): ThreadArgs' fields.
struct EntryParams {
  float* m = nullptr;
  float* n = nullptr;
  float* p = nullptr;
  int j = 0, k = 0, l = 0;
  TraceSink sink{};  // zero for the plain entry, which records nothing
  GpuScalars scalars{};
  void* list[8] = {&m, &n, &p, &j, &k, &l, &sink, &scalars};

  EntryParams(const RunnerRequest& q, const float* dM, const float* dN, float* dP)
      // The book's kernels take float*: they do not write M or N.
      : m(const_cast<float*>(dM)), n(const_cast<float*>(dN)), p(dP), j(q.j), k(q.k), l(q.l) {
    for (std::size_t i = 0; i < q.scalars.size() && i < std::size_t(kMaxScalarArgs); ++i) scalars.values[i] = q.scalars[i];
  }
  EntryParams(const EntryParams&) = delete;  // `list` points into this object
};

// Creates the context, compiles and loads. The response's compile fields say what NVRTC
// did; with compileFailed set nothing is loaded.
Status compileAndLoad(int argc, char** argv, RunnerResponse& response, Loaded& loaded) {
  const std::string unitFile = argv[2], stem = argv[3], programName = argv[7];
  std::vector<std::string> options(argv + 8, argv + argc);

  // The runtime's primary context on device 0: the driver API's module lives in it, and the
  // shared launch path (cudaMalloc, the trace decoder) uses it too.
  int devices = 0;
  if (const cudaError_t code = cudaGetDeviceCount(&devices); code != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    // CUDA's own words too: inside the sandbox a missing device file or a refused call shows here.
    return unavailable(std::string("no CUDA device: the lab's GPU backend needs one") +
                       (code != cudaSuccess ? std::string(" (") + cudaGetErrorString(code) + ")" : std::string()));
  }
  CUDA_TRY(cudaSetDevice(0));
  CUDA_TRY(cudaFree(nullptr));  // creates the context now, so its cost is not the kernel's
  if (Status s = cu.load(); !s) return s.error();
  CUdevice device = 0;
  CU_TRY(cu.cuDeviceGet(&device, 0));
  int major = 0, minor = 0;
  CU_TRY(cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
  CU_TRY(cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
  char name[256] = {};
  CU_TRY(cu.cuDeviceGetName(name, sizeof name, device));

  const auto compileStart = std::chrono::steady_clock::now();
  auto module = compileUnit(unitFile, programName, stem, options, major, minor);
  if (!module) return module.error();
  response.compileSeconds = secondsSince(compileStart);
  response.compileCached = module->cached;
  response.compileLog = module->log;
  response.gpu.device = std::string(name) + ", " + module->target;
  if (module->failed) {
    response.compileFailed = true;
    return Ok{};
  }

  CU_TRY(cu.cuModuleLoadData(&loaded.module.module, module->image.data()));
  CU_TRY(cu.cuModuleGetFunction(&loaded.traced, loaded.module.module, kGpuTracedEntryName));
  CU_TRY(cu.cuModuleGetFunction(&loaded.plain, loaded.module.module, kGpuPlainEntryName));
  auto registers = attribute(loaded.plain, CU_FUNC_ATTRIBUTE_NUM_REGS, "cuFuncGetAttribute(NUM_REGS)");
  auto tracedRegisters = attribute(loaded.traced, CU_FUNC_ATTRIBUTE_NUM_REGS, "cuFuncGetAttribute(NUM_REGS)");
  auto sharedBytes = attribute(loaded.plain, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
  auto localBytes = attribute(loaded.plain, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, "cuFuncGetAttribute(LOCAL_SIZE_BYTES)");
  for (const auto* r : {&registers, &tracedRegisters, &sharedBytes, &localBytes})
    if (!*r) return r->error();
  response.gpu.registersPerThread = *registers;
  response.gpu.tracedRegistersPerThread = *tracedRegisters;
  response.gpu.staticSharedBytes = *sharedBytes;
  response.gpu.localBytesPerThread = *localBytes;
  std::size_t geometryBytes = 0;
  CU_TRY(cu.cuModuleGetGlobal(&loaded.geometry, &geometryBytes, loaded.module.module, "tilescopeLabGeometry"));
  if (geometryBytes != sizeof response.geometry) return failure("the lab's GPU unit has a geometry table of the wrong size");
  return Ok{};
}

// --cuda: one traced launch; the response says what happened to the kernel, an Error what
// happened to the lab (a CUDA call that failed outside the kernel).
Status traceRun(const RunnerRequest& q, const Loaded& loaded, RunnerResponse& response) {
  LaunchPlan plan;
  KernelLaunch& L = plan.launch;
  L.labTiles = SharedTileLayout{};  // a lab kernel: the parent places its tiles
  L.j = q.j, L.k = q.k, L.l = q.l;
  L.tile = int(q.block.x);
  L.gridX = q.grid.x, L.gridY = q.grid.y, L.blockX = q.block.x, L.blockY = q.block.y;
  L.dynamicSharedFloats = q.sharedBytes / 4;
  plan.threads = uint64_t(q.grid.x) * q.grid.y * q.block.x * q.block.y;
  Matrix m(q.j, q.k), n(q.k, q.l), p(q.j, q.l);
  m.values = q.m;
  n.values = q.n;

  bool launched = false;
  auto launcher = [&](const float* dM, const float* dN, float* dP, const GpuTraceBuffers* trace) -> Status {
    EntryParams params(q, dM, dN, dP);
    TraceSink& sink = params.sink;
    sink.slots = trace->slots;
    sink.slotsPerThread = trace->slotsPerThread;
    sink.overflow = trace->overflow;
    sink.j = q.j, sink.k = q.k, sink.l = q.l;
    for (int i = 0; i < kMaxSharedArrays; ++i) sink.shared[i] = q.shared[i];
    CU_TRY(cu.cuLaunchKernel(loaded.traced, q.grid.x, q.grid.y, 1, q.block.x, q.block.y, 1, q.sharedBytes, nullptr,
                             params.list, nullptr));
    launched = true;
    return Ok{};
  };

  GpuLaunchSession session;
  unsigned slotsPerThread = std::max(1u, q.slotsPerThread);
  EventVector slots;
  armTimeLimit(q.timeoutSeconds);
  for (;;) {
    plan.slotsPerThread = slotsPerThread;
    plan.traceSlots = plan.threads * slotsPerThread;
    launched = false;
    auto outcome = session.launch(plan, m, n, p, &slots, launcher);
    if (!outcome) {
      disarmTimeLimit();
      // A launch the device refused (too many registers or threads) is the lab's input; an
      // error after it was queued is the kernel's (the context is lost with it).
      if (!launched) response.error = outcome.error().message;
      else response.kernelFault = outcome.error().message;
      return Ok{};
    }
    response.traceOverflowed = outcome->traceOverflowed;
    // As on the emulator: a thread recorded more than it had room for, so run again with
    // twice the room, as far as the cap allows.
    if (!outcome->traceOverflowed || plan.threads * slotsPerThread * 2 > q.maxTraceSlots) break;
    slotsPerThread *= 2;
  }
  disarmTimeLimit();
  response.slotsDecoded = true;
  response.slotsPerThread = slotsPerThread;
  response.slots = std::move(slots);
  response.p = std::move(p.values);
  CU_TRY(cu.cuMemcpyDtoH(response.geometry, loaded.geometry, sizeof response.geometry));
  // Shared addresses count from the start of the window; the emulator counts from the first
  // static array, and so does the analysis: the lowest array starts at 0.
  long long lowest = -1;
  for (const StaticSharedGeometry& g : response.geometry)
    if (g.declared && (lowest < 0 || g.offset < lowest)) lowest = g.offset;
  for (StaticSharedGeometry& g : response.geometry)
    if (g.declared) g.offset -= lowest;
  return Ok{};
}

// --cuda-time: the kernel as written (the plain entry, no trace), verified and timed by a
// GpuTimer exactly as the timing engine times a built-in kernel.
Status timeRun(const RunnerRequest& q, const Loaded& loaded, RunnerResponse& response) {
  auto info = cuda::queryGpu(0);
  if (!info) return info.error();
  GpuTimer timer(info->l2Bytes);
  TimingCase what;
  what.kind = TimedKind::Lab;
  what.config.dims = {q.j, q.k, q.l};
  what.config.seed = q.seed;
  // Drawing the inputs (host work, a second at the largest sizes) is not the kernel's time.
  if (Status s = timer.prepare(what.config); !s) return s.error();
  TimingOptions options;
  options.warmup = q.warmup;
  options.repeats = q.repeats;
  options.maxSecondsPerCase = q.maxSecondsPerCase;
  bool launched = false;
  auto launch = [&](const float* dM, const float* dN, float* dP) -> Status {
    EntryParams params(q, dM, dN, dP);
    CU_TRY(cu.cuLaunchKernel(loaded.plain, q.grid.x, q.grid.y, 1, q.block.x, q.block.y, 1, q.sharedBytes, nullptr,
                             params.list, nullptr));
    launched = true;
    return Ok{};
  };
  // The limit covers the verifying launch, the warm-up and the timed launches.
  armTimeLimit(q.timeoutSeconds + q.maxSecondsPerCase);
  auto result = timer.time(what, launch, options);
  disarmTimeLimit();
  if (!result) {
    if (!launched) response.error = result.error().message;
    else response.kernelFault = result.error().message;
    return Ok{};
  }
  RunnerTiming& t = response.timing;
  t.verified = result->verified;
  t.verification = result->verification;
  t.maxRelativeError = result->maxRelativeError;
  t.medianMs = result->medianMs, t.minMs = result->minMs, t.maxMs = result->maxMs;
  t.gflops = result->gflops;
  t.repeats = result->repeats;
  return Ok{};
}

Status run(int argc, char** argv, bool timed, RunnerResponse& response) {
  auto request = readRunnerRequest(argv[4]);
  if (!request) return request.error();
  Loaded loaded;
  if (Status s = compileAndLoad(argc, argv, response, loaded); !s || response.compileFailed) return s;
  return timed ? timeRun(*request, loaded, response) : traceRun(*request, loaded, response);
}

}  // namespace

void prepareGpu() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 || cudaSetDevice(0) != cudaSuccess ||
      cudaFree(nullptr) != cudaSuccess)
    (void)cudaGetLastError();  // compileAndLoad asks again and reports it in CUDA's words
}

int runOnGpu(int argc, char** argv) {
  if (argc < 8)
    return fail(
        "usage: tilescope-lab-runner --cuda|--cuda-time UNIT CUBIN_STEM REQUEST RESPONSE STOP_FILE PROGRAM_NAME "
        "[NVRTC_OPTION...]");
  openStopFile(argv[6]);
  RunnerResponse response;
  const bool timed = std::strcmp(argv[1], "--cuda-time") == 0;
  if (Status s = run(argc, argv, timed, response); !s) return fail(s.error().message);
  if (Status s = writeRunnerResponse(argv[5], response); !s) return fail(s.error().message);
  return 0;
}

}  // namespace tilescope::lab::runner
