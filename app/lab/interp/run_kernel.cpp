// runProgram: the launch (every thread in the emulator's fibers), and the library a kernel
// may call (math, printf), computed here by the interpreter, never by the student's code.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "lab/interp/arith.h"
#include "lab/interp/interpreter.h"

namespace tilescope::interp {

Value ThreadRun::math(const Expr& e) {
  Value a[3];
  for (int32_t i = 0; i < e.argsCount; ++i) a[i] = eval(p_.args[size_t(e.argsFirst + i)]);
  switch (MathFn(e.slot)) {
    case MathFn::Fmaf: return ofFloat(std::fmaf(a[0].f, a[1].f, a[2].f));
    case MathFn::Fma: return ofDouble(std::fma(a[0].d, a[1].d, a[2].d));
    case MathFn::Sqrtf: return ofFloat(std::sqrt(a[0].f));
    case MathFn::Sqrt: return ofDouble(std::sqrt(a[0].d));
    case MathFn::Rsqrtf: return ofFloat(1.0f / std::sqrt(a[0].f));
    case MathFn::Fabsf: return ofFloat(std::fabs(a[0].f));
    case MathFn::Fabs: return ofDouble(std::fabs(a[0].d));
    case MathFn::Fminf: return ofFloat(std::fmin(a[0].f, a[1].f));
    case MathFn::Fmaxf: return ofFloat(std::fmax(a[0].f, a[1].f));
    case MathFn::Expf: return ofFloat(std::exp(a[0].f));
    case MathFn::Exp: return ofDouble(std::exp(a[0].d));
    case MathFn::Exp2f: return ofFloat(std::exp2(a[0].f));
    case MathFn::Logf: return ofFloat(std::log(a[0].f));
    case MathFn::Log: return ofDouble(std::log(a[0].d));
    case MathFn::Log2f: return ofFloat(std::log2(a[0].f));
    case MathFn::Powf: return ofFloat(std::pow(a[0].f, a[1].f));
    case MathFn::Pow: return ofDouble(std::pow(a[0].d, a[1].d));
    case MathFn::Sinf: return ofFloat(std::sin(a[0].f));
    case MathFn::Cosf: return ofFloat(std::cos(a[0].f));
    case MathFn::Sin: return ofDouble(std::sin(a[0].d));
    case MathFn::Cos: return ofDouble(std::cos(a[0].d));
    case MathFn::Tanhf: return ofFloat(std::tanh(a[0].f));
    case MathFn::Floorf: return ofFloat(std::floor(a[0].f));
    case MathFn::Ceilf: return ofFloat(std::ceil(a[0].f));
    case MathFn::Floor: return ofDouble(std::floor(a[0].d));
    case MathFn::Ceil: return ofDouble(std::ceil(a[0].d));
    case MathFn::Roundf: return ofFloat(std::round(a[0].f));
    case MathFn::Truncf: return ofFloat(std::trunc(a[0].f));
    case MathFn::Fdividef: return ofFloat(a[0].f / a[1].f);
    case MathFn::Min: return compare(ExprOp::Lt, e.type, a[1], a[0]) ? a[1] : a[0];
    case MathFn::Max: return compare(ExprOp::Lt, e.type, a[0], a[1]) ? a[1] : a[0];
    case MathFn::Abs: return compare(ExprOp::Lt, e.type, a[0], convertValue(Value::ofInt(0), Scalar::Long, e.type))
                                 ? negate(e.type, a[0])
                                 : a[0];
    case MathFn::CeilDiv:  // kernels/ceil_div.h: (extent + tile - 1) / tile, in int
      if (a[1].i == 0) {
        stop(e, "division by zero (ceilDiv by 0)");
        return Value::ofInt(0);
      }
      return arithmetic(ExprOp::Div, Scalar::Int, arithmetic(ExprOp::Sub, Scalar::Int, arithmetic(ExprOp::Add, Scalar::Int, a[0], a[1]), Value::ofInt(1)), a[1]);
  }
  return Value::ofInt(0);
}

// Device printf: each conversion formatted from its argument's value, into the launch's output;
// its value is CUDA's, the number of arguments after the format.
Value ThreadRun::printf(const Expr& e) {
  const std::string& format = p_.strings[size_t(e.slot)];
  std::string out;
  int32_t next = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    std::size_t end = i + 1;
    while (end < format.size() && std::string_view("-+ #0123456789.lhz").find(format[end]) != std::string_view::npos) ++end;
    if (end >= format.size()) break;
    const char conversion = format[end];
    if (conversion == '%') {
      out += '%';
      i = end;
      continue;
    }
    std::string spec;
    for (std::size_t k = i; k < end; ++k)
      if (format[k] != 'l' && format[k] != 'h' && format[k] != 'z') spec += format[k];
    if (next >= e.argsCount) {
      stop(e, "printf has fewer values than its format asks for");
      return Value::ofInt(0);
    }
    const int32_t argument = p_.args[size_t(e.argsFirst + next++)];
    const Scalar type = p_.exprs[size_t(argument)].type;
    const Value v = eval(argument);
    char buffer[128];
    if (std::string_view("fFeEgGaA").find(conversion) != std::string_view::npos) {
      const double d = isFloating(type) ? (type == Scalar::Float ? double(v.f) : v.d) : double(v.i);
      std::snprintf(buffer, sizeof buffer, (spec + conversion).c_str(), d);
    } else if (std::string_view("diuxXoc").find(conversion) != std::string_view::npos) {
      const long long n = isFloating(type) ? (long long)(type == Scalar::Float ? v.f : v.d) : (long long)v.i;
      std::snprintf(buffer, sizeof buffer, (spec + "ll" + conversion).c_str(), n);
      if (conversion == 'c') std::snprintf(buffer, sizeof buffer, "%c", char(n));
    } else {
      stop(e, std::string("printf's %") + conversion + " is outside the lab's CUDA subset");
      return Value::ofInt(0);
    }
    out += buffer;
    i = end;
  }
  if (stopped()) return Value::ofInt(0);  // an argument stopped the launch: nothing printed
  const std::size_t room = kMaxPrintedBytes - std::min(launch_.printed.size(), kMaxPrintedBytes);
  launch_.printed.append(out, 0, std::min(room, out.size()));
  if (out.size() > room) launch_.printedTruncated = true;
  // CUDA's device printf returns the number of arguments it parsed, not the characters it wrote
  // (C's): a kernel that tests the return value takes the path it takes on a GPU.
  return Value::ofInt(int64_t(e.argsCount));
}

