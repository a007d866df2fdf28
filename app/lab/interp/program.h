// The lowered program: a compact typed tree with every name resolved to a slot, an array
// number or a function number, so the interpreter does no lookup by name while it runs.
//
// Expressions and statements live in flat vectors and refer to each other by index. Every
// expression carries its result type, chosen when it was lowered (C's usual arithmetic
// conversions made explicit as Cast nodes), so evaluation never asks what a value is.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::interp {

// Types of the subset. Int and UInt are 32-bit, Long and ULong (size_t) 64-bit. A float4 (the
// ladder's 128-bit accesses) lives in four consecutive frame slots, one float each.
enum class Scalar : uint8_t { Void, Bool, Int, UInt, Long, ULong, Float, Double, Pointer, Float4 };

const char* scalarName(Scalar s);
inline bool isFloating(Scalar s) { return s == Scalar::Float || s == Scalar::Double; }
inline bool isIntegral(Scalar s) { return s >= Scalar::Bool && s <= Scalar::ULong; }

// One value. Integers are kept sign- or zero-extended to 64 bits after every operation of
// their own width; a pointer is an array number and an element offset into that array.
struct Value {
  union {
    int64_t i;
    uint64_t u;
    float f;
    double d;
  };
  int32_t array;
  static Value ofInt(int64_t v) {
    Value x;
    x.i = v;
    x.array = -1;
    return x;
  }
};

enum class ExprOp : uint8_t {
  Const, Local, Builtin, Cast,
  Neg, BitNot, LogNot,
  Add, Sub, Mul, Div, Mod, Shl, Shr, BitAnd, BitOr, BitXor,
  Lt, Le, Gt, Ge, Eq, Ne, LogAnd, LogOr, Cond, Comma,
  AssignLocal, CompoundLocal, IncLocal,   // slot; CompoundLocal's arithmetic op in `arith`
  Element, Element2, LocalElement, LocalElement2,  // reads
  AssignElement, CompoundElement,         // a: an element expression (not evaluated as a read)
  ArrayBase, PtrAdd,                      // pointers: an array's start, pointer + integer
  Call, Math, Printf, Sync,
  Wide, MakeFloat4, AssignWide,  // float4: a 128-bit element access (a: its first element), make_float4, =
};

// Which built-in coordinate (threadIdx.x .. gridDim.z) a Builtin reads.
enum class BuiltinId : uint8_t { ThreadX, ThreadY, ThreadZ, BlockX, BlockY, BlockZ, DimX, DimY, DimZ, GridX, GridY, GridZ };

// The math a kernel may call (Expr::slot of a Math node). The f-suffixed ones compute in
// float, as CUDA's do; Min, Max and Abs in the type of their arguments.
enum class MathFn : int32_t {
  Fmaf, Sqrtf, Sqrt, Fabsf, Fabs, Fminf, Fmaxf, Expf, Exp, Logf, Log, Powf, Pow, Sinf, Cosf, Sin, Cos,
  Floorf, Ceilf, Floor, Ceil, Roundf, Truncf, Rsqrtf, Exp2f, Log2f, Tanhf, Fdividef, Fma,
  Min, Max, Abs, CeilDiv,
};

struct Expr {
  ExprOp op;
  Scalar type;        // of the result
  Scalar operand = Scalar::Void;  // comparisons and Cast: the operands' type; compound ops: the arithmetic's
  ExprOp arith = ExprOp::Const;   // CompoundLocal / CompoundElement: the operation
  bool post = false;              // IncLocal / CompoundElement as x++: the old value is the result
  int32_t a = -1, b = -1, c = -1;  // operands (expression indices)
  int32_t slot = -1;  // Local*: frame slot; Element2/ArrayBase: array number; Call: function; Math: which
  int32_t rows = 0, cols = 0;  // local arrays: extents (cols 0 for 1-D)
  int32_t argsFirst = 0, argsCount = 0;  // Call / Math / Printf: into Program::args
  int32_t line = 0, column = 0;
  Value imm{};  // Const: the constant; IncLocal: +1 or -1
};

enum class StmtOp : uint8_t {
  Nop, Expr, Block, If, For, While, DoWhile, Break, Continue, Return, Switch,
  DeclShared, DeclAlias, DeclLocalArray,
};

struct Stmt {
  StmtOp op;
  int32_t expr = -1;   // Expr, If/While/DoWhile/For/Switch condition, Return value, DeclAlias pointer
  int32_t init = -1;   // For: its first statement
  int32_t update = -1;  // For: expression
  int32_t body = -1, otherwise = -1;  // statements
  int32_t first = 0, count = 0;  // Block: into Program::children; Switch: into Program::cases
  int32_t slot = -1;   // DeclShared/DeclAlias: array number; DeclLocalArray: first slot
  int32_t size = 0;    // DeclLocalArray: elements
  int32_t line = 0;
};

struct SwitchCase {
  int64_t value;
  bool isDefault;
  int32_t statement;  // index into the switch body's block children where it starts
};

enum class ArrayKind : uint8_t { Global, Shared, ExternShared, Alias };

// An array the kernel reaches by name or through a pointer: the matrices (the first three
// pointer parameters, M, N and P), each __shared__ declaration and each local pointer into a
// shared array (a view of its own for the trace, as the declaration rewrite makes it).
struct ArrayInfo {
  ArrayKind kind;
  Scalar element = Scalar::Float;
  std::string name;
  int32_t traceId = -1;     // shared: number in declaration order (the recorder's array)
  int32_t rows = 1, cols = 0;  // a static 2-D shared array: [rows][cols]; 1-D: cols 0
  int64_t count = 0;        // static shared: elements
  int32_t role = 3;         // global: MatrixRole (M 0, N 1, P 2)
  int32_t parameter = -1;   // global: which kernel parameter
};

struct Function {
  std::string name;
  Scalar result = Scalar::Void;
  std::vector<Scalar> parameters;  // a pointer parameter is Scalar::Pointer
  int32_t body = -1;
  int32_t frameSlots = 0;
  int32_t line = 0;
};

// A kernel ready to run: one instantiation (its template arguments bound).
struct Program {
  std::vector<Expr> exprs;
  std::vector<Stmt> stmts;
  std::vector<int32_t> children;  // blocks' statements
  std::vector<int32_t> args;      // calls' argument expressions
  std::vector<SwitchCase> cases;
  std::vector<std::string> strings;  // printf formats
  std::vector<ArrayInfo> arrays;
  std::vector<Function> functions;  // [0] is the kernel
  int32_t sharedDeclarations = 0;
};

}  // namespace tilescope::interp
