// Lowering, part four: statements and declarations.
#include "lab/interp/lower.h"

namespace tilescope::interp {


int32_t Lowerer::block(TSNode compound, bool ownScope) {
  if (!is(compound, "compound_statement")) return statement(compound);
  if (ownScope) pushScope();
  std::vector<int32_t> list;
  for (uint32_t i = 0; i < ts_node_named_child_count(compound); ++i) {
    TSNode c = ts_node_named_child(compound, i);
    if (is(c, "comment")) continue;
    if (const int32_t s = statement(c); s >= 0) list.push_back(s);
  }
  if (ownScope) popScope();
  return blockOf(list, unit_.line(compound));
}

int32_t Lowerer::blockOf(const std::vector<int32_t>& list, int32_t line) {
  Stmt b{StmtOp::Block};
  b.line = line;
  b.first = int32_t(p_.children.size());
  b.count = int32_t(list.size());
  p_.children.insert(p_.children.end(), list.begin(), list.end());
  return addStmt(b);
}

int32_t Lowerer::statement(TSNode n) {
  constexpr int32_t kMaxNesting = 24;
  if (failed()) return -1;  // the first mistake is told; nothing after it is lowered
  if (stmtDepth_ >= kMaxNesting)
    return failStatement(n, "the blocks and loops here are nested more than " + std::to_string(kMaxNesting) + " deep");
  ++stmtDepth_;
  const int32_t s = statementAt(n);
  --stmtDepth_;
  return s;
}

int32_t Lowerer::statementAt(TSNode n) {
  const std::string_view t = typeOf(n);
  Stmt s{StmtOp::Nop};
  s.line = unit_.line(n);
  if (t == "compound_statement") return block(n, true);
  if (t == "declaration") return lowerDeclaration(n);
  if (t == "expression_statement") {
    if (ts_node_named_child_count(n) == 0) return -1;  // a lone ';'
    s.op = StmtOp::Expr;
    s.expr = expr(ts_node_named_child(n, 0));
    return addStmt(s);
  }
  if (t == "if_statement") {
    s.op = StmtOp::If;
    s.expr = condition(ts_node_named_child(field(n, "condition"), 0));
    pushScope();
    s.body = block(field(n, "consequence"), true);
    popScope();
    TSNode otherwise = field(n, "alternative");
    if (!ts_node_is_null(otherwise)) {
      if (is(otherwise, "else_clause")) otherwise = ts_node_named_child(otherwise, 0);
      s.otherwise = block(otherwise, true);
    }
    return addStmt(s);
  }
  if (t == "while_statement" || t == "do_statement") {
    s.op = t == "while_statement" ? StmtOp::While : StmtOp::DoWhile;
    TSNode c = field(n, "condition");
    s.expr = condition(is(c, "condition_clause") ? ts_node_named_child(c, 0) : ts_node_named_child(c, 0));
    ++loopDepth_;
    s.body = block(field(n, "body"), true);
    --loopDepth_;
    return addStmt(s);
  }
  if (t == "for_statement") return forStatement(n);
  if (t == "switch_statement") return switchStatement(n);
  if (t == "break_statement") {
    if (loopDepth_ == 0 && switchDepth_ == 0) fail(n, "'break' is only inside a loop or a switch");
    s.op = StmtOp::Break;
    return addStmt(s);
  }
  if (t == "continue_statement") {
    if (loopDepth_ == 0) fail(n, "'continue' is only inside a loop");
    s.op = StmtOp::Continue;
    return addStmt(s);
  }
  if (t == "return_statement") {
    s.op = StmtOp::Return;
    if (ts_node_named_child_count(n) > 0) {
      if (returnType_ == Scalar::Void) fail(n, "this function returns void: 'return;' takes no value");
      s.expr = convert(expr(ts_node_named_child(n, 0)), returnType_);
    } else if (returnType_ != Scalar::Void) {
      fail(n, "this function returns a value: 'return' needs one");
    }
    return addStmt(s);
  }
  if (t == "comment") return -1;
  if (t == "preproc_call" || t == "preproc_def") return -1;  // #pragma unroll and the like: hints only
  return failStatement(n, outsideSubset(t) + " are outside the lab's CUDA subset");
}

int32_t Lowerer::forStatement(TSNode n) {
  Stmt s{StmtOp::For};
  s.line = unit_.line(n);
  pushScope();
  TSNode init = field(n, "initializer");
  if (!ts_node_is_null(init)) {
    if (is(init, "declaration")) {
      s.init = lowerDeclaration(init);
    } else {
      Stmt e{StmtOp::Expr};
      e.line = unit_.line(init);
      e.expr = expr(init);
      s.init = addStmt(e);
    }
  }
  TSNode c = field(n, "condition");
  if (!ts_node_is_null(c)) s.expr = condition(c);
  TSNode u = field(n, "update");
  if (!ts_node_is_null(u)) s.update = expr(u);
  ++loopDepth_;
  s.body = block(field(n, "body"), true);
  --loopDepth_;
  popScope();
  return addStmt(s);
}

int32_t Lowerer::switchStatement(TSNode n) {
  Stmt s{StmtOp::Switch};
  s.line = unit_.line(n);
  const int32_t value = expr(ts_node_named_child(field(n, "condition"), 0));
  if (!isIntegral(p_.exprs[size_t(value)].type)) return failStatement(n, "a switch needs an integer");
  s.expr = convert(value, Scalar::Long);
  TSNode body = field(n, "body");
  std::vector<int32_t> list;
  std::vector<SwitchCase> cases;
  ++switchDepth_;
  pushScope();
  for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (!is(c, "case_statement")) {
      if (const int32_t st = statement(c); st >= 0) list.push_back(st);
      continue;
    }
    TSNode label = field(c, "value");
    SwitchCase k{0, ts_node_is_null(label), int32_t(list.size())};
    if (!k.isDefault) k.value = constantValue(label);
    cases.push_back(k);
    for (uint32_t j = 0; j < ts_node_named_child_count(c); ++j) {
      TSNode st = ts_node_named_child(c, j);
      if (ts_node_eq(st, label) || is(st, "comment")) continue;
      if (const int32_t x = statement(st); x >= 0) list.push_back(x);
    }
  }
  popScope();
  --switchDepth_;
  s.body = blockOf(list);
  s.first = int32_t(p_.cases.size());
  s.count = int32_t(cases.size());
  p_.cases.insert(p_.cases.end(), cases.begin(), cases.end());
  return addStmt(s);
}

