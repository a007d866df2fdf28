// The kernel lab: a student's kernel, written as plain CUDA C++ the way books and slides print
// it, read by the lab's own CUDA-C front end and run by its interpreter, traced as the built-in
// kernels are, verified and analysed like them.
//
//   LabRequest (source text, sizes, #defines, block, grid, scalar args, backend, time limit)
//     -> the kernel's signature mapped onto M, N, P and Width or j, k, l   (lab_source.h)
//     -> the interpreter (app/lab/interp): preprocessed, parsed, checked against the lab's
//        subset (else a compile error at the student's line), run per thread in the emulator's
//        fibers in this process, every access recorded by the interpreter itself
//     -> GPU (--backend cuda, after the interpreter): NVRTC compiles the same file as written
//        in tilescope-lab-runner --cuda-time (a sandboxed process; built with CUDA only), which
//        checks one launch's P against the reference and times it
//     -> LabOutcome: a verdict, and for a kernel that ran the same Run (inputs, P, Trace,
//        verification) a built-in kernel gives, so every analysis and view works unchanged.
//
// A lab run's Run has a LabKernel for its kernel (run.kernel, core/run/run.h: the kernel's name,
// its file and its text; no KernelId), and its launch's shared-memory layout comes from the
// kernel's declarations (plan.launch.labTiles), not from a kernel file's facts.
//
// Nothing here throws or exits; a kernel may crash, loop or deadlock, and the outcome says
// which, in which thread and at which line. Safe to call from any thread (the app runs it off
// the UI thread); GPU runs in parallel share NVRTC's module cache safely (files are written
// under temporary names and renamed into place).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/bounds_report.h"
#include "core/analysis/races.h"
#include "core/finished/finished_run.h"
#include "core/run/run.h"
#include "core/timing/timing.h"
#include "kernels/launch_report.h"
#include "kernels/result.h"

