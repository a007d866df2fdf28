// Lowering: the checked tree of one kernel instantiation into a Program (program.h). Names
// are resolved through lexical scopes to frame slots, array numbers, constants and functions;
// every expression gets its type, with C's conversions made explicit. Anything outside the
// subset stops lowering with one sentence at the student's line (the Lowerer's error(), turned
// into the Instance's diagnostic).
//
// No C++ exception: the page is built without them. fail() records the first mistake, and the
// function that found it returns at once with a placeholder (placeholder(): a valid expression
// of type int; -1: no statement); every expression and statement begun after a failure returns
// a placeholder at its start, and a caller checks failed() before it reads a result past its
// index (a function, a symbol, an array). So the first mistake is the one told, as a throw
// told it, and what was lowered after it is never run.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "lab/interp/parse_tree.h"
#include "lab/interp/program.h"

namespace tilescope::interp {

// What a name means where it is used.
struct Symbol {
  enum Kind { Variable, Constant, LocalArray, NamedArray } kind = Variable;
  Scalar type = Scalar::Int;     // a variable's or constant's type; an array's element type
  Scalar pointee = Scalar::Void;  // a pointer variable's element type
  int32_t slot = -1;              // Variable / LocalArray: frame slot
  int32_t array = -1;             // NamedArray: array number
  int32_t rows = 0, cols = 0;     // LocalArray / NamedArray extents (cols 0: one dimension)
  int64_t constant = 0;           // Constant (template parameter, constexpr)
  bool isConst = false;
};

// A declared type as the subset knows it: a scalar, or a pointer to one.
struct DeclaredType {
  Scalar scalar = Scalar::Int;
  bool isConst = false, isShared = false, isExtern = false, isStatic = false;
};

class Lowerer {
 public:
  Lowerer(const Unit& unit, Program& program) : unit_(unit), p_(program) {}
  void lowerKernel(TSNode function, TSNode templateParameters, const std::vector<long long>& templateArguments);

  int32_t fail(TSNode at, const std::string& message);  // records the first mistake; placeholder()
  int32_t failAt(int line, int column, const std::string& message);
  bool failed() const { return error_.has_value(); }
  const std::optional<Diagnostic>& error() const { return error_; }
  int32_t placeholder();  // an expression to return after a failure: the constant int 0
  int32_t failStatement(TSNode at, const std::string& message) {  // fail(), and no statement (-1)
    fail(at, message);
    return -1;
  }

  // lower.cpp: scopes, types, declarations, functions
  void pushScope() { scopes_.emplace_back(); }
  void popScope() { scopes_.pop_back(); }
  void declare(TSNode at, const std::string& name, const Symbol& s);
  const Symbol* find(const std::string& name) const;
  int32_t undeclared(TSNode at, const std::string& name);  // fail(): not declared, and the nearest names
  DeclaredType declaredType(TSNode declaration);
  int32_t newSlot(int32_t count = 1);
  int32_t lowerDeclaration(TSNode declaration);  // a statement (or -1 when it needs none)
  int32_t functionFor(TSNode at, const std::string& name);
  int64_t constantValue(TSNode expression);

  // lower_expr.cpp
  int32_t expr(TSNode n);  // exprAt with the nesting bounded
  int32_t convert(int32_t e, Scalar to);
  int32_t condition(TSNode n);  // an expression tested for truth: Bool
  int32_t add(Expr e) {
    p_.exprs.push_back(e);
    return int32_t(p_.exprs.size() - 1);
  }
  Expr make(ExprOp op, Scalar type, TSNode at) const;
  int32_t constant(Scalar type, int64_t v, TSNode at);

  // lower_stmt.cpp
  int32_t statement(TSNode n);  // statementAt with the nesting bounded
  int32_t addStmt(Stmt s) {
    p_.stmts.push_back(s);
    return int32_t(p_.stmts.size() - 1);
  }
  int32_t block(TSNode compound, bool ownScope);
  int32_t blockOf(const std::vector<int32_t>& list, int32_t line = 0);  // a Block of these statements

  const Unit& unit_;
  Program& p_;
  std::vector<int32_t> pointerBase_;  // [slot]: the array a pointer variable starts from, or -1

 private:
  int32_t binary(TSNode n);
  int32_t assignment(TSNode n);
  int32_t update(TSNode n);
  int32_t subscript(TSNode n);
  int32_t call(TSNode n);
  int32_t printfCall(TSNode n, TSNode argumentList);
  int32_t mathCall(TSNode n, const std::string& name, const std::vector<int32_t>& args);
  int32_t identifier(TSNode n);
  int32_t fieldExpression(TSNode n);
  int32_t number(TSNode n);
  int32_t castTo(TSNode typeNode, TSNode value, TSNode at);
  int32_t pointerExpression(TSNode n);
  int32_t wideAccess(TSNode n);
  int32_t float4Part(TSNode n);
  int32_t assignWide(TSNode n, int32_t target, int32_t value);
  int32_t switchStatement(TSNode n);
  int32_t forStatement(TSNode n);
  int32_t declareOne(TSNode declarator, const DeclaredType& t, TSNode declaration);
  int32_t declareArray(TSNode declarator, const DeclaredType& t, TSNode declaration);
  std::vector<int64_t> arrayExtents(TSNode declarator, const DeclaredType& t, const std::vector<TSNode>& sizes,
                                    const std::string& name);
  void checkSharedArray(TSNode declarator, Scalar element, const std::string& name, int64_t count);
  int32_t declarePointer(TSNode declarator, TSNode value, const DeclaredType& t);
  int32_t declareFloat4(TSNode target, TSNode value);
  void lowerFunctionBody(Function& f, TSNode function, int32_t index);

  std::vector<std::unordered_map<std::string, Symbol>> scopes_;
  std::unordered_map<std::string, int32_t> functionIndex_;
  int32_t frameSlots_ = 0;
  int64_t staticSharedBytes_ = 0;  // every static __shared__ array of the file so far
  int32_t loopDepth_ = 0, switchDepth_ = 0;
  int32_t exprDepth_ = 0, stmtDepth_ = 0;  // nesting, bounded: the interpreter recurses on a fiber's stack
  int32_t exprAt(TSNode n);
  int32_t statementAt(TSNode n);
  Scalar returnType_ = Scalar::Void;
  std::optional<Diagnostic> error_;
};

// C's integer promotion (bool to int) and usual arithmetic conversions.
inline Scalar promote(Scalar s) { return s == Scalar::Bool ? Scalar::Int : s; }
inline Scalar usualArithmetic(Scalar a, Scalar b) {
  if (a == Scalar::Double || b == Scalar::Double) return Scalar::Double;
  if (a == Scalar::Float || b == Scalar::Float) return Scalar::Float;
  a = promote(a);
  b = promote(b);
  if (a == b) return a;
  if (a == Scalar::ULong || b == Scalar::ULong) return Scalar::ULong;
  if (a == Scalar::Long || b == Scalar::Long) return Scalar::Long;
  return Scalar::UInt;  // int with unsigned
}

// A readable name of a node type for "X are outside the lab's CUDA subset".
std::string outsideSubset(std::string_view nodeType);

}  // namespace tilescope::interp
