// The lab's CUDA-C front end and interpreter: what a student's kernel becomes, and how it runs.
//
//   compileSource   preprocess (mcpp: the lab's defines, #define, #if as nvcc does), parse
//                   (tree-sitter's CUDA grammar), check that every construct is in the subset
//   instantiate     one kernel with its template arguments bound, checked (types, scopes) and
//                   lowered to a typed tree with resolved slots (program.h)
//   runProgram      every thread of the grid in the emulator's fibers with its real barrier;
//                   every global and shared access recorded by the interpreter itself into the
//                   launch's TraceSink, as the built-in kernels' views record theirs
//
// The student's program holds no address of tilescope's: its values, arrays and matrices
// exist only inside the interpreter, every access is bounds-checked, and there is no host
// code, no libc, no pointer outside an array. Errors are values, each at the student's line.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/emu/emulator.h"
#include "kernels/trace/trace_sink.h"
#include "lab/interp/program.h"

namespace tilescope::interp {

// One message at the student's line (and column, 0 when not known), in plain words.
struct Diagnostic {
  int line = 0, column = 0;
  std::string message;
};
// "line 7, column 3: <message>", then the student's line and a caret under the column.
std::string formatDiagnostic(std::string_view source, const Diagnostic& d);

struct Define {
  std::string name, value;
};

struct Unit;  // a parsed, checked translation unit (its tree and its line map)

// What a kernel asks of its launch, as declared.
struct KernelSignature {
  std::string name;
  std::vector<std::string> templateParameters;  // integer template parameters, in order
  std::vector<std::string> parameters;
  std::vector<bool> parameterIsPointer;
  int line = 0;
};

struct Compiled {
  std::shared_ptr<const Unit> unit;  // null when `error` is set
  std::optional<Diagnostic> error;
  std::vector<KernelSignature> kernels;  // the __global__ functions, in order
};
Compiled compileSource(std::string_view text, const std::vector<Define>& defines = {});

struct Instance {
  std::shared_ptr<const Program> program;  // null when `error` is set
  std::optional<Diagnostic> error;
};
Instance instantiate(const Unit& unit, std::string_view kernel, const std::vector<long long>& templateArguments);

// A kernel argument: one of the matrices (by its role: 0 M, 1 N, 2 P) or a number.
struct Argument {
  bool isMatrix = false;
  int role = 0;
  long long integer = 0;
  double real = 0;
  static Argument matrix(int role) { return {true, role, 0, 0}; }
  static Argument number(long long v) { return {false, 0, v, double(v)}; }
};

struct RunRequest {
  const Program* program = nullptr;
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  std::size_t dynamicSharedBytes = 0;
  std::vector<Argument> arguments;
  float* matrices[3] = {nullptr, nullptr, nullptr};  // M, N, P
  long long counts[3] = {0, 0, 0};
  const TraceSink* sink = nullptr;  // null: record nothing
  uint64_t stepBudget = 200'000'000;  // loop steps and calls of the whole launch
  double timeLimitSeconds = 0;        // CPU-time limit of the launch, this thread's (0: none)
  const std::atomic<bool>* cancel = nullptr;  // set: the launch stops as out of time ("cancelled")
};

// The most of device printf's output a launch keeps (the rest is counted as cut, not kept).
inline constexpr std::size_t kMaxPrintedBytes = std::size_t(1) << 20;

struct RunResult {
  emu::Report report;                // out-of-bounds accesses and barrier divergence, as the emulator's
  std::optional<Diagnostic> error;   // a run stopped: division by zero, a local array overrun, the budget
  Dim3 stoppedBlock, stoppedThread;  // where it stopped (with `error`)
  bool outOfTime = false;            // stopped by the step budget or the time limit
  std::string printed;               // device printf's output, in the order the threads ran
  bool printedTruncated = false;     // more was printed than the kMaxPrintedBytes kept
};
RunResult runProgram(const RunRequest& request);

// What went wrong in a run, as a teacher says it: at the line, naming block and thread, the
// array, the index and the bound; the barrier that not every thread of a block reached.
Diagnostic describeOutOfBounds(const OutOfBoundsAccess& a);
Diagnostic describeDivergence(const BarrierDivergence& d);

}  // namespace tilescope::interp
