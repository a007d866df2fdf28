// Lowering, part three: element accesses, assignments, increments and calls.
#include "lab/interp/lower.h"

namespace tilescope::interp {

namespace {
bool isElementOp(ExprOp op) {
  return op == ExprOp::Element || op == ExprOp::Element2 || op == ExprOp::LocalElement || op == ExprOp::LocalElement2;
}
ExprOp compoundOp(std::string_view t) {
  static const std::pair<const char*, ExprOp> ops[] = {
      {"+=", ExprOp::Add}, {"-=", ExprOp::Sub}, {"*=", ExprOp::Mul}, {"/=", ExprOp::Div}, {"%=", ExprOp::Mod},
      {"<<=", ExprOp::Shl}, {">>=", ExprOp::Shr}, {"&=", ExprOp::BitAnd}, {"|=", ExprOp::BitOr}, {"^=", ExprOp::BitXor}};
  for (auto [text, op] : ops)
    if (t == text) return op;
  return ExprOp::Const;
}
}  // namespace

// a[i], a[i][j]: an element of a matrix, a shared array, a local array or through a pointer.
int32_t Lowerer::subscript(TSNode n) {
  TSNode argument = field(n, "argument");
  TSNode indices = field(n, "indices");
  if (ts_node_named_child_count(indices) != 1) return fail(n, "an index is one expression: a[i], a[i][j]");
  TSNode indexNode = ts_node_named_child(indices, 0);
  if (is(argument, "subscript_expression")) {  // a[i][j]
    TSNode inner = field(argument, "argument");
    const Symbol* s = is(inner, "identifier") ? find(std::string(unit_.text(inner))) : nullptr;
    if (!s || (s->kind != Symbol::NamedArray && s->kind != Symbol::LocalArray) || s->cols == 0) {
      if (is(inner, "identifier") && !s) return undeclared(inner, std::string(unit_.text(inner)));
      return fail(n, "two indices need a two-dimensional array ('" + std::string(unit_.text(inner)) + "' is not one)");
    }
    TSNode rowNode = ts_node_named_child(field(argument, "indices"), 0);
    Expr e = make(s->kind == Symbol::NamedArray ? ExprOp::Element2 : ExprOp::LocalElement2, s->type, indices);
    e.slot = s->kind == Symbol::NamedArray ? s->array : s->slot;
    e.rows = s->rows;
    e.cols = s->cols;
    const int32_t row = expr(rowNode), col = expr(indexNode);
    if (!isIntegral(p_.exprs[size_t(row)].type) || !isIntegral(p_.exprs[size_t(col)].type))
      return fail(indices, "an index must be an integer");
    e.a = convert(row, Scalar::Long);
    e.b = convert(col, Scalar::Long);
    e.c = int32_t(p_.strings.size());
    p_.strings.emplace_back(unit_.text(inner));
    return add(e);
  }
  if (is(argument, "identifier")) {
    const Symbol* s = find(std::string(unit_.text(argument)));
    if (s && (s->kind == Symbol::LocalArray || s->kind == Symbol::NamedArray) && s->cols > 0)
      return fail(n, "the two-dimensional array '" + std::string(unit_.text(argument)) + "' needs both of its indices");
    if (s && s->kind == Symbol::LocalArray) {
      Expr e = make(ExprOp::LocalElement, s->type, indices);
      e.slot = s->slot;
      e.rows = s->rows;
      const int32_t index = expr(indexNode);
      if (!isIntegral(p_.exprs[size_t(index)].type)) return fail(indexNode, "an index must be an integer");
      e.a = convert(index, Scalar::Long);
      e.c = int32_t(p_.strings.size());
      p_.strings.emplace_back(unit_.text(argument));
      return add(e);
    }
  }
  const int32_t pointer = expr(argument);
  if (p_.exprs[size_t(pointer)].type != Scalar::Pointer)
    return fail(n, "'" + std::string(unit_.text(argument)) + "' is not an array or a pointer, so it cannot be indexed");
  const int32_t index = expr(indexNode);
  if (!isIntegral(p_.exprs[size_t(index)].type)) return fail(indexNode, "an index must be an integer");
  Expr e = make(ExprOp::Element, p_.exprs[size_t(pointer)].operand, indices);
  e.a = pointer;
  e.b = convert(index, Scalar::Long);
  return add(e);
}

int32_t Lowerer::assignment(TSNode n) {
  TSNode left = field(n, "left");
  const std::string_view opText = unit_.text(field(n, "operator"));
  const ExprOp arith = opText == "=" ? ExprOp::Const : compoundOp(opText);
  int32_t value = expr(field(n, "right"));
  int32_t target = -1;
  Scalar type;
  if (p_.exprs[size_t(value)].type == Scalar::Float4 || (is(left, "identifier") && find(std::string(unit_.text(left))) &&
                                                          find(std::string(unit_.text(left)))->type == Scalar::Float4)) {
    if (arith != ExprOp::Const) return fail(n, "a float4 is only assigned with '=' in the lab's CUDA subset");
    return assignWide(n, expr(left), value);
  }
  if (is(left, "identifier")) {
    const Symbol* s = find(std::string(unit_.text(left)));
    if (!s) return undeclared(left, std::string(unit_.text(left)));
    if (s->kind != Symbol::Variable) return fail(left, "'" + std::string(unit_.text(left)) + "' cannot be assigned to");
    if (s->isConst) return fail(left, "'" + std::string(unit_.text(left)) + "' is const");
    type = s->type;
    Expr e = make(arith == ExprOp::Const ? ExprOp::AssignLocal : ExprOp::CompoundLocal, type, n);
    e.slot = s->slot;
    e.operand = s->pointee;
    target = add(e);
  } else {
    const int32_t el = expr(left);
    const Expr& x = p_.exprs[size_t(el)];
    if (x.op == ExprOp::Local) {  // v.x of a float4 variable
      type = x.type;
      Expr e = make(arith == ExprOp::Const ? ExprOp::AssignLocal : ExprOp::CompoundLocal, type, n);
      e.slot = x.slot;
      target = add(e);
    } else {
      if (!isElementOp(x.op)) return fail(left, "only a variable or an array element can be assigned to");
      type = x.type;
      Expr e = make(arith == ExprOp::Const ? ExprOp::AssignElement : ExprOp::CompoundElement, type, n);
      e.a = el;
      target = add(e);
    }
  }
  Expr& t = p_.exprs[size_t(target)];
  if (arith == ExprOp::Const) {
    const Scalar to = type;
    const int32_t converted = to == Scalar::Pointer ? value : convert(value, to);
    if (to == Scalar::Pointer && p_.exprs[size_t(value)].type != Scalar::Pointer)
      return fail(n, "a pointer can only be given a pointer");
    p_.exprs[size_t(target)].b = converted;
    return target;
  }
  if (type == Scalar::Pointer) return fail(n, "pointers may only be moved by p = p + i in the lab's CUDA subset");
  const Scalar opType = usualArithmetic(type, p_.exprs[size_t(value)].type);
  if ((arith == ExprOp::Mod || arith >= ExprOp::Shl) && !isIntegral(opType))
    return fail(n, "'" + std::string(opText) + "' needs integers");
  const int32_t converted = convert(value, opType);
  Expr& again = p_.exprs[size_t(target)];
  (void)t;
  again.arith = arith;
  again.operand = opType;
  again.b = converted;
  return target;
}

// `m4 = *reinterpret_cast<float4*>(&M[i]);`, `*reinterpret_cast<float4*>(&P[i]) = make_float4(...)`.
int32_t Lowerer::assignWide(TSNode n, int32_t target, int32_t value) {
  const Expr& t = p_.exprs[size_t(target)];
  const bool local = t.op == ExprOp::Local || t.op == ExprOp::LocalElement;
  if (t.type != Scalar::Float4 || !(local || t.op == ExprOp::Wide))
    return fail(n, "a float4 goes to a float4 variable or to *reinterpret_cast<float4*>(&a[i])");
  if (p_.exprs[size_t(value)].type != Scalar::Float4) convert(value, Scalar::Float4);  // says what a float4 is
  Expr e = make(ExprOp::AssignWide, Scalar::Void, n);
  e.a = target;
  e.b = value;
  return add(e);
}

int32_t Lowerer::update(TSNode n) {
  TSNode argument = field(n, "argument");
  const bool increment = unit_.text(field(n, "operator")) == "++";
  const bool post = ts_node_start_byte(field(n, "operator")) > ts_node_start_byte(argument);
  if (is(argument, "identifier")) {
    const Symbol* s = find(std::string(unit_.text(argument)));
    if (!s) return undeclared(argument, std::string(unit_.text(argument)));
    if (s->kind != Symbol::Variable || s->isConst || s->type == Scalar::Pointer)
      return fail(argument, "'" + std::string(unit_.text(argument)) + "' cannot be incremented here");
    Expr e = make(ExprOp::IncLocal, s->type, n);
    e.slot = s->slot;
    e.post = post;
    e.imm = Value::ofInt(increment ? 1 : -1);
    return add(e);
  }
  const int32_t el = expr(argument);
  if (!isElementOp(p_.exprs[size_t(el)].op)) return fail(argument, "only a variable or an array element can be incremented");
  const Scalar type = p_.exprs[size_t(el)].type;
  const Scalar opType = usualArithmetic(type, Scalar::Int);
  Expr e = make(ExprOp::CompoundElement, type, n);
  e.a = el;
  e.arith = increment ? ExprOp::Add : ExprOp::Sub;
  e.operand = opType;
  e.post = post;
  e.b = convert(constant(Scalar::Int, 1, n), opType);
  return add(e);
}

// printf("format", values...): the format kept as text, float values passed as double.
int32_t Lowerer::printfCall(TSNode n, TSNode argumentList) {
  const uint32_t count = ts_node_named_child_count(argumentList);
  TSNode format = count ? ts_node_named_child(argumentList, 0) : TSNode{};
  if (!is(format, "string_literal")) return fail(n, "printf's first argument is a string in quotes");
  std::string text;
  for (uint32_t i = 0; i < ts_node_named_child_count(format); ++i) {
    TSNode part = ts_node_named_child(format, i);
    const std::string_view s = unit_.text(part);
    if (!is(part, "escape_sequence")) text += s;
    else text += s == "\\n" ? '\n' : s == "\\t" ? '\t' : s == "\\\\" ? '\\' : s == "\\\"" ? '"' : '?';
  }
  Expr e = make(ExprOp::Printf, Scalar::Int, n);
  e.slot = int32_t(p_.strings.size());
  p_.strings.push_back(text);
  std::vector<int32_t> args;
  for (uint32_t i = 1; i < count; ++i) {
    int32_t a = expr(ts_node_named_child(argumentList, i));
    const Scalar t = p_.exprs[size_t(a)].type;
    args.push_back(t == Scalar::Float ? convert(a, Scalar::Double) : t == Scalar::Bool ? convert(a, Scalar::Int) : a);
  }
  e.argsFirst = int32_t(p_.args.size());
  e.argsCount = int32_t(args.size());
  p_.args.insert(p_.args.end(), args.begin(), args.end());
  return add(e);
}

int32_t Lowerer::call(TSNode n) {
  TSNode function = field(n, "function");
  TSNode argumentList = field(n, "arguments");
  if (is(function, "template_function")) {
    const std::string name(unit_.text(field(function, "name")));
    TSNode targs = field(function, "arguments");
    if (name == "static_cast" && ts_node_named_child_count(targs) == 1 && ts_node_named_child_count(argumentList) == 1)
      return castTo(ts_node_named_child(targs, 0), ts_node_named_child(argumentList, 0), n);
    return fail(n, "'" + name + "<...>' is outside the lab's CUDA subset");
  }
  if (is(function, "primitive_type") || is(function, "sized_type_specifier")) {  // int(x): a cast
    if (ts_node_named_child_count(argumentList) != 1) return fail(n, "a conversion such as int(x) takes one value");
    Scalar to = Scalar::Int;
    const std::string_view t = unit_.text(function);
    if (t == "float") to = Scalar::Float;
    else if (t == "double") to = Scalar::Double;
    else if (t == "bool") to = Scalar::Bool;
    else if (t == "size_t") to = Scalar::ULong;
    else if (t == "unsigned") to = Scalar::UInt;
    else if (t != "int") return fail(function, "the conversion to '" + std::string(t) + "' is outside the lab's CUDA subset");
    return convert(expr(ts_node_named_child(argumentList, 0)), to);
  }
  if (!is(function, "identifier")) return fail(n, "only named functions can be called in the lab's CUDA subset");
  const std::string name(unit_.text(function));
  if (name == "__syncthreads") {
    if (ts_node_named_child_count(argumentList) != 0) return fail(n, "__syncthreads() takes no arguments");
    return add(make(ExprOp::Sync, Scalar::Void, function));
  }
  if (name == "printf") return printfCall(n, argumentList);
  std::vector<int32_t> args;
  for (uint32_t i = 0; i < ts_node_named_child_count(argumentList); ++i) {
    TSNode a = ts_node_named_child(argumentList, i);
    if (!is(a, "comment")) args.push_back(expr(a));
  }
  if (name == "make_float4") {
    if (args.size() != 4) return fail(n, "make_float4 takes four floats");
    Expr e = make(ExprOp::MakeFloat4, Scalar::Float4, n);
    e.argsFirst = int32_t(p_.args.size());
    e.argsCount = 4;
    for (int32_t a : args) p_.args.push_back(convert(a, Scalar::Float));
    return add(e);
  }
  if (const int32_t m = mathCall(n, name, args); m >= 0) return m;
  const int32_t index = functionFor(function, name);
  if (failed()) return placeholder();  // index is no function's
  const Function& f = p_.functions[size_t(index)];
  if (f.parameters.size() != args.size())
    return fail(n, "'" + name + "' takes " + std::to_string(f.parameters.size()) + " arguments, not " + std::to_string(args.size()));
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (f.parameters[i] == Scalar::Pointer) {
      if (p_.exprs[size_t(args[i])].type != Scalar::Pointer)
        return fail(n, "argument " + std::to_string(i + 1) + " of '" + name + "' is a pointer");
    } else {
      args[i] = convert(args[i], f.parameters[i]);
    }
  }
  Expr e = make(ExprOp::Call, f.result, n);
  e.slot = index;
  e.argsFirst = int32_t(p_.args.size());
  e.argsCount = int32_t(args.size());
  p_.args.insert(p_.args.end(), args.begin(), args.end());
  return add(e);
}

