// Lowering, part one: the unit's kernels, template instantiation, functions, scopes, types
// and declarations. Expressions are lower_expr.cpp's, statements lower_stmt.cpp's.
#include "lab/interp/lower.h"
#include "core/edit_distance.h"

#include <algorithm>

namespace tilescope::interp {

const char* scalarName(Scalar s) {
  switch (s) {
    case Scalar::Void: return "void";
    case Scalar::Bool: return "bool";
    case Scalar::Int: return "int";
    case Scalar::UInt: return "unsigned";
    case Scalar::Long: return "long long";
    case Scalar::ULong: return "size_t";
    case Scalar::Float: return "float";
    case Scalar::Double: return "double";
    case Scalar::Pointer: return "pointer";
    case Scalar::Float4: return "float4";
  }
  return "?";
}

int32_t Lowerer::fail(TSNode at, const std::string& message) { return failAt(unit_.line(at), unit_.column(at), message); }

int32_t Lowerer::failAt(int line, int column, const std::string& message) {
  if (!error_) error_ = Diagnostic{line, column, message};
  return placeholder();
}

int32_t Lowerer::placeholder() {
  Expr e{};
  e.op = ExprOp::Const;
  e.type = Scalar::Int;
  e.imm = Value::ofInt(0);
  return add(e);
}

// ---- scopes ---------------------------------------------------------------------------

void Lowerer::declare(TSNode at, const std::string& name, const Symbol& s) {
  auto& scope = scopes_.back();
  if (scope.count(name)) fail(at, "'" + name + "' is declared twice in the same block");
  scope[name] = s;
}

const Symbol* Lowerer::find(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
    if (auto f = it->find(name); f != it->end()) return &f->second;
  return nullptr;
}


int32_t Lowerer::undeclared(TSNode at, const std::string& name) {
  std::vector<std::string> names = {"threadIdx", "blockIdx", "blockDim", "gridDim", "__syncthreads"};
  for (const auto& scope : scopes_)
    for (const auto& [n, s] : scope) names.push_back(n);
  for (const auto& [n, f] : functionIndex_) names.push_back(n);
  // The names at the least distance, at most two edits away, in order: all of them when tied.
  std::size_t least = 3;
  for (const std::string& n : names) least = std::min(least, editDistance(name, n));
  std::vector<std::string> nearest;
  for (const std::string& n : names)
    if (least < 3 && editDistance(name, n) == least && n != name) nearest.push_back(n);
  std::sort(nearest.begin(), nearest.end());
  nearest.erase(std::unique(nearest.begin(), nearest.end()), nearest.end());
  std::string best;
  for (std::size_t i = 0; i < nearest.size() && i < 3; ++i)
    best += (i == 0 ? "'" : i + 1 == nearest.size() || i == 2 ? "' or '" : "', '") + nearest[i];
  if (!best.empty()) best += "'";
  return fail(at, "'" + name + "' was not declared" + (best.empty() ? std::string() : "; did you mean " + best + "?"));
}

int32_t Lowerer::newSlot(int32_t count) {
  const int32_t s = frameSlots_;
  frameSlots_ += count;
  return s;
}

// ---- types ----------------------------------------------------------------------------

namespace {
Scalar sizedType(const Unit& u, TSNode n) {
  int longs = 0;
  bool isUnsigned = false;
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i) {
    const std::string_view t = u.text(ts_node_child(n, i));
    if (t == "unsigned") isUnsigned = true;
    if (t == "long") ++longs;
  }
  if (longs > 0) return isUnsigned ? Scalar::ULong : Scalar::Long;
  return isUnsigned ? Scalar::UInt : Scalar::Int;
}
}  // namespace