namespace tilescope::lab {

enum class LabBackend { Emulator, Cuda, Auto };

// The compiler's time limit when none is given (--compile-timeout): a lab kernel compiles in
// a few seconds; half a minute is something else (a template bomb, a loaded machine).
inline constexpr double kDefaultCompileSeconds = 30.0;
// The memory limit when none is given (--memory-limit): room for the interpreter, the inputs
// and a trace of 40 Mi events (and the GPU runner's address space where the driver allows one).
inline constexpr uint64_t kDefaultMemoryLimitBytes = 4ull << 30;
// The smallest limit --memory-limit accepts, in MiB: the runner itself takes up to 1 GiB of
// address space (lab_confine.cpp; 783 MiB measured with CUDA's libraries mapped), so a smaller
// limit left no room for any trace (256 failed every launch, 512 could not even load a kernel).
inline constexpr int kMinMemoryLimitMiB = 1536;
// The largest kernel source the lab takes: the book's kernels are a few KiB; a 40 MB file
// made the compiler's input (and the lab) grow to gigabytes before anything was checked.
inline constexpr std::size_t kMaxSourceBytes = 1u << 20;
// The most of what a kernel printed that a report shows (describePrinted); the rest is counted.
inline constexpr std::size_t kMaxShownPrintedBytes = 4096;
inline constexpr int kMaxMemoryLimitMiB = 1 << 20;

struct LabDefine {
  std::string name, value;  // -D NAME=VALUE; replaces a `#define NAME ...` line of the file
};
struct LabArg {
  std::string name;  // a further scalar parameter of the kernel, by name
  double value = 0.0;
};

struct LabRequest {
  std::string source;                  // the .cu text as written
  std::string fileName = "kernel.cu";  // what compiler messages and #line call it
  // Sizes: M is j x k, N is k x l, P is j x l. A kernel taking `int Width` needs j = k = l.
  Dims dims{16, 16, 16};
  std::vector<LabDefine> defines;
  // Block shape: when absent, T x T for a define (launch or file) named TILE_WIDTH,
  // TILE_SIZE, BLOCK_SIZE, BLOCKSIZE or TILE, else 16 x 16. Grid: when absent, enough
  // blocks to cover P (ceil(l / bx) x ceil(j / by)).
  std::optional<Dim3> block, grid;
  int gridCoarsenX = 1;  // the default grid gives each block bx * this many columns of P
  std::vector<LabArg> args;
  unsigned sharedBytes = 0;  // dynamic shared memory (the <<< >>>'s third parameter)
  // Auto: the GPU when this build has CUDA and a device is present, else the emulator.
  LabBackend backend = LabBackend::Emulator;
  double timeoutSeconds = 5.0;  // of the run
  double compileTimeoutSeconds = kDefaultCompileSeconds;  // NVRTC's on the GPU, added to the run's
  uint64_t memoryLimitBytes = kDefaultMemoryLimitBytes;  // a launch whose trace would not fit is refused
  // The GPU runner confined (lab_sandbox.h). Off only on request (--no-sandbox); on, a machine
  // whose kernel lacks Landlock or seccomp refuses to run the kernel on the GPU.
  bool sandbox = true;
  uint64_t seed = 1;            // M and N are drawn as for a built-in kernel (core/run.h)
  std::string cacheDir;         // NVRTC's modules; empty: $TILESCOPE_LAB_CACHE, else $XDG_CACHE_HOME/tilescope/lab
  const std::atomic<bool>* cancel = nullptr;  // set it to stop the run (reported as timed out)
  // Makes the object a run is finished into (LabOutcome::finished): a type that extends
  // FinishedRun, such as the app's shown run, so that the caller shows the lab's own finished
  // run (adding only its timeline: addTimeline) instead of finishing it again. Empty: a FinishedRun.
  std::function<std::shared_ptr<FinishedRun>()> newFinishedRun;
};

// The launch settings a file asks for in its header comment lines, e.g.
//   // lab: define TILE_WIDTH=2
//   // lab: size 4            (or: dims 5,3,7)  block 2x2  grid 2x2  shared-bytes 32  arg n=4
//   // lab: expect verified   (examples: the verdict the CI test holds them to)
//   // lab: from PMPP 4th ed., ch. 5, fig. 5.9
// `lab:` lines may appear anywhere in the file's comments; each carries one setting.
struct LabFileSettings {
  std::optional<Dims> dims;
  std::optional<int> size;  // --size W: j = k = l = W
  std::vector<LabDefine> defines;
  std::optional<Dim3> block, grid;
  std::vector<LabArg> args;
  std::optional<unsigned> sharedBytes;
  std::string expect;  // verdict name ("verified", "compile error", ...), empty if none
  std::string from;    // where the kernel comes from
};
// "16x8" as a block or grid shape; `what` names it in the message.
Result<Dim3> parseShape(const std::string& text, const std::string& what);
// Reads the `lab:` lines; an unknown setting or a malformed value is refused with FILE:LINE.
Result<LabFileSettings> readLabSettings(std::string_view source, std::string_view fileName);
// A request for `source` with the file's settings applied (flags given later override them).
Result<LabRequest> requestFromFile(std::string source, std::string fileName);

enum class LabVerdict {
  Verified,      // P equals the double-precision reference, in bounds, no hazards: exit 0
  WrongResult,   // P differs from the reference: exit 1
  OutOfBounds,   // an access outside its matrix or shared array: exit 1
  Hazard,        // the race detector found a shared-memory hazard (a missing barrier): exit 1
  CompileError,  // with FILE:LINE and the compiler's message: exit 2
  Crashed,       // the child died of a signal: exit 3
  TimedOut,      // the child ran past the time limit (an endless loop): exit 3
  Deadlocked,    // threads of a block wait at a barrier others never reach: exit 3
};
std::string_view verdictName(LabVerdict v);  // "verified", "wrong result", "out-of-bounds", ...
std::optional<LabVerdict> verdictByName(std::string_view name);
int verdictExitCode(LabVerdict v);           // 0, 1, 2 or 3 as above

struct LabDiagnostic {  // one compiler error
  std::string file;
  int line = 0, column = 0;
  std::string message;
};

// Where a crash, time-out or deadlock happened, as far as the child could tell.
struct LabWhere {
  Dim3 block, thread;
  int line = 0;  // the thread's last recorded access (or the barrier), 0 if unknown
};

// The launch as it ran, with every default resolved.
struct LabLaunch {
  std::string kernelName;  // the __global__ function
  Dims dims;
  bool widthForm = false;  // the kernel takes `int Width` (else j, k, l)
  Dim3 block, grid;
  std::vector<LabDefine> defines;  // given ones (request and file), in order
  std::vector<LabArg> args;        // values of the further scalar parameters, in order
  unsigned sharedBytes = 0;
  std::string backend;  // "emulator" or "cuda"
  std::string backendNote;  // why --backend auto ran on the emulator ("no NVIDIA GPU here: runs on the emulator")
  // The launch as the core's one door planned it (planLaunchOn): the run's description, with
  // the shape read from the kernel's declarations, and its plan (grid, block, shared memory).
  LaunchConfig config;
  LaunchPlan plan;
};

// What the GPU's compiler made of the kernel (a run with --backend cuda).
struct LabGpuFacts {
  std::string device;  // "NVIDIA H100 80GB HBM3, sm_90"
  int registersPerThread = 0;  // the kernel as written (NVRTC and ptxas): what occupancy uses
  int tracedRegistersPerThread = 0;  // its traced build, which ran
  int staticSharedBytes = 0;   // the kernel as written
  int localBytesPerThread = 0;  // spills and local arrays
};

struct LabOutcome {
  LabVerdict verdict = LabVerdict::Verified;
  std::string summary;  // one line: "verified: ...", "compile error: tiled.cu:12: ...", ...
  LabLaunch launch;
  std::string source;  // the source as given (what the Source view shows)
  std::vector<LabDiagnostic> diagnostics;  // compile errors, the student's file first
  std::string compilerOutput;              // everything the compiler printed
  std::optional<LabWhere> where;           // crash, time-out, deadlock
  std::vector<int> wrongLines;             // a wrong result traced back to these lines (wrongResultLines)
  std::string hazardSentence;  // the first shared-memory hazard in a teacher's words (any verdict), or ""
  // When the kernel ran to its end (or was abandoned at a barrier): its finished run
  // (core/finished), made as every run's is: the Run (kernel: the LabKernel; inputs, P, trace,
  // verification), the out-of-bounds report and the shared-memory hazards, computed there once.
  // Shared by copies of the outcome.
  std::shared_ptr<FinishedRun> finished;
  std::vector<OutOfBoundsAccess> outsideAllocation;  // accesses past an array (the interpreter's report)
  // The trace does not account for P (core/run/trace_accounts.h): what it leaves unexplained.
  // Such a run is reported as such and not graded (its verdict is a wrong result).
  std::optional<std::string> unaccounted;
  unsigned staticSharedBytes = 0;  // of the static __shared__ arrays, as the executor placed them
  std::optional<LabGpuFacts> gpu;  // a run on the GPU that compiled
  bool cached = false;  // the compiled kernel came from the cache
  std::string sandbox;  // how the run was confined, one line (describeSandbox)
  double compileSeconds = 0.0, runSeconds = 0.0;
  std::string childOutput;  // what the child printed on stderr (an abort message, ...)
  // What the kernel's device printf wrote, in the order the interpreter ran the threads (on a
  // crash or a time-out too, up to where it stopped). The interpreter keeps the first
  // kMaxPrintedBytes; printedTruncated says it stopped keeping.
  std::string printed;
  bool printedTruncated = false;
  std::optional<TimingResult> timing;  // timeLab: what the GPU measured (times only when verified)
  int exitCode() const { return verdictExitCode(verdict); }
  // The finished run's out-of-bounds report (none without a finished run).
  const std::vector<BoundsViolation>& boundsViolations() const;
  // The finished run's hazards (none without a finished run or a trace).
  const std::vector<Hazard>& hazards() const;
};

// Runs the request on the interpreter, then for --backend cuda (or auto with a GPU) checks and
// times it on the GPU: the GPU runs only what the interpreter ran to its end within every array;
// its traced run must give the interpreter's trace event for event (lab_trace_compare.h), and a
// trace that differs, or a P it gets wrong where the interpreter's was right, fails the run
// ("behaves differently on the GPU"). An Error only for input the lab refuses before running (an unmappable signature,
// sizes out of range, a missing argument: InvalidInput) or a missing tool (no runner, no CUDA
// device for --backend cuda: Unavailable); everything that happens to the kernel is a verdict.
Result<LabOutcome> runLab(const LabRequest& request);
// Why --backend cuda cannot run here (no CUDA in this build, no device), or nothing when it can.
std::optional<std::string> labGpuUnavailable();

// Runs the request's kernel through the lab's own interpreter, in this process, whatever
// request.backend says: what runLab's emulator backend does, what an exercise's grade is
// measured with on every backend, and all the page's lab can do (tilescope_lab_core: no
// process, no compiler, no sandbox).
Result<LabOutcome> runLabInterpreted(const LabRequest& request);

// Times the kernel as written on the GPU at request.dims, as the Timing panel's live sweep
// times a built-in kernel: NVRTC compiles it (cached as for a traced GPU run) and
// tilescope-lab-runner --cuda-time, a process of its own with the request's time limit (plus
// options.maxSecondsPerCase), verifies one launch into a NaN-poisoned P against the
// double-precision reference and only then times it (core/gpu_timer.h: warm-up, CUDA events,
// median, inputs rotated past L2). The verdict is Verified (timed), WrongResult (not timed),
// CompileError, Crashed or TimedOut; `timing` holds the result (TimedKind::Lab, named by
// labTimingName). Nothing is traced: hazards and out-of-bounds accesses are runLab's to
// find. Unavailable without CUDA or a device; request.backend is not consulted.
Result<LabOutcome> timeLab(const LabRequest& request, const TimingOptions& options = {});
// How a timed lab kernel is named in the Timing panel and by `lab time`: "matrixMulKernel
// (tiled.cu)", then the launch's defines ("TILE_WIDTH=32"); the file name alone when the
// kernel cannot be read.
std::string labTimingName(const LabRequest& request);

// Multi-line text for the CLI and the app: the summary, then the details (first errors, the
// out-of-bounds accesses, hazards, where it stopped). Every piece that comes from the student
// (file name, messages, names, what the kernel printed) goes through `student` when given: the
// CLI passes its terminal escaping (app/cli/grade_output.h, forTerminal), which makes each
// piece one line without control sequences.
using StudentText = std::string (*)(std::string_view);
// What the kernel printed, as describeOutcome shows it: "the kernel printed:", then each line
// indented behind "| " (so nothing printed can pass for a line of the report), every piece
// through `student` when given, else with control bytes as \xNN; at most `maxLines` lines and
// kMaxShownPrintedBytes, then a line that says how much more was printed and was not shown.
// "" when it printed nothing.
std::string describePrinted(const LabOutcome& outcome, std::size_t maxLines = 40, StudentText student = nullptr);
std::string describeOutcome(const LabOutcome& outcome, std::size_t maxItems = 8, StudentText student = nullptr);

// "4 threads wait at the __syncthreads() of line 3, 12 at the one of line 5": each barrier's
// own count, and the threads that returned (lab_describe.cpp).
std::string describeDivergence(const BarrierDivergence& divergence);

}  // namespace tilescope::lab