// The math a kernel may call; -1 when `name` is none of it.
int32_t Lowerer::mathCall(TSNode n, const std::string& name, const std::vector<int32_t>& args) {
  struct Known {
    const char* name;
    MathFn fn;
    int arity;
    Scalar type;  // Void: the arguments' common type
  };
  static const Known known[] = {
      {"fmaf", MathFn::Fmaf, 3, Scalar::Float}, {"sqrtf", MathFn::Sqrtf, 1, Scalar::Float},
      {"sqrt", MathFn::Sqrt, 1, Scalar::Double}, {"fabsf", MathFn::Fabsf, 1, Scalar::Float},
      {"fabs", MathFn::Fabs, 1, Scalar::Double}, {"fminf", MathFn::Fminf, 2, Scalar::Float},
      {"fmaxf", MathFn::Fmaxf, 2, Scalar::Float}, {"expf", MathFn::Expf, 1, Scalar::Float},
      {"exp", MathFn::Exp, 1, Scalar::Double}, {"logf", MathFn::Logf, 1, Scalar::Float},
      {"log", MathFn::Log, 1, Scalar::Double}, {"powf", MathFn::Powf, 2, Scalar::Float},
      {"pow", MathFn::Pow, 2, Scalar::Double}, {"sinf", MathFn::Sinf, 1, Scalar::Float},
      {"cosf", MathFn::Cosf, 1, Scalar::Float}, {"sin", MathFn::Sin, 1, Scalar::Double},
      {"cos", MathFn::Cos, 1, Scalar::Double}, {"floorf", MathFn::Floorf, 1, Scalar::Float},
      {"ceilf", MathFn::Ceilf, 1, Scalar::Float}, {"floor", MathFn::Floor, 1, Scalar::Double},
      {"ceil", MathFn::Ceil, 1, Scalar::Double}, {"roundf", MathFn::Roundf, 1, Scalar::Float},
      {"truncf", MathFn::Truncf, 1, Scalar::Float}, {"rsqrtf", MathFn::Rsqrtf, 1, Scalar::Float},
      {"exp2f", MathFn::Exp2f, 1, Scalar::Float}, {"log2f", MathFn::Log2f, 1, Scalar::Float},
      {"tanhf", MathFn::Tanhf, 1, Scalar::Float}, {"__fdividef", MathFn::Fdividef, 2, Scalar::Float},
      {"fma", MathFn::Fma, 3, Scalar::Double}, {"min", MathFn::Min, 2, Scalar::Void},
      {"max", MathFn::Max, 2, Scalar::Void}, {"abs", MathFn::Abs, 1, Scalar::Void},
      {"ceilDiv", MathFn::CeilDiv, 2, Scalar::Int},
  };
  for (const Known& k : known) {
    if (name != k.name) continue;
    if (int(args.size()) != k.arity)
      return fail(n, "'" + name + "' takes " + std::to_string(k.arity) + " argument" + (k.arity > 1 ? "s" : "") + ", not " +
                  std::to_string(args.size()));
    Scalar type = k.type;
    if (type == Scalar::Void) {
      type = promote(p_.exprs[size_t(args[0])].type);
      for (int32_t a : args) type = usualArithmetic(type, p_.exprs[size_t(a)].type);
    }
    Expr e = make(ExprOp::Math, type, n);
    e.slot = int32_t(k.fn);
    e.argsFirst = int32_t(p_.args.size());
    e.argsCount = k.arity;
    for (int32_t a : args) p_.args.push_back(convert(a, type));
    return add(e);
  }
  return -1;
}

}  // namespace tilescope::interp