DeclaredType Lowerer::declaredType(TSNode declaration) {
  DeclaredType t;
  bool haveType = false;
  for (uint32_t i = 0; i < ts_node_child_count(declaration); ++i) {
    TSNode c = ts_node_child(declaration, i);
    const std::string_view kind = typeOf(c), text = unit_.text(c);
    if (kind == "storage_class_specifier") {
      if (text == "extern") t.isExtern = true;
      else if (text == "static") t.isStatic = true;
      else fail(c, "'" + std::string(text) + "' is outside the lab's CUDA subset");
    } else if (kind == "type_qualifier") {
      if (text == "const" || text == "constexpr") t.isConst = true;
      else if (text == "__shared__") t.isShared = true;
      else if (text != "__restrict__" && text != "volatile" && text != "__restrict")
        fail(c, "'" + std::string(text) + "' is outside the lab's CUDA subset");
    } else if (kind == "primitive_type") {
      haveType = true;
      if (text == "int") t.scalar = Scalar::Int;
      else if (text == "float") t.scalar = Scalar::Float;
      else if (text == "double") t.scalar = Scalar::Double;
      else if (text == "bool") t.scalar = Scalar::Bool;
      else if (text == "size_t") t.scalar = Scalar::ULong;
      else if (text == "void") t.scalar = Scalar::Void;
      else if (text == "unsigned") t.scalar = Scalar::UInt;
      else fail(c, "the type '" + std::string(text) + "' is outside the lab's CUDA subset");
    } else if (kind == "sized_type_specifier") {
      haveType = true;
      t.scalar = sizedType(unit_, c);
    } else if (kind == "type_identifier" && text == "float4") {
      haveType = true;
      t.scalar = Scalar::Float4;
    } else if (kind == "type_identifier" || kind == "qualified_identifier" || kind == "template_type") {
      fail(c, "the type '" + std::string(text) + "' is outside the lab's CUDA subset");
    } else if (kind == "struct_specifier" || kind == "class_specifier" || kind == "union_specifier" ||
               kind == "enum_specifier") {
      fail(c, outsideSubset(kind) + " are outside the lab's CUDA subset");
    } else if (kind == "placeholder_type_specifier" || text == "auto") {
      fail(c, "'auto' is outside the lab's CUDA subset: write the type");
    }
  }
  if (!haveType) fail(declaration, "a declaration without a type is outside the lab's CUDA subset");
  return t;
}

// A constant expression: an integer literal, a template parameter, a const variable's value,
// or arithmetic over them (array extents, case labels).
int64_t Lowerer::constantValue(TSNode n) {
  const int32_t e = expr(n);
  const Expr& x = p_.exprs[size_t(e)];
  if (x.op == ExprOp::Const && isIntegral(x.type)) return x.imm.i;
  if (x.op == ExprOp::Cast && p_.exprs[size_t(x.a)].op == ExprOp::Const) return p_.exprs[size_t(x.a)].imm.i;
  fail(n, "this size must be a constant: a number, a template parameter or a #define");
  return 0;
}

// ---- functions ------------------------------------------------------------------------


// A __device__ function the kernel calls, lowered on its first call (its index is known before
// its body is lowered, so it may call itself).
int32_t Lowerer::functionFor(TSNode at, const std::string& name) {
  if (auto f = functionIndex_.find(name); f != functionIndex_.end()) return f->second;
  TSNode root = unit_.root();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode d = ts_node_named_child(root, i);
    if (!is(d, "function_definition")) continue;
    if (unit_.text(nameOf(field(d, "declarator"))) != name) continue;
    if (hasToken(unit_, d, "__global__")) return fail(at, "a kernel cannot call the kernel '" + name + "'");
    if (!hasToken(unit_, d, "__device__")) return fail(at, "'" + name + "' is host code: a kernel calls only __device__ functions");
    const int32_t index = int32_t(p_.functions.size());
    functionIndex_[name] = index;
    p_.functions.push_back(Function{name});
    Function f{name};
    lowerFunctionBody(f, d, index);
    p_.functions[size_t(index)] = f;
    return index;
  }
  return undeclared(at, name);
}

void Lowerer::lowerFunctionBody(Function& f, TSNode function, int32_t index) {
  const auto savedScopes = scopes_;
  const int32_t savedSlots = frameSlots_;
  const Scalar savedReturn = returnType_;
  scopes_.resize(1);  // the template parameters' scope; the caller's locals are not visible
  frameSlots_ = 0;
  f.result = declaredType(function).scalar;
  f.line = unit_.line(function);
  returnType_ = f.result;
  pushScope();
  TSNode declarator = field(function, "declarator");
  TSNode params = field(declarator, "parameters");
  for (uint32_t i = 0; i < ts_node_named_child_count(params); ++i) {
    TSNode param = ts_node_named_child(params, i);
    if (!is(param, "parameter_declaration")) {
      fail(param, outsideSubset(typeOf(param)) + " are outside the lab's CUDA subset");
      break;
    }
    DeclaredType t = declaredType(param);
    TSNode d = field(param, "declarator");
    if (ts_node_is_null(d)) {
      fail(param, "every parameter needs a name");
      break;
    }
    Symbol s;
    s.slot = newSlot();
    s.isConst = t.isConst;
    if (is(d, "pointer_declarator")) {
      s.type = Scalar::Pointer;
      s.pointee = t.scalar;
    } else if (is(d, "identifier")) {
      s.type = t.scalar;
    } else {
      fail(d, "a parameter must be a number or a pointer: '" + std::string(unit_.text(d)) + "'");
    }
    f.parameters.push_back(s.type);
    declare(d, std::string(unit_.text(nameOf(d))), s);
  }
  // Its signature is known before its body, so the body may call it (recursion).
  p_.functions[size_t(index)].result = f.result;
  p_.functions[size_t(index)].parameters = f.parameters;
  f.body = block(field(function, "body"), false);
  f.frameSlots = frameSlots_;
  popScope();
  scopes_ = savedScopes;
  frameSlots_ = savedSlots;
  returnType_ = savedReturn;
}

