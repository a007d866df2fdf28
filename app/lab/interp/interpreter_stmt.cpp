// The interpreter's statements, calls, math, printf and barrier.
#include <algorithm>
#include <cstdio>

#include "lab/interp/arith.h"
#include "lab/interp/interpreter.h"

namespace tilescope::interp {

namespace {
constexpr std::size_t kMaxCallDepth = 24;
constexpr std::size_t kMaxNativeStackBytes = 24 * 1024;  // of the fiber's 64 KiB, for calls
// Room for the kernel's frame and kMaxCallDepth frames of its largest __device__ function.
}  // namespace

std::size_t stackSlotsFor(const Program& p) {
  std::size_t largest = 0;
  for (std::size_t f = 1; f < p.functions.size(); ++f) largest = std::max(largest, std::size_t(p.functions[f].frameSlots));
  return std::size_t(p.functions[0].frameSlots) + kMaxCallDepth * largest + 1;
}

ThreadRun::ThreadRun(LaunchState& launch, Recorder& recorder)
    : launch_(launch), p_(launch.program), recorder_(recorder) {
  const std::size_t thread = threadIdx.x + std::size_t(blockDim.x) * (threadIdx.y + std::size_t(blockDim.y) * threadIdx.z);
  stackSize_ = launch.stackSlots;
  stack_ = launch.stackPool.data() + thread * stackSize_;
  arrays_ = launch.arrayPool.data() + thread * launch.arrays.size();
  std::copy(launch.arrays.begin(), launch.arrays.end(), arrays_);
  const Dim3 coords[4] = {threadIdx, blockIdx, blockDim, gridDim};
  for (int c = 0; c < 4; ++c) {
    builtins_[c * 3] = narrow(Scalar::UInt, coords[c].x);
    builtins_[c * 3 + 1] = narrow(Scalar::UInt, coords[c].y);
    builtins_[c * 3 + 2] = narrow(Scalar::UInt, coords[c].z);
  }
}

void ThreadRun::countStep(int line) {
  if (++launch_.steps > launch_.request.stepBudget)
    return stopAt(line, 0,
                  "the launch ran " + std::to_string(launch_.request.stepBudget) +
                      " loop steps and calls without finishing: is this loop endless?",
                  true);
  if ((launch_.steps & 0xffff) == 0) checkClock(line);
}

// The cancel flag and the deadline. Read every 65 536 loop steps and every 4 096 statements:
// a loop whose body is thousands of statements long is stopped on time too.
void ThreadRun::checkClock(int line) {
  if (launch_.request.cancel && launch_.request.cancel->load()) return stopAt(line, 0, "cancelled", true);
  if (cpuSeconds() > launch_.deadlineCpuSeconds) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", launch_.request.timeLimitSeconds);
    stopAt(line, 0, "still running after " + std::string(limit) + " s of CPU time (an endless loop?)", true);
  }
}

void ThreadRun::runKernel() {
  const char here = 0;
  stackStart_ = &here;
  const Function& kernel = p_.functions[0];
  frame_ = stack_;
  top_ = std::size_t(kernel.frameSlots);
  for (std::size_t i = 0; i < kernel.parameters.size(); ++i) {
    const Argument& a = launch_.request.arguments[i];
    if (a.isMatrix) {
      frame_[i].i = 0;
      frame_[i].array = a.role;
    } else {
      frame_[i] = isFloating(kernel.parameters[i]) ? convertValue(ofDouble(a.real), Scalar::Double, kernel.parameters[i])
                                                   : narrow(kernel.parameters[i], a.integer);
    }
  }
  exec(kernel.body);
}

Flow ThreadRun::execBlock(const Stmt& s, int32_t from) {
  for (int32_t i = from; i < s.count; ++i)
    if (const Flow f = exec(p_.children[size_t(s.first + i)]); f != Flow::Next) return f;
  return Flow::Next;
}

// A loop, its line kept while it runs: a time-out names the loop the thread was spinning in,
// not whichever statement of its body the clock was read at.
Flow ThreadRun::execLoop(const Stmt& s) {
  const int32_t outer = loopLine_;
  loopLine_ = s.line;
  const Flow f = execLoopSteps(s);
  loopLine_ = outer;
  return f;
}

Flow ThreadRun::execLoopSteps(const Stmt& s) {
  if (s.op == StmtOp::For && s.init >= 0 && exec(s.init) == Flow::Stopped) return Flow::Stopped;
  const bool testFirst = s.op != StmtOp::DoWhile;
  for (;;) {
    countStep(s.line);
    if (stopped()) return Flow::Stopped;
    if (testFirst && s.expr >= 0 && eval(s.expr).i == 0) return Flow::Next;
    const Flow f = exec(s.body);
    if (f == Flow::Break) return Flow::Next;
    if (f == Flow::Return || f == Flow::Stopped) return f;
    if (s.update >= 0) eval(s.update);
    if (!testFirst && eval(s.expr).i == 0) return Flow::Next;
  }
}

