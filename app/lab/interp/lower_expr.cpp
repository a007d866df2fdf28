// Lowering, part two: expressions, each with its type, C's conversions made explicit.
#include <cctype>
#include <cstdlib>

#include "lab/interp/arith.h"
#include "lab/interp/lower.h"

namespace tilescope::interp {

namespace {
ExprOp binaryOp(std::string_view t) {
  static const std::pair<const char*, ExprOp> ops[] = {
      {"+", ExprOp::Add}, {"-", ExprOp::Sub}, {"*", ExprOp::Mul}, {"/", ExprOp::Div}, {"%", ExprOp::Mod},
      {"<<", ExprOp::Shl}, {">>", ExprOp::Shr}, {"&", ExprOp::BitAnd}, {"|", ExprOp::BitOr}, {"^", ExprOp::BitXor},
      {"<", ExprOp::Lt}, {"<=", ExprOp::Le}, {">", ExprOp::Gt}, {">=", ExprOp::Ge}, {"==", ExprOp::Eq},
      {"!=", ExprOp::Ne}, {"&&", ExprOp::LogAnd}, {"||", ExprOp::LogOr}};
  for (auto [text, op] : ops)
    if (t == text) return op;
  return ExprOp::Const;
}
}  // namespace

Expr Lowerer::make(ExprOp op, Scalar type, TSNode at) const {
  Expr e{};
  e.op = op;
  e.type = type;
  e.imm.i = 0;
  e.imm.array = -1;
  e.line = unit_.line(at);
  e.column = unit_.column(at);
  return e;
}

int32_t Lowerer::constant(Scalar type, int64_t v, TSNode at) {
  Expr e = make(ExprOp::Const, type, at);
  e.imm = narrow(type, v);
  return add(e);
}

int32_t Lowerer::convert(int32_t e, Scalar to) {
  const Expr& x = p_.exprs[size_t(e)];
  if (x.type == to) return e;
  if (x.type == Scalar::Void) return failAt(x.line, x.column, "this expression has no value");
  if (x.type == Scalar::Float4 || to == Scalar::Float4)
    return failAt(x.line, x.column,
                  "a float4 is made with make_float4(...) or read with *reinterpret_cast<float4*>(&a[i]), "
                  "and its parts are .x, .y, .z and .w");
  if (x.type == Scalar::Pointer || to == Scalar::Pointer)
    return failAt(x.line, x.column, "a pointer cannot be used as a number here, nor a number as a pointer");
  if (x.op == ExprOp::Const) {
    Expr c = x;
    c.imm = convertValue(x.imm, x.type, to);
    c.type = to;
    return add(c);
  }
  Expr c = x;
  c.op = ExprOp::Cast;
  c.type = to;
  c.operand = x.type;
  c.a = e;
  return add(c);
}

int32_t Lowerer::condition(TSNode n) { return convert(expr(n), Scalar::Bool); }

// Each level of an expression is a level of the interpreter's recursion on a fiber's stack.
int32_t Lowerer::expr(TSNode n) {
  constexpr int32_t kMaxNesting = 64;
  if (failed()) return placeholder();  // the first mistake is told; nothing after it is lowered
  if (exprDepth_ >= kMaxNesting)
    return fail(n, "this expression is nested more than " + std::to_string(kMaxNesting) + " levels deep: split it");
  ++exprDepth_;
  const int32_t e = exprAt(n);
  --exprDepth_;
  return e;
}

int32_t Lowerer::exprAt(TSNode n) {
  const std::string_view t = typeOf(n);
  if (t == "number_literal") return number(n);
  if (t == "true" || t == "false") return constant(Scalar::Bool, t == "true", n);
  if (t == "identifier") return identifier(n);
  if (t == "parenthesized_expression") return expr(ts_node_named_child(n, 0));
  if (t == "binary_expression") return binary(n);
  if (t == "assignment_expression") return assignment(n);
  if (t == "update_expression") return update(n);
  if (t == "subscript_expression") return subscript(n);
  if (t == "call_expression") return call(n);
  if (t == "field_expression") return fieldExpression(n);
  if (t == "cast_expression") return castTo(field(n, "type"), field(n, "value"), n);
  if (t == "pointer_expression") return pointerExpression(n);
  if (t == "conditional_expression") {
    const int32_t c = condition(field(n, "condition"));
    int32_t a = expr(field(n, "consequence")), b = expr(field(n, "alternative"));
    const Scalar ta = p_.exprs[size_t(a)].type, tb = p_.exprs[size_t(b)].type;
    const Scalar type = ta == tb ? ta : usualArithmetic(ta, tb);
    Expr e = make(ExprOp::Cond, type, n);
    e.a = c;
    e.b = convert(a, type);
    e.c = convert(b, type);
    if (type == Scalar::Pointer) e.operand = p_.exprs[size_t(a)].operand;
    return add(e);
  }
  if (t == "comma_expression") {
    const int32_t a = expr(field(n, "left")), b = expr(field(n, "right"));
    Expr e = make(ExprOp::Comma, p_.exprs[size_t(b)].type, n);
    e.a = a;
    e.b = b;
    return add(e);
  }
  if (t == "unary_expression") {
    const std::string_view op = unit_.text(field(n, "operator"));
    int32_t a = expr(field(n, "argument"));
    const Scalar type = promote(p_.exprs[size_t(a)].type);
    if (op == "!") {
      Expr e = make(ExprOp::LogNot, Scalar::Bool, n);
      e.a = convert(a, Scalar::Bool);
      return add(e);
    }
    if (op == "+") return convert(a, type);
    if (op == "~" && !isIntegral(type)) return fail(n, "'~' needs an integer");
    Expr e = make(op == "-" ? ExprOp::Neg : ExprOp::BitNot, type, n);
    e.a = convert(a, type);
    if (p_.exprs[size_t(e.a)].op == ExprOp::Const && e.op == ExprOp::Neg) {
      return add([&] { Expr c = p_.exprs[size_t(e.a)]; c.imm = negate(type, c.imm); return c; }());
    }
    return add(e);
  }
  if (t == "sizeof_expression") {
    TSNode ty = field(n, "type");
    Scalar s = ts_node_is_null(ty) ? p_.exprs[size_t(expr(field(n, "value")))].type : declaredType(ty).scalar;
    const int64_t bytes = s == Scalar::Double || s == Scalar::Long || s == Scalar::ULong || s == Scalar::Pointer ? 8
                          : s == Scalar::Bool                                                                    ? 1
                                                                                                                 : 4;
    return constant(Scalar::ULong, bytes, n);
  }
  if (t == "string_literal") return fail(n, "a string is only printf's first argument in the lab's CUDA subset");
  if (t == "null" || t == "nullptr") return fail(n, "null pointers are outside the lab's CUDA subset");
  return fail(n, outsideSubset(t) + " are outside the lab's CUDA subset");
}

int32_t Lowerer::number(TSNode n) {
  std::string text(unit_.text(n));
  std::erase(text, '\'');
  const bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const bool floating = !hex && text.find_first_of(".eE") != std::string::npos;
  if (floating) {
    const bool isFloat = text.back() == 'f' || text.back() == 'F';
    if (isFloat) text.pop_back();
    Expr e = make(ExprOp::Const, isFloat ? Scalar::Float : Scalar::Double, n);
    e.imm = isFloat ? ofFloat(std::strtof(text.c_str(), nullptr)) : ofDouble(std::strtod(text.c_str(), nullptr));
    return add(e);
  }
  bool isUnsignedLiteral = false;
  int longs = 0;
  while (!text.empty() && std::string_view("uUlL").find(text.back()) != std::string_view::npos) {
    if (text.back() == 'u' || text.back() == 'U') isUnsignedLiteral = true;
    else ++longs;
    text.pop_back();
  }
  const unsigned long long v = std::strtoull(text.c_str(), nullptr, 0);
  Scalar type = isUnsignedLiteral ? Scalar::UInt : Scalar::Int;
  if (longs > 0 || v > 0xffffffffull || (!isUnsignedLiteral && !hex && v > 0x7fffffffull))
    type = isUnsignedLiteral ? Scalar::ULong : Scalar::Long;
  else if (!isUnsignedLiteral && hex && v > 0x7fffffffull)
    type = Scalar::UInt;
  return constant(type, int64_t(v), n);
}

int32_t Lowerer::identifier(TSNode n) {
  const std::string name(unit_.text(n));
  const Symbol* s = find(name);
  if (!s) {
    if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim")
      return fail(n, "'" + name + "' has three coordinates: write " + name + ".x, .y or .z");
    return undeclared(n, name);
  }
  switch (s->kind) {
    case Symbol::Constant: return constant(s->type, s->constant, n);
    case Symbol::Variable: {
      Expr e = make(ExprOp::Local, s->type, n);
      e.slot = s->slot;
      e.operand = s->pointee;
      return add(e);
    }
    case Symbol::NamedArray: {
      if (s->cols > 0) return fail(n, "the two-dimensional array '" + name + "' needs both of its indices");
      Expr e = make(ExprOp::ArrayBase, Scalar::Pointer, n);
      e.slot = s->array;
      e.operand = s->type;
      return add(e);
    }
    case Symbol::LocalArray: return fail(n, "the local array '" + name + "' is used here without an index");
  }
  return undeclared(n, name);
}

int32_t Lowerer::fieldExpression(TSNode n) {
  const std::string object(unit_.text(field(n, "argument"))), member(unit_.text(field(n, "field")));
  if (const int32_t part = float4Part(n); part >= 0) return part;
  static const char* objects[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  for (int o = 0; o < 4; ++o) {
    const std::string coordinate = std::string(objects[o]) + ".";
    if (object.size() == coordinate.size() + 1 && object.rfind(coordinate, 0) == 0)  // threadIdx.z.x
      return fail(n, "'" + object + "' is a number: it has no '." + member + "'");
    if (object != objects[o]) continue;
    if (member != "x" && member != "y" && member != "z") {
      std::string lower = member;
      for (char& ch : lower) ch = char(std::tolower((unsigned char)ch));
      return fail(field(n, "field"), "'" + object + "' has no member '" + member + "'" +
                                         (lower == "x" || lower == "y" || lower == "z" ? "; did you mean '" + lower + "'?"
                                                                                       : ": its coordinates are x, y and z"));
    }
    Expr e = make(ExprOp::Builtin, Scalar::UInt, n);
    e.slot = o * 3 + (member[0] - 'x');
    return add(e);
  }
  if (!find(object) && is(field(n, "argument"), "identifier")) return undeclared(field(n, "argument"), object);
  return fail(n, "member accesses ('" + object + "." + member + "') are outside the lab's CUDA subset");
}

int32_t Lowerer::binary(TSNode n) {
  const std::string_view opText = unit_.text(field(n, "operator"));
  const ExprOp op = binaryOp(opText);
  if (op == ExprOp::Const) return fail(n, "the operator '" + std::string(opText) + "' is outside the lab's CUDA subset");
  int32_t a = expr(field(n, "left")), b = expr(field(n, "right"));
  if (op == ExprOp::LogAnd || op == ExprOp::LogOr) {
    Expr e = make(op, Scalar::Bool, n);
    e.a = convert(a, Scalar::Bool);
    e.b = convert(b, Scalar::Bool);
    return add(e);
  }
  const Scalar ta = p_.exprs[size_t(a)].type, tb = p_.exprs[size_t(b)].type;
  if (ta == Scalar::Pointer || tb == Scalar::Pointer) {
    if (ta == Scalar::Pointer && (op == ExprOp::Add || op == ExprOp::Sub) && isIntegral(tb)) {
      Expr e = make(ExprOp::PtrAdd, Scalar::Pointer, n);
      e.operand = p_.exprs[size_t(a)].operand;
      e.a = a;
      e.b = convert(b, Scalar::Long);
      if (op == ExprOp::Sub) {
        Expr neg = make(ExprOp::Neg, Scalar::Long, n);
        neg.a = e.b;
        e.b = add(neg);
      }
      return add(e);
    }
    if (tb == Scalar::Pointer && op == ExprOp::Add && isIntegral(ta)) {
      Expr e = make(ExprOp::PtrAdd, Scalar::Pointer, n);
      e.operand = p_.exprs[size_t(b)].operand;
      e.a = b;
      e.b = convert(a, Scalar::Long);
      return add(e);
    }
    return fail(n, "pointers may only be moved by a number (p + i) in the lab's CUDA subset");
  }
  const bool comparison = op >= ExprOp::Lt && op <= ExprOp::Ne;
  const bool shift = op == ExprOp::Shl || op == ExprOp::Shr;
  Scalar type = shift ? promote(ta) : usualArithmetic(ta, tb);
  if ((op == ExprOp::Mod || shift || op == ExprOp::BitAnd || op == ExprOp::BitOr || op == ExprOp::BitXor) &&
      !isIntegral(type))
    return fail(n, "'" + std::string(opText) + "' needs integers, not " + scalarName(type));
  a = convert(a, type);
  b = convert(b, type);
  Expr e = make(op, comparison ? Scalar::Bool : type, n);
  e.operand = type;
  e.a = a;
  e.b = b;
  const Expr &x = p_.exprs[size_t(a)], &y = p_.exprs[size_t(b)];
  if (x.op == ExprOp::Const && y.op == ExprOp::Const) {  // fold: array extents, case labels
    const bool byZero = (op == ExprOp::Div || op == ExprOp::Mod) && isIntegral(type) && y.imm.i == 0;
    if (!byZero) {
      Expr c = make(ExprOp::Const, e.type, n);
      c.imm = comparison ? narrow(Scalar::Bool, compare(op, type, x.imm, y.imm)) : arithmetic(op, type, x.imm, y.imm);
      return add(c);
    }
  }
  return add(e);
}

int32_t Lowerer::castTo(TSNode typeNode, TSNode value, TSNode at) {
  if (!ts_node_is_null(field(typeNode, "declarator")))
    return fail(at, "casts to pointers are outside the lab's CUDA subset");
  return convert(expr(value), declaredType(typeNode).scalar);
}

int32_t Lowerer::pointerExpression(TSNode n) {
  const std::string_view op = unit_.text(field(n, "operator"));
  TSNode argument = field(n, "argument");
  if (op == "*") {
    if (const int32_t wide = wideAccess(argument); wide >= 0) return wide;
    const int32_t p = expr(argument);
    if (p_.exprs[size_t(p)].type != Scalar::Pointer) return fail(n, "'*' needs a pointer");
    Expr e = make(ExprOp::Element, p_.exprs[size_t(p)].operand, n);
    e.a = p;
    e.b = constant(Scalar::Long, 0, n);
    return add(e);
  }
  // &a[i]: a pointer to that element.
  if (!is(argument, "subscript_expression")) return fail(n, "'&' is only for an element of an array (&M[i]) in the lab's CUDA subset");
  const int32_t el = subscript(argument);
  if (failed()) return el;
  Expr x = p_.exprs[size_t(el)];
  if (x.op == ExprOp::LocalElement || x.op == ExprOp::LocalElement2)
    return fail(n, "pointers into local arrays are outside the lab's CUDA subset");
  Expr e = make(ExprOp::PtrAdd, Scalar::Pointer, n);
  e.operand = x.type;
  if (x.op == ExprOp::Element) {
    e.a = x.a;
    e.b = x.b;
  } else {  // Element2: row * cols + col from the array's start
    const int32_t cols = p_.arrays[size_t(x.slot)].cols;
    Expr base = make(ExprOp::ArrayBase, Scalar::Pointer, n);
    base.slot = x.slot;
    base.operand = x.type;
    e.a = add(base);
    Expr mul = make(ExprOp::Mul, Scalar::Long, n);
    mul.a = x.a;
    mul.b = constant(Scalar::Long, cols, n);
    Expr sum = make(ExprOp::Add, Scalar::Long, n);
    sum.a = add(mul);
    sum.b = x.b;
    e.b = add(sum);
  }
  return add(e);
}

}  // namespace tilescope::interp

namespace tilescope::interp {

// `*reinterpret_cast<float4*>(&a[i])`: four consecutive elements in one 128-bit access, the
// ladder's float4 loads and stores; -1 when `n` is not that cast.
int32_t Lowerer::wideAccess(TSNode n) {
  if (!is(n, "call_expression") || !is(field(n, "function"), "template_function")) return -1;
  TSNode function = field(n, "function");
  if (unit_.text(field(function, "name")) != "reinterpret_cast") return -1;
  const std::string target(unit_.text(field(function, "arguments")));
  if (target.find("float4") == std::string::npos || target.find('*') == std::string::npos)
    return fail(n, "reinterpret_cast is in the lab's CUDA subset only as *reinterpret_cast<float4*>(&a[i])");
  TSNode args = field(n, "arguments");
  TSNode address = ts_node_named_child_count(args) == 1 ? ts_node_named_child(args, 0) : TSNode{};
  if (!is(address, "pointer_expression") || unit_.text(field(address, "operator")) != "&" ||
      !is(field(address, "argument"), "subscript_expression"))
    return fail(n, "a float4 access is *reinterpret_cast<float4*>(&a[i]): the address of an array element");
  const int32_t element = subscript(field(address, "argument"));
  const ExprOp op = p_.exprs[size_t(element)].op;
  if (op != ExprOp::Element && op != ExprOp::Element2) return fail(n, "float4 accesses are to matrices and shared arrays");
  Expr e = make(ExprOp::Wide, Scalar::Float4, n);
  e.a = element;
  e.line = p_.exprs[size_t(element)].line;
  return add(e);
}

// `v.x` of a float4 variable or of an element of a float4 local array: one float of its slots.
int32_t Lowerer::float4Part(TSNode n) {
  const std::string member(unit_.text(field(n, "field")));
  TSNode argument = field(n, "argument");
  const bool isVariable = is(argument, "identifier");
  const Symbol* s = isVariable ? find(std::string(unit_.text(argument))) : nullptr;
  if (isVariable && !(s && s->kind == Symbol::Variable && s->type == Scalar::Float4)) return -1;
  if (!isVariable && !is(argument, "subscript_expression")) return -1;
  const int32_t base = isVariable ? -1 : expr(argument);
  if (!isVariable && p_.exprs[size_t(base)].type != Scalar::Float4) return -1;
  static const std::string parts = "xyzw";
  const std::size_t k = member.size() == 1 ? parts.find(member[0]) : std::string::npos;
  if (k == std::string::npos) return fail(field(n, "field"), "a float4 has the parts x, y, z and w, not '" + member + "'");
  if (isVariable) {
    Expr e = make(ExprOp::Local, Scalar::Float, n);
    e.slot = s->slot + int32_t(k);
    return add(e);
  }
  Expr element = p_.exprs[size_t(base)];  // a LocalElement of a float4 array: element 4 i + k of its floats
  Expr scaled = make(ExprOp::Mul, Scalar::Long, n);
  scaled.a = element.a;
  scaled.b = constant(Scalar::Long, 4, n);
  Expr shifted = make(ExprOp::Add, Scalar::Long, n);
  shifted.a = add(scaled);
  shifted.b = constant(Scalar::Long, int64_t(k), n);
  element.type = Scalar::Float;
  element.a = add(shifted);
  element.rows *= 4;
  return add(element);
}

}  // namespace tilescope::interp