void Lowerer::lowerKernel(TSNode function, TSNode templateParameters, const std::vector<long long>& arguments) {
  // Arrays 0, 1, 2 are the matrices: the first three pointer parameters, M, N and P (the
  // book's convention), named as the emulator names them.
  for (int role = 0; role < 3; ++role) {
    ArrayInfo a{ArrayKind::Global};
    a.name = role == 0 ? "M" : role == 1 ? "N" : "P";
    a.role = role;
    p_.arrays.push_back(a);
  }
  pushScope();
  if (!ts_node_is_null(templateParameters)) {
    uint32_t next = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(templateParameters); ++i) {
      TSNode param = ts_node_named_child(templateParameters, i);
      TSNode name = nameOf(field(param, "declarator"));
      if (!is(param, "parameter_declaration") || ts_node_is_null(name)) {
        fail(param, "only integer template parameters (template <int TILE_WIDTH>) are in the lab's CUDA subset");
        return;
      }
      Symbol s;
      s.kind = Symbol::Constant;
      s.type = declaredType(param).scalar;
      s.constant = next < arguments.size() ? arguments[next] : 0;
      if (next++ >= arguments.size()) {
        fail(param, "the launch gives no value for '" + std::string(unit_.text(name)) + "'");
        return;
      }
      declare(name, std::string(unit_.text(name)), s);
    }
  }
  // File-scope constants (`const int TILE = 16;`), in the order written, before the kernel.
  TSNode root = unit_.root();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) {
    TSNode d = ts_node_named_child(root, i);
    if (!is(d, "declaration")) continue;
    if (lowerDeclaration(d) >= 0) fail(d, "a constant at file scope needs a constant integer value");
  }
  if (failed()) return;
  const std::string name(unit_.text(nameOf(field(function, "declarator"))));
  functionIndex_[name] = 0;
  p_.functions.push_back(Function{name});
  Function f{name};
  lowerFunctionBody(f, function, 0);
  if (f.result != Scalar::Void) fail(function, "a __global__ function returns void");
  int pointers = 0;
  for (Scalar s : f.parameters) pointers += s == Scalar::Pointer;
  if (pointers > 3) fail(function, "a kernel of the lab takes three matrices, M, N and P, and numbers");
  p_.functions[0] = f;
}

std::string outsideSubset(std::string_view t) {
  static const std::pair<const char*, const char*> names[] = {
      {"class_specifier", "classes"}, {"struct_specifier", "structs"}, {"union_specifier", "unions"},
      {"enum_specifier", "enums"}, {"namespace_definition", "namespaces"}, {"lambda_expression", "lambdas"},
      {"new_expression", "'new'"}, {"delete_expression", "'delete'"}, {"goto_statement", "goto statements"},
      {"labeled_statement", "labels"}, {"for_range_loop", "range for loops"}, {"try_statement", "exceptions"},
      {"throw_statement", "exceptions"}, {"using_declaration", "using declarations"},
      {"alias_declaration", "type aliases"}, {"type_definition", "typedefs"}, {"linkage_specification", "extern \"C\" blocks"},
      {"template_declaration", "templates other than template <int ...> kernels"}, {"reference_declarator", "references"},
      {"field_expression", "member accesses"}, {"pointer_expression", "pointers to pointers"},
      {"string_literal", "strings outside printf"}, {"char_literal", "characters"},
      {"variadic_parameter_declaration", "variadic functions"}, {"optional_parameter_declaration", "default arguments"},
      {"attribute_specifier", "attributes"}, {"attributed_statement", "attributes"}, {"static_assert_declaration", "static_assert"},
      {"preproc_call", "preprocessor lines other than #define, #if and #include"},
  };
  for (auto [node, words] : names)
    if (t == node) return words;
  std::string words(t);
  std::replace(words.begin(), words.end(), '_', ' ');
  return words + "s";
}

}  // namespace tilescope::interp