// ---- declarations ---------------------------------------------------------------------

int32_t Lowerer::lowerDeclaration(TSNode n) {
  const DeclaredType t = declaredType(n);
  if (t.scalar == Scalar::Void) return failStatement(n, "a variable cannot be void");
  std::vector<int32_t> list;
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
    TSNode d = ts_node_named_child(n, i);
    const std::string_view k = typeOf(d);
    if (k == "identifier" || k == "init_declarator" || k == "array_declarator" || k == "pointer_declarator") {
      if (const int32_t s = declareOne(d, t, n); s >= 0) list.push_back(s);
    } else if (k == "function_declarator") {
      fail(d, "functions are declared outside kernels, with __device__");
    } else if (k == "reference_declarator") {
      fail(d, "references are outside the lab's CUDA subset");
    }
  }
  if (list.empty()) return -1;
  if (list.size() == 1) return list[0];
  return blockOf(list);
}

int32_t Lowerer::declareOne(TSNode d, const DeclaredType& t, TSNode declaration) {
  TSNode target = is(d, "init_declarator") ? field(d, "declarator") : d;
  TSNode value = is(d, "init_declarator") ? field(d, "value") : TSNode{};
  if (is(target, "array_declarator")) return declareArray(d, t, declaration);
  if (t.isShared) return failStatement(d, "a __shared__ variable must be an array in the lab's CUDA subset");
  if (is(target, "pointer_declarator")) return declarePointer(target, value, t);
  if (!is(target, "identifier"))
    return failStatement(d, outsideSubset(typeOf(target)) + " are outside the lab's CUDA subset");
  const std::string name(unit_.text(target));
  if (!ts_node_is_null(value) && is(value, "initializer_list"))
    return failStatement(value, "'" + name + "' is one value, not a list");
  if (t.scalar == Scalar::Float4) return declareFloat4(target, value);
  int32_t init = ts_node_is_null(value) ? -1 : convert(expr(value), t.scalar);
  Symbol s;
  s.type = t.scalar;
  s.isConst = t.isConst;
  if (t.isConst && init >= 0 && p_.exprs[size_t(init)].op == ExprOp::Const && isIntegral(t.scalar)) {
    s.kind = Symbol::Constant;  // usable as an array extent, as C++ allows
    s.constant = p_.exprs[size_t(init)].imm.i;
    declare(target, name, s);
    return -1;
  }
  s.slot = newSlot();
  Expr a = make(ExprOp::AssignLocal, t.scalar, d);
  a.slot = s.slot;
  a.b = init >= 0 ? init : constant(t.scalar, 0, d);
  declare(target, name, s);  // after its initializer: `int x = x;` reads no new x
  Stmt st{StmtOp::Expr};
  st.line = unit_.line(d);
  st.expr = add(a);
  return addStmt(st);
}

