// The interpreter's inside: one emulated thread running a Program. Included only by the
// interpreter's own translation units: it brings in the emulator's CUDA surface (threadIdx
// and the other names as macros) for the trace's Recorder, which the interpreter shares with
// the built-in kernels, so both record the same events the same way.
#pragma once
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/portable.h"
#include "kernels/trace/views.h"
#include "lab/interp/interp.h"

namespace tilescope::interp {

// One array as a thread reaches it: the matrices, the block's shared arrays, the thread's views.
struct ArrayInstance {
  void* storage = nullptr;
  Scalar element = Scalar::Float;
  int64_t count = 0;
  int32_t rows = 1, cols = 0;
  ArrayKind kind = ArrayKind::Global;
  int32_t role = 3;
  int32_t traceId = -1;
  int64_t viewStart = 0;  // an alias: where its elements start counting in the storage
  const char* name = "";
};

// The CPU time this OS thread has used, in seconds (the page's: its clock, having no other).
double cpuSeconds();

// What every thread of a launch shares. The emulator runs one fiber at a time on one OS
// thread, so no lock is needed.
struct LaunchState {
  const Program& program;
  const RunRequest& request;
  std::vector<ArrayInstance> arrays;  // the table every thread starts from
  uint64_t steps = 0;  // loop steps and calls, against the request's step budget
  bool stopped = false;
  std::optional<Diagnostic> error;
  std::string printed;
  Dim3 stoppedBlock, stoppedThread;
  bool outOfTime = false;
  bool printedTruncated = false;  // printed holds the first kMaxPrintedBytes; more was printed
  // The request's time limit as this thread's CPU time (cpuSeconds): a grader running many
  // files on few cores slows a launch without stopping it; an endless loop still stops.
  double deadlineCpuSeconds = std::numeric_limits<double>::infinity();
  // Each thread of the running block: its frames and its arrays, owned here, not by the thread,
  // so a thread abandoned at a barrier (never resumed, never unwound) holds nothing of its own.
  std::size_t stackSlots = 0;
  std::vector<Value> stackPool{};
  std::vector<ArrayInstance> arrayPool{};
  uint64_t statements = 0;  // statements run: the clock is read every few thousand
};

// How a statement ends. Stopped: the launch stopped (a run-time mistake, the step budget, the
// clock), and it unwinds the thread as Return does, without a C++ exception: the page runs
// threads in asyncify fibers, which cannot unwind a throw, and is built without exceptions.
// After a stop every access, barrier, printf and call returns at once, so nothing is recorded
// after the event that stopped the launch.
enum class Flow : uint8_t { Next, Break, Continue, Return, Stopped };

// Frame slots a thread needs: the kernel's and room for the deepest calls.
std::size_t stackSlotsFor(const Program& p);

class ThreadRun {
 public:
  ThreadRun(LaunchState& launch, Recorder& recorder);
  void runKernel();

 private:
  Value eval(int32_t e);
  Value compoundElement(const Expr& e);
  void evalWide(int32_t e, float out[4]);
  Value assignWide(const Expr& e);
  Flow exec(int32_t s);
  Flow execStatement(const Stmt& s);
  Flow execBlock(const Stmt& s, int32_t from);
  Flow execLoop(const Stmt& s);
  Flow execLoopSteps(const Stmt& s);
  Value call(const Expr& e);
  Value math(const Expr& e);
  Value printf(const Expr& e);
  void sync(const Expr& e);
  void declareShared(const Stmt& s);
  void declareAlias(const Stmt& s);

  // Element access, recorded as the views record it.
  struct Site {
    ArrayInstance* array;
    int64_t position;  // in the storage
    int64_t index;     // as the trace counts it (from the view's start)
    int32_t rowLength;
    bool subscriptsInBounds;
    int32_t line;
  };
  Site siteOf(const Expr& e);
  Value* localElement(const Expr& e);
  Value load(const Site& s);
  void store(const Site& s, Value v);
  void loadWide(const Site& s, float out[4]);
  void storeWide(const Site& s, const float in[4]);
  void* cell(const Site& s, int64_t shift, bool write);
  void recordWide(const Site& s, bool write, const float v[4]);

  // A stop is recorded (the first one of the launch is the one told) and the caller returns:
  // launch_.stopped is checked before every side effect and after every statement.
  void stop(const Expr& at, const std::string& message);
  void stopAt(int line, int column, const std::string& message, bool outOfTime = false);
  bool stopped() const { return launch_.stopped; }
  void countStep(int line);
  void checkClock(int line);

  LaunchState& launch_;
  const Program& p_;
  Recorder& recorder_;
  ArrayInstance* arrays_;  // this thread's share of LaunchState::arrayPool
  Value* stack_;           // its frames (LaunchState::stackPool)
  std::size_t stackSize_ = 0;
  Value* frame_ = nullptr;
  std::size_t top_ = 0;  // first free slot of stack_
  Value builtins_[12];
  Value returned_{};
  const char* stackStart_ = nullptr;  // where this thread's native recursion began, on its fiber
  int32_t loopLine_ = 0;  // the innermost running loop's line: where a time-out says it was spinning
};

}  // namespace tilescope::interp
