// The subset's arithmetic on Values, one definition for the interpreter and for constant
// folding. Float operations are done in float, as the kernels' host build does them (no FMA
// contraction: x86-64 without -march has no FMA instruction, and the lab has none unless the
// source calls fmaf); integers wrap at their own width, as the GPU's do.
#pragma once
#include <cmath>
#include <cstdint>

#include "lab/interp/program.h"

namespace tilescope::interp {

// An integer result of `type` brought back to its width (sign- or zero-extended).
inline Value narrow(Scalar type, int64_t v) {
  Value r;
  r.array = -1;
  switch (type) {
    case Scalar::Bool: r.i = v != 0; break;
    case Scalar::Int: r.i = int64_t(int32_t(uint32_t(uint64_t(v)))); break;
    case Scalar::UInt: r.i = int64_t(uint64_t(uint32_t(uint64_t(v)))); break;
    default: r.i = v; break;
  }
  return r;
}

inline Value ofFloat(float f) {
  Value r;
  r.array = -1;
  r.i = 0;
  r.f = f;
  return r;
}
inline Value ofDouble(double d) {
  Value r;
  r.array = -1;
  r.d = d;
  return r;
}

inline bool isUnsigned(Scalar s) { return s == Scalar::UInt || s == Scalar::ULong || s == Scalar::Bool; }

// A floating value as an integer of type `to`, as the GPU's cvt.rzi converts: toward zero,
// saturating at the type's range, NaN to 0. (C leaves an out-of-range conversion undefined,
// and so would the grader's own C++ if it converted directly.)
inline int64_t gpuToInteger(double v, Scalar to) {
  if (std::isnan(v)) return 0;
  const bool wide = to == Scalar::Long || to == Scalar::ULong;
  if (isUnsigned(to)) {
    if (v <= 0) return 0;
    if (v >= (wide ? 18446744073709551616.0 : 4294967296.0)) return wide ? int64_t(~uint64_t(0)) : int64_t(0xffffffffu);
    return int64_t(uint64_t(v));
  }
  const double top = wide ? 9223372036854775808.0 : 2147483648.0;
  if (v >= top) return wide ? INT64_MAX : INT32_MAX;
  if (v <= -top) return wide ? INT64_MIN : INT32_MIN;
  return int64_t(v);
}

// A value of type `from` as type `to` (C's conversions; float to integer truncates).
inline Value convertValue(Value v, Scalar from, Scalar to) {
  if (from == to) return v;
  if (to == Scalar::Float) {
    if (from == Scalar::Double) return ofFloat(float(v.d));
    return ofFloat(isUnsigned(from) ? float(v.u) : float(v.i));
  }
  if (to == Scalar::Double) {
    if (from == Scalar::Float) return ofDouble(double(v.f));
    return ofDouble(isUnsigned(from) ? double(v.u) : double(v.i));
  }
  if (to == Scalar::Bool) {
    if (from == Scalar::Float) return narrow(to, v.f != 0.0f);
    if (from == Scalar::Double) return narrow(to, v.d != 0.0);
    return narrow(to, v.i != 0);
  }
  if (from == Scalar::Float) return narrow(to, gpuToInteger(double(v.f), to));
  if (from == Scalar::Double) return narrow(to, gpuToInteger(v.d, to));
  return narrow(to, v.i);
}

inline bool truth(Scalar type, Value v) {
  if (type == Scalar::Float) return v.f != 0.0f;
  if (type == Scalar::Double) return v.d != 0.0;
  return v.i != 0;
}

// a op b for the arithmetic and bitwise ops, both already of `type`. Division by zero of
// integers is the caller's to refuse (it checks before calling).
inline Value arithmetic(ExprOp op, Scalar type, Value a, Value b) {
  if (type == Scalar::Float) {
    switch (op) {
      case ExprOp::Add: return ofFloat(a.f + b.f);
      case ExprOp::Sub: return ofFloat(a.f - b.f);
      case ExprOp::Mul: return ofFloat(a.f * b.f);
      case ExprOp::Div: return ofFloat(a.f / b.f);
      default: return ofFloat(0);
    }
  }
  if (type == Scalar::Double) {
    switch (op) {
      case ExprOp::Add: return ofDouble(a.d + b.d);
      case ExprOp::Sub: return ofDouble(a.d - b.d);
      case ExprOp::Mul: return ofDouble(a.d * b.d);
      case ExprOp::Div: return ofDouble(a.d / b.d);
      default: return ofDouble(0);
    }
  }
  const bool u = isUnsigned(type);
  const uint64_t x = a.u, y = b.u;
  switch (op) {
    case ExprOp::Add: return narrow(type, int64_t(x + y));
    case ExprOp::Sub: return narrow(type, int64_t(x - y));
    case ExprOp::Mul: return narrow(type, int64_t(x * y));
    case ExprOp::Div:
      if (!u && a.i == INT64_MIN && b.i == -1) return narrow(type, a.i);
      return narrow(type, u ? int64_t(x / y) : a.i / b.i);
    case ExprOp::Mod:
      if (!u && b.i == -1) return narrow(type, 0);
      return narrow(type, u ? int64_t(x % y) : a.i % b.i);
    // The GPU's shl and shr clamp the count at the width: all bits out (a signed right shift
    // keeps the sign); C leaves such counts undefined, the lab answers what the GPU does.
    case ExprOp::Shl: return narrow(type, y > 63 ? 0 : int64_t(x << y));
    case ExprOp::Shr: return narrow(type, u ? (y > 63 ? 0 : int64_t(x >> y)) : (a.i >> (y > 63 ? 63 : y)));
    case ExprOp::BitAnd: return narrow(type, int64_t(x & y));
    case ExprOp::BitOr: return narrow(type, int64_t(x | y));
    case ExprOp::BitXor: return narrow(type, int64_t(x ^ y));
    default: return narrow(type, 0);
  }
}

inline bool compare(ExprOp op, Scalar type, Value a, Value b) {
#define TILESCOPE_COMPARE(x, y) \
  switch (op) {                 \
    case ExprOp::Lt: return x < y; \
    case ExprOp::Le: return x <= y; \
    case ExprOp::Gt: return x > y; \
    case ExprOp::Ge: return x >= y; \
    case ExprOp::Eq: return x == y; \
    default: return x != y;     \
  }
  if (type == Scalar::Float) TILESCOPE_COMPARE(a.f, b.f)
  if (type == Scalar::Double) TILESCOPE_COMPARE(a.d, b.d)
  if (isUnsigned(type)) TILESCOPE_COMPARE(a.u, b.u)
  if (type == Scalar::Pointer) TILESCOPE_COMPARE(a.i, b.i)
  TILESCOPE_COMPARE(a.i, b.i)
#undef TILESCOPE_COMPARE
}

inline Value negate(Scalar type, Value a) {
  if (type == Scalar::Float) return ofFloat(-a.f);
  if (type == Scalar::Double) return ofDouble(-a.d);
  return narrow(type, int64_t(0 - a.u));
}

}  // namespace tilescope::interp