namespace {
// An array's side: past this its element count could wrap the interpreter's 32-bit extents.
constexpr int64_t kMaxArrayExtent = int64_t(1) << 24;
// A block's static shared memory at most, on every GPU (more needs the dynamic opt-in): the
// static arrays of a file together, as ptxas counts them.
constexpr int64_t kMaxStaticSharedBytes = 48 * 1024;
}  // namespace

// A __shared__ array the block's storage can hold: 4-byte cells (float, int, unsigned, bool),
// and the file's static arrays within a block's static shared memory together.
void Lowerer::checkSharedArray(TSNode d, Scalar element, const std::string& n, int64_t count) {
  if (element != Scalar::Float && element != Scalar::Int && element != Scalar::UInt && element != Scalar::Bool)
    fail(d, std::string("__shared__ arrays of ") + scalarName(element) +
                " are outside the lab's CUDA subset: float, int, unsigned or bool");
  staticSharedBytes_ += count * 4;
  if (staticSharedBytes_ > kMaxStaticSharedBytes)
    fail(d, "with '" + n + "' the __shared__ arrays take " + std::to_string(staticSharedBytes_) + " bytes; a block has " +
                std::to_string(kMaxStaticSharedBytes) + " bytes (48 KiB) of static shared memory");
}

// An array declarator's extents, outermost first (0: an extern array's missing size); empty
// after a mistake, which fail() has recorded.
std::vector<int64_t> Lowerer::arrayExtents(TSNode d, const DeclaredType& t, const std::vector<TSNode>& sizes,
                                           const std::string& n) {
  const auto refuse = [&](TSNode at, const std::string& message) {
    fail(at, message);
    return std::vector<int64_t>{};
  };
  std::vector<int64_t> extents;
  for (TSNode size : sizes) {
    if (ts_node_is_null(size)) {
      if (!(t.isShared && t.isExtern && sizes.size() == 1)) return refuse(d, "the array '" + n + "' needs a size");
      extents.push_back(0);
      continue;
    }
    const int64_t e = constantValue(size);
    if (failed()) return {};
    if (e <= 0) return refuse(size, "the size of '" + n + "' must be positive, not " + std::to_string(e));
    if (e > kMaxArrayExtent)
      return refuse(size, "the size of '" + n + "' is " + std::to_string(e) + ", more than the lab takes (" +
                              std::to_string(kMaxArrayExtent) + " elements)");
    extents.push_back(e);
  }
  return extents;
}

