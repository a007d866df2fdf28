// The interpreter's expressions, and its element accesses, which record themselves exactly
// as the built-in kernels' views do (kernels/trace/views_global.h, views_shared.h): same
// recorder, same index, same row length, same bounds, same order of events.
#include "lab/interp/interpreter.h"

#include "lab/interp/arith.h"

namespace tilescope::interp {

void ThreadRun::stopAt(int line, int column, const std::string& message, bool outOfTime) {
  if (!launch_.error) {
    const Dim3 b = blockIdx, t = threadIdx;
    launch_.stoppedBlock = b;
    launch_.stoppedThread = t;
    launch_.outOfTime = outOfTime;
    launch_.error = Diagnostic{line, column,
                               message + " (block (" + std::to_string(b.x) + ", " + std::to_string(b.y) + "), thread (" +
                                   std::to_string(t.x) + ", " + std::to_string(t.y) + "))"};
  }
  launch_.stopped = true;
}
void ThreadRun::stop(const Expr& at, const std::string& message) { stopAt(at.line, at.column, message); }

ThreadRun::Site ThreadRun::siteOf(const Expr& e) {
  if (e.op == ExprOp::Element2) {  // a static 2-D shared array: each subscript checked against its extent
    ArrayInstance& a = arrays_[size_t(e.slot)];
    const int64_t row = eval(e.a).i, col = eval(e.b).i;
    const bool inside = row >= 0 && row < a.rows && col >= 0 && col < a.cols;
    return Site{&a, row * a.cols + col, row * a.cols + col, a.cols, inside, e.line};
  }
  const Value pointer = eval(e.a);
  const int64_t index = eval(e.b).i;
  // A stopped launch's values are placeholders (no array): a site the access then refuses.
  if (stopped()) return Site{&arrays_[0], 0, 0, 0, true, e.line};
  ArrayInstance& a = arrays_[size_t(pointer.array)];
  const int64_t position = pointer.i + index;
  return Site{&a, position, position - a.viewStart, 0, true, e.line};
}

Value ThreadRun::load(const Site& s) {
  if (stopped()) return Value::ofInt(0);
  ArrayInstance& a = *s.array;
  const bool inside = s.position >= 0 && s.position < a.count;
  const void* cell = inside ? static_cast<const char*>(a.storage) + s.position * 4
                            : emu::outOfBoundsAccess(a.name, s.position, a.count, false, s.line, 4);
  Value v;
  v.array = -1;
  float recorded;
  if (a.element == Scalar::Float) {
    v.i = 0;
    v.f = *static_cast<const float*>(cell);
    recorded = v.f;
  } else {
    const int32_t bits = *static_cast<const int32_t*>(cell);
    v = narrow(a.element, a.element == Scalar::UInt ? int64_t(uint32_t(bits)) : int64_t(bits));
    recorded = a.element == Scalar::UInt ? float(v.u) : float(v.i);
  }
  if (a.kind == ArrayKind::Global) recorder_.global(MatrixRole(a.role), false, s.position, recorded, s.line);
  else recorder_.shared(a.traceId, false, s.index, s.rowLength, recorded, s.subscriptsInBounds && inside, s.line);
  return v;
}

void ThreadRun::store(const Site& s, Value v) {
  if (stopped()) return;
  ArrayInstance& a = *s.array;
  const bool inside = s.position >= 0 && s.position < a.count;
  void* cell = inside ? static_cast<char*>(a.storage) + s.position * 4
                      : emu::outOfBoundsAccess(a.name, s.position, a.count, true, s.line, 4);
  float recorded;
  if (a.element == Scalar::Float) {
    *static_cast<float*>(cell) = v.f;
    recorded = v.f;
  } else {
    *static_cast<int32_t*>(cell) = int32_t(v.i);
    recorded = a.element == Scalar::UInt ? float(uint32_t(v.u)) : float(int32_t(v.i));
  }
  if (a.kind == ArrayKind::Global) recorder_.global(MatrixRole(a.role), true, s.position, recorded, s.line);
  else recorder_.shared(a.traceId, true, s.index, s.rowLength, recorded, s.subscriptsInBounds && inside, s.line);
}

// The storage of element `shift` after the site's, or the emulator's scratch cell outside it.
void* ThreadRun::cell(const Site& s, int64_t shift, bool write) {
  ArrayInstance& a = *s.array;
  const int64_t position = s.position + shift;
  if (position >= 0 && position < a.count) return static_cast<char*>(a.storage) + position * 4;
  return emu::outOfBoundsAccess(a.name, position, a.count, write, s.line, 4);
}

// A 128-bit access: four elements, each checked, one event (views.h's VectorRef).
void ThreadRun::loadWide(const Site& s, float out[4]) {
  if (stopped()) {
    for (int k = 0; k < 4; ++k) out[k] = 0.0f;
    return;
  }
  for (int k = 0; k < 4; ++k) out[k] = *static_cast<const float*>(cell(s, k, false));
  recordWide(s, false, out);
}
void ThreadRun::storeWide(const Site& s, const float in[4]) {
  if (stopped()) return;
  for (int k = 0; k < 4; ++k) *static_cast<float*>(cell(s, k, true)) = in[k];
  recordWide(s, true, in);
}
void ThreadRun::recordWide(const Site& s, bool write, const float v[4]) {
  const ArrayInstance& a = *s.array;
  if (a.kind == ArrayKind::Global) return recorder_.global(MatrixRole(a.role), write, s.position, v, 4, s.line);
  const bool inside = s.subscriptsInBounds && s.position >= 0 && s.position < a.count;
  const bool rowFits = s.rowLength == 0 || (s.index % s.rowLength) + 3 < s.rowLength;
  recorder_.shared(a.traceId, write, s.index, s.rowLength, v, 4, inside && rowFits, s.line);
}

void ThreadRun::evalWide(int32_t i, float out[4]) {
  const Expr& e = p_.exprs[size_t(i)];
  switch (e.op) {
    case ExprOp::Local:
      for (int k = 0; k < 4; ++k) out[k] = frame_[e.slot + k].f;
      return;
    case ExprOp::LocalElement: {
      const Value* v = localElement(e);
      for (int k = 0; k < 4; ++k) out[k] = v[k].f;
      return;
    }
    case ExprOp::MakeFloat4:
      for (int k = 0; k < 4; ++k) out[k] = eval(p_.args[size_t(e.argsFirst + k)]).f;
      return;
    case ExprOp::Wide: return loadWide(siteOf(p_.exprs[size_t(e.a)]), out);
    default: for (int k = 0; k < 4; ++k) out[k] = 0.0f;
  }
}

// The value first, then where it goes, as C++17 sequences an assignment.
Value ThreadRun::assignWide(const Expr& e) {
  float v[4];
  evalWide(e.b, v);
  const Expr& target = p_.exprs[size_t(e.a)];
  if (target.op == ExprOp::Wide) {
    storeWide(siteOf(p_.exprs[size_t(target.a)]), v);
  } else {
    Value* slots = target.op == ExprOp::Local ? frame_ + target.slot : localElement(target);
    for (int k = 0; k < 4; ++k) slots[k] = ofFloat(v[k]);
  }
  return Value::ofInt(0);
}

// A local array's element: out of its bounds is a stopped run, never another variable.
Value* ThreadRun::localElement(const Expr& e) {
  const int64_t count = e.op == ExprOp::LocalElement2 ? int64_t(e.rows) * e.cols : e.rows;
  int64_t index;
  if (e.op == ExprOp::LocalElement2) {
    const int64_t row = eval(e.a).i, col = eval(e.b).i;
    if (row < 0 || row >= e.rows || col < 0 || col >= e.cols) {
      stop(e, "index [" + std::to_string(row) + "][" + std::to_string(col) + "] is outside the local array '" +
                  p_.strings[size_t(e.c)] + "' [" + std::to_string(e.rows) + "][" + std::to_string(e.cols) + "]");
      return frame_ + e.slot;  // a slot of its own to finish on, never another variable
    }
    index = row * e.cols + col;
  } else {
    index = eval(e.a).i;
    if (index < 0 || index >= count) {
      stop(e, "index " + std::to_string(index) + " is outside the local array '" + p_.strings[size_t(e.c)] + "' (" +
                  std::to_string(count) + " elements)");
      return frame_ + e.slot;
    }
  }
  return frame_ + e.slot + (e.type == Scalar::Float4 ? 4 * index : index);
}

// a[i] += v, a[i]++: v first, then the element read and written, as the views' operator+=.
Value ThreadRun::compoundElement(const Expr& e) {
  const Value v = eval(e.b);
  const Expr& target = p_.exprs[size_t(e.a)];
  if (isIntegral(e.operand) && (e.arith == ExprOp::Div || e.arith == ExprOp::Mod) && v.i == 0) {
    stop(e, "division by zero");
    return Value::ofInt(0);
  }
  if (target.op == ExprOp::LocalElement || target.op == ExprOp::LocalElement2) {
    Value& x = *localElement(target);
    const Value old = x;
    x = convertValue(arithmetic(e.arith, e.operand, convertValue(x, e.type, e.operand), v), e.operand, e.type);
    return e.post ? old : x;
  }
  const Site s = siteOf(target);
  const Value old = load(s);
  const Value now = convertValue(arithmetic(e.arith, e.operand, convertValue(old, e.type, e.operand), v), e.operand, e.type);
  store(s, now);
  return e.post ? old : now;
}

Value ThreadRun::eval(int32_t i) {
  const Expr& e = p_.exprs[size_t(i)];
  switch (e.op) {
    case ExprOp::Const: return e.imm;
    case ExprOp::Local: return frame_[e.slot];
    case ExprOp::Builtin: return builtins_[e.slot];
    case ExprOp::Cast: return convertValue(eval(e.a), e.operand, e.type);
    case ExprOp::Neg: return negate(e.type, eval(e.a));
    case ExprOp::BitNot: return narrow(e.type, ~eval(e.a).i);
    case ExprOp::LogNot: return narrow(Scalar::Bool, eval(e.a).i == 0);
    case ExprOp::Div:
    case ExprOp::Mod: {
      const Value a = eval(e.a), b = eval(e.b);
      if (isIntegral(e.type) && b.i == 0) {
        stop(e, "division by zero");
        return Value::ofInt(0);
      }
      return arithmetic(e.op, e.type, a, b);
    }
    case ExprOp::Add: case ExprOp::Sub: case ExprOp::Mul: case ExprOp::Shl: case ExprOp::Shr:
    case ExprOp::BitAnd: case ExprOp::BitOr: case ExprOp::BitXor: {
      const Value a = eval(e.a);
      return arithmetic(e.op, e.type, a, eval(e.b));
    }
    case ExprOp::Lt: case ExprOp::Le: case ExprOp::Gt: case ExprOp::Ge: case ExprOp::Eq: case ExprOp::Ne: {
      const Value a = eval(e.a);
      return narrow(Scalar::Bool, compare(e.op, e.operand, a, eval(e.b)));
    }
    case ExprOp::LogAnd: return narrow(Scalar::Bool, eval(e.a).i != 0 && eval(e.b).i != 0);
    case ExprOp::LogOr: return narrow(Scalar::Bool, eval(e.a).i != 0 || eval(e.b).i != 0);
    case ExprOp::Cond: return eval(e.a).i != 0 ? eval(e.b) : eval(e.c);
    case ExprOp::Comma: eval(e.a); return eval(e.b);
    case ExprOp::AssignLocal: return frame_[e.slot] = eval(e.b);
    case ExprOp::CompoundLocal: {
      const Value v = eval(e.b);
      Value& x = frame_[e.slot];
      if (isIntegral(e.operand) && (e.arith == ExprOp::Div || e.arith == ExprOp::Mod) && v.i == 0) {
        stop(e, "division by zero");
        return Value::ofInt(0);
      }
      return x = convertValue(arithmetic(e.arith, e.operand, convertValue(x, e.type, e.operand), v), e.operand, e.type);
    }
    case ExprOp::IncLocal: {
      Value& x = frame_[e.slot];
      const Value old = x;
      x = arithmetic(ExprOp::Add, e.type, x, convertValue(e.imm, Scalar::Long, e.type));
      return e.post ? old : x;
    }
    case ExprOp::Element: case ExprOp::Element2: return load(siteOf(e));
    case ExprOp::LocalElement: case ExprOp::LocalElement2: return *localElement(e);
    case ExprOp::AssignElement: {
      const Value v = eval(e.b);  // the right side first, as C++17 sequences an assignment
      const Expr& target = p_.exprs[size_t(e.a)];
      if (target.op == ExprOp::LocalElement || target.op == ExprOp::LocalElement2) return *localElement(target) = v;
      store(siteOf(target), v);
      return v;
    }
    case ExprOp::CompoundElement: return compoundElement(e);
    case ExprOp::ArrayBase: {
      Value v;
      v.i = 0;
      v.array = e.slot;
      return v;
    }
    case ExprOp::PtrAdd: {
      Value v = eval(e.a);
      v.i += eval(e.b).i;
      return v;
    }
    case ExprOp::Call: return call(e);
    case ExprOp::Math: return math(e);
    case ExprOp::Printf: return printf(e);
    case ExprOp::Sync: sync(e); return Value::ofInt(0);
    case ExprOp::AssignWide: return assignWide(e);
    case ExprOp::Wide: case ExprOp::MakeFloat4: return Value::ofInt(0);  // only read through evalWide
  }
  return Value::ofInt(0);
}

}  // namespace tilescope::interp