namespace {
constexpr std::size_t kMaxStackPoolBytes = std::size_t(256) << 20;
}  // namespace

double cpuSeconds() {
#if defined(__EMSCRIPTEN__)
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#else
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
#endif
}

RunResult runProgram(const RunRequest& request) {
  RunResult result;
  const Program& p = *request.program;
  LaunchState launch{p, request, {}, 0, false, std::nullopt, {}, {}, {}, false};
  if (request.timeLimitSeconds > 0) launch.deadlineCpuSeconds = cpuSeconds() + request.timeLimitSeconds;
  for (const ArrayInfo& info : p.arrays) {
    ArrayInstance a;
    a.element = info.element;
    a.kind = info.kind;
    a.rows = info.rows;
    a.cols = info.cols;
    a.traceId = info.traceId;
    a.name = info.name.c_str();
    if (info.kind == ArrayKind::Global) {
      a.role = info.role;
      a.storage = request.matrices[info.role];
      a.count = request.counts[info.role];
    }
    launch.arrays.push_back(a);
  }
  if (request.arguments.size() != p.functions[0].parameters.size()) {
    result.error = Diagnostic{p.functions[0].line, 0, "the launch gives " + std::to_string(request.arguments.size()) +
                                                          " arguments, the kernel takes " +
                                                          std::to_string(p.functions[0].parameters.size())};
    return result;
  }
  const std::size_t threadsPerBlock = std::size_t(request.block.x) * request.block.y * request.block.z;
  launch.stackSlots = stackSlotsFor(p);
  // Every thread's frames are reserved up front, for the deepest calls allowed: a file whose
  // local arrays would need more than the budget is refused here, before anything is allocated.
  const double stackBytes = double(threadsPerBlock) * double(launch.stackSlots) * sizeof(Value);
  if (stackBytes > double(kMaxStackPoolBytes)) {
    result.error = Diagnostic{p.functions[0].line, 0,
                              "the local variables of a block of " + std::to_string(threadsPerBlock) +
                                  " threads, with calls nested as deep as the lab allows, take " +
                                  std::to_string(int64_t(stackBytes / (1 << 20))) + " MiB; the lab allows " +
                                  std::to_string(kMaxStackPoolBytes >> 20) + " MiB: use smaller local arrays"};
    return result;
  }
  launch.stackPool.resize(threadsPerBlock * launch.stackSlots);
  launch.arrayPool.resize(threadsPerBlock * launch.arrays.size());
  const TraceSink sink = request.sink ? *request.sink : TraceSink{};
  auto thread = [&] {
    if (launch.stopped) return;
    Recorder recorder(sink);
    ThreadRun(launch, recorder).runKernel();
  };
  emu::runGrid(request.grid, request.block, request.dynamicSharedBytes, emu::ThreadBody(thread), result.report);
  if (launch.error) result.report.divergences.clear();  // threads left at a barrier by the stop itself
  result.error = launch.error;
  result.stoppedBlock = launch.stoppedBlock;
  result.stoppedThread = launch.stoppedThread;
  result.outOfTime = launch.outOfTime;
  result.printed = std::move(launch.printed);
  result.printedTruncated = launch.printedTruncated;
  return result;
}

}  // namespace tilescope::interp