int32_t Lowerer::declareArray(TSNode d, const DeclaredType& t, TSNode) {
  TSNode target = is(d, "init_declarator") ? field(d, "declarator") : d;
  TSNode value = is(d, "init_declarator") ? field(d, "value") : TSNode{};
  std::vector<TSNode> sizes;
  TSNode name = target;
  while (is(name, "array_declarator")) {
    sizes.insert(sizes.begin(), field(name, "size"));
    name = field(name, "declarator");
  }
  if (!is(name, "identifier") || sizes.size() > 2)
    return failStatement(d, "arrays of one or two dimensions are in the lab's CUDA subset");
  const std::string n(unit_.text(name));
  Symbol s;
  s.type = t.scalar;
  const std::vector<int64_t> extents = arrayExtents(d, t, sizes, n);
  if (extents.empty()) return -1;
  s.rows = int32_t(extents[0]);
  s.cols = extents.size() == 2 ? int32_t(extents[1]) : 0;
  const int64_t count = extents.size() == 2 ? extents[0] * extents[1] : extents[0];
  Stmt st{StmtOp::Nop};
  st.line = unit_.line(d);
  if (t.isShared) {
    if (t.isExtern != (extents[0] == 0))
      return failStatement(d, "a dynamic shared array is 'extern __shared__ float name[];'");
    checkSharedArray(d, t.scalar, n, count);
    if (failed()) return -1;
    ArrayInfo a{t.isExtern ? ArrayKind::ExternShared : ArrayKind::Shared};
    a.element = t.scalar;
    a.name = n;
    a.traceId = p_.sharedDeclarations++;
    a.rows = s.rows;
    a.cols = s.cols;
    a.count = count;
    s.kind = Symbol::NamedArray;
    s.array = int32_t(p_.arrays.size());
    p_.arrays.push_back(a);
    st.op = StmtOp::DeclShared;
    st.slot = s.array;
    declare(name, n, s);
    if (!ts_node_is_null(value))
      return failStatement(value, "a __shared__ array cannot be initialised where it is declared");
    return addStmt(st);
  }
  if (count > 4096)
    return failStatement(d,
                         "the local array '" + n + "' is too large for a thread's registers (at most 4096 elements)");
  s.kind = Symbol::LocalArray;
  const int32_t slotsPerElement = t.scalar == Scalar::Float4 ? 4 : 1;
  if (slotsPerElement == 4 && (s.cols > 0 || !ts_node_is_null(value)))
    return failStatement(d, "a float4 array has one dimension and no initial values in the lab's CUDA subset");
  s.slot = newSlot(int32_t(count) * slotsPerElement);
  s.rows = s.cols > 0 ? s.rows : int32_t(count);
  st.op = StmtOp::DeclLocalArray;
  st.slot = s.slot;
  st.size = int32_t(count) * slotsPerElement;
  declare(name, n, s);
  const int32_t decl = addStmt(st);
  if (ts_node_is_null(value)) return decl;
  if (!is(value, "initializer_list")) return failStatement(value, "an array is initialised with a list: {0, 1, ...}");
  std::vector<int32_t> list = {decl};
  for (uint32_t i = 0; i < ts_node_named_child_count(value); ++i) {
    if (int64_t(i) >= count) return failStatement(value, "more values than '" + n + "' has elements");
    Expr a = make(ExprOp::AssignLocal, t.scalar, value);
    a.slot = s.slot + int32_t(i);
    a.b = convert(expr(ts_node_named_child(value, i)), t.scalar);
    Stmt e{StmtOp::Expr};
    e.line = unit_.line(value);
    e.expr = add(a);
    list.push_back(addStmt(e));
  }
  return blockOf(list);
}