// A statement, unless the launch has stopped; Stopped when it stops during the statement.
Flow ThreadRun::exec(int32_t i) {
  if (stopped()) return Flow::Stopped;
  const Stmt& s = p_.stmts[size_t(i)];
  if ((++launch_.statements & 0xfff) == 0) checkClock(loopLine_ > 0 ? loopLine_ : s.line);
  const Flow f = execStatement(s);
  return stopped() ? Flow::Stopped : f;
}

Flow ThreadRun::execStatement(const Stmt& s) {
  switch (s.op) {
    case StmtOp::Nop: return Flow::Next;
    case StmtOp::Expr: eval(s.expr); return Flow::Next;
    case StmtOp::Block: return execBlock(s, 0);
    case StmtOp::If:
      if (eval(s.expr).i != 0) return exec(s.body);
      return s.otherwise >= 0 ? exec(s.otherwise) : Flow::Next;
    case StmtOp::For: case StmtOp::While: case StmtOp::DoWhile: return execLoop(s);
    case StmtOp::Break: return Flow::Break;
    case StmtOp::Continue: return Flow::Continue;
    case StmtOp::Return:
      if (s.expr >= 0) returned_ = eval(s.expr);
      return Flow::Return;
    case StmtOp::Switch: {
      const int64_t v = eval(s.expr).i;
      int32_t start = -1, otherwise = -1;  // the matching case, else default
      for (int32_t c = 0; c < s.count && start < 0; ++c) {
        const SwitchCase& k = p_.cases[size_t(s.first + c)];
        if (k.isDefault) otherwise = k.statement;
        else if (k.value == v) start = k.statement;
      }
      if (start < 0) start = otherwise;
      if (start < 0) return Flow::Next;
      const Flow f = execBlock(p_.stmts[size_t(s.body)], start);
      return f == Flow::Break ? Flow::Next : f;
    }
    case StmtOp::DeclShared: declareShared(s); return Flow::Next;
    case StmtOp::DeclAlias: declareAlias(s); return Flow::Next;
    case StmtOp::DeclLocalArray:
      for (int32_t k = 0; k < s.size; ++k) frame_[s.slot + k] = Value::ofInt(0);
      return Flow::Next;
  }
  return Flow::Next;
}

// The block's storage for a __shared__ declaration, as the built-in kernels get theirs: the
// same for every thread of the block, fresh and NaN-filled for each block.
void ThreadRun::declareShared(const Stmt& s) {
  const ArrayInfo& info = p_.arrays[size_t(s.slot)];
  ArrayInstance& a = arrays_[size_t(s.slot)];
  if (info.kind == ArrayKind::ExternShared) {
    a.storage = emu::blockDynamicShared();
    a.count = int64_t(emu::blockDynamicSharedBytes() / 4);
  } else {
    a.storage = emu::blockSharedStorage(info.traceId, std::size_t(info.count) * 4, 4);  // alignof(float), as the built-in kernels ask
    a.count = info.count;
  }
}

// `float* Nds = Mds_Nds + Mds_sz;`: a view of its own over the same storage.
void ThreadRun::declareAlias(const Stmt& s) {
  const Value pointer = eval(s.expr);
  if (stopped()) return;  // a placeholder value, no array
  ArrayInstance& alias = arrays_[size_t(s.slot)];
  const ArrayInfo& info = p_.arrays[size_t(s.slot)];
  alias = arrays_[size_t(pointer.array)];
  alias.kind = ArrayKind::Alias;
  alias.traceId = info.traceId;
  alias.name = info.name.c_str();
  alias.viewStart = pointer.i;
  alias.rows = 1;
  alias.cols = 0;
  Value v = pointer;
  v.array = s.slot;
  frame_[s.init] = v;
}

Value ThreadRun::call(const Expr& e) {
  countStep(e.line);
  const Function& f = p_.functions[size_t(e.slot)];
  // The interpreter recurses on the thread's fiber (64 KiB): calls stop well before its end.
  const char here = 0;
  const bool deepNatively = stackStart_ - &here > std::ptrdiff_t(kMaxNativeStackBytes);
  if (top_ + std::size_t(f.frameSlots) > stackSize_ || deepNatively)
    stop(e, "the calls are nested too deeply (endless recursion?)");
  if (stopped()) return Value::ofInt(0);
  Value* callee = stack_ + top_;
  for (int32_t i = 0; i < e.argsCount; ++i) callee[i] = eval(p_.args[size_t(e.argsFirst + i)]);
  if (stopped()) return Value::ofInt(0);
  Value* savedFrame = frame_;
  const std::size_t savedTop = top_;
  frame_ = callee;
  top_ += std::size_t(f.frameSlots);
  returned_ = Value::ofInt(0);
  exec(f.body);
  frame_ = savedFrame;
  top_ = savedTop;
  return returned_;
}

// A thread resumed after the launch stopped returns from here; its statement sees the stop.
void ThreadRun::sync(const Expr& e) {
  if (stopped()) return;
  recorder_.barrier(e.line);
  emu::syncThreads(e.line);
}

}  // namespace tilescope::interp