// `float4 m4 = ...;`: four float slots, zero until written.
int32_t Lowerer::declareFloat4(TSNode target, TSNode value) {
  Symbol s;
  s.type = Scalar::Float4;
  s.slot = newSlot(4);
  Stmt zero{StmtOp::DeclLocalArray};
  zero.line = unit_.line(target);
  zero.slot = s.slot;
  zero.size = 4;
  std::vector<int32_t> list = {addStmt(zero)};
  if (!ts_node_is_null(value)) {
    const int32_t init = expr(value);
    Expr local = make(ExprOp::Local, Scalar::Float4, target);
    local.slot = s.slot;
    Stmt st{StmtOp::Expr};
    st.line = unit_.line(target);
    st.expr = assignWide(target, add(local), init);
    list.push_back(addStmt(st));
  }
  declare(target, std::string(unit_.text(target)), s);
  return blockOf(list);
}

namespace {
// The array a pointer expression starts from, when the text says (-1: not known).
int32_t staticBase(const Program& p, int32_t e, const std::vector<int32_t>& slotBase) {
  const Expr& x = p.exprs[size_t(e)];
  if (x.op == ExprOp::ArrayBase) return x.slot;
  if (x.op == ExprOp::PtrAdd) return staticBase(p, x.a, slotBase);
  if (x.op == ExprOp::Local && x.slot >= 0 && size_t(x.slot) < slotBase.size()) return slotBase[size_t(x.slot)];
  return -1;
}
}  // namespace

// `float* Nds = Mds_Nds + Mds_sz;`: a pointer into a shared array is a view of its own for the
// trace (its own number and name, its elements counted from where it starts), as the
// declaration rewrite makes it; a pointer into a matrix stays an element of that matrix.
int32_t Lowerer::declarePointer(TSNode target, TSNode value, const DeclaredType& t) {
  TSNode name = field(target, "declarator");
  if (!is(name, "identifier")) return failStatement(target, "pointers to pointers are outside the lab's CUDA subset");
  const std::string n(unit_.text(name));
  if (ts_node_is_null(value))
    return failStatement(target, "the pointer '" + n + "' must be set where it is declared (float* p = M + i;)");
  const int32_t init = expr(value);
  if (failed()) return -1;
  if (p_.exprs[size_t(init)].type != Scalar::Pointer)
    return failStatement(value, "'" + n + "' is a pointer: give it an array or a pointer");
  if (p_.exprs[size_t(init)].operand != t.scalar)
    return failStatement(value, std::string("'") + n + "' points to " + scalarName(t.scalar) + ", but this is a pointer to " +
                    scalarName(p_.exprs[size_t(init)].operand));
  Symbol s;
  s.type = Scalar::Pointer;
  s.pointee = t.scalar;
  s.slot = newSlot();
  const int32_t base = staticBase(p_, init, pointerBase_);
  Stmt st{StmtOp::Expr};
  st.line = unit_.line(target);
  if (base >= 0 && p_.arrays[size_t(base)].kind != ArrayKind::Global) {
    ArrayInfo a{ArrayKind::Alias};
    a.element = t.scalar;
    a.name = n;
    a.traceId = p_.sharedDeclarations++;
    s.array = int32_t(p_.arrays.size());
    p_.arrays.push_back(a);
    st.op = StmtOp::DeclAlias;
    st.slot = s.array;
    st.init = s.slot;
    st.expr = init;
  } else {
    Expr a = make(ExprOp::AssignLocal, Scalar::Pointer, target);
    a.slot = s.slot;
    a.operand = t.scalar;
    a.b = init;
    st.expr = add(a);
  }
  if (pointerBase_.size() <= size_t(s.slot)) pointerBase_.resize(size_t(s.slot) + 1, -1);
  pointerBase_[size_t(s.slot)] = s.array >= 0 ? s.array : base;
  declare(name, n, s);
  return addStmt(st);
}

}  // namespace tilescope::interp
