// What may stand at namespace scope in a lab kernel (lab_source.h: checkStudentSource).
//
// The GPU compiles a lab file as device code; the emulator compiles the same text with g++ as
// host code, where anything outside a kernel would run (a static initializer runs when the
// kernel is loaded, before any check of ours). So the emulator's build takes what NVRTC
// would take as device code and nothing more: kernels, __device__ functions, __device__ /
// __constant__ / __shared__ variables, constants (constexpr, or const with a constant
// initializer), types, typedefs, using, templates of those, #defines. The rest is refused at
// its line, before anything is compiled.
//
// Read from the one tokenizer (kernels/rewrite), one pass over the tokens: brackets are
// matched once up front, so the whole check is linear in the file.
#include <array>
#include <string>
#include <unordered_set>

#include "lab_scope_check.h"

namespace tilescope::lab {

namespace {

constexpr std::size_t kNone = std::size_t(-1);

// Types a function-style cast may name in a constant initializer (`float(3)`).
bool builtinType(std::string_view id) {
  static constexpr std::array kTypes = {"int",      "unsigned", "signed", "float", "double", "char",   "short",
                                        "long",     "bool",     "size_t", "void",  "int32_t", "uint32_t",
                                        "int64_t",  "uint64_t", "sizeof", "alignof"};
  for (const char* t : kTypes)
    if (id == t) return true;
  return false;
}
// Words before a `(` that are not the parameter list of a function.
bool attributeWord(std::string_view id) {
  return id == "__launch_bounds__" || id == "__attribute__" || id == "alignas" || id == "__align__" ||
         id == "decltype" || id == "__declspec" || id == "noexcept";
}

class ScopeChecker {
 public:
  ScopeChecker(const std::vector<SourceToken>& tokens, std::string_view text, std::string_view file)
      : t_(tokens), text_(text), file_(file), match_(tokens.size(), kNone) {}

  std::optional<LabDiagnostic> run() {
    // Matching brackets, once. An unbalanced file is the rewrite's and the compiler's to
    // report (a fragment of a kernel says so better than we could).
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const std::string_view s = t_[i].text;
      if (s == "(" || s == "[" || s == "{") open.push_back(i);
      else if (s == ")" || s == "]" || s == "}") {
        if (open.empty() || !closes(t_[open.back()].text, s)) return std::nullopt;
        match_[open.back()] = i;
        open.pop_back();
      }
    }
    if (!open.empty()) return std::nullopt;
    return scope(0, t_.size());
  }

 private:
  static bool closes(std::string_view o, std::string_view c) {
    return (o == "(" && c == ")") || (o == "[" && c == "]") || (o == "{" && c == "}");
  }
  bool is(std::size_t i, std::string_view s) const { return i < t_.size() && t_[i].text == s; }
  bool opens(std::size_t i) const { return match_[i] != kNone; }
  bool ident(std::size_t i) const { return i < t_.size() && t_[i].kind == TokenKind::Identifier; }

  LabDiagnostic at(std::size_t i, std::string message) const {
    const std::size_t offset = t_[i].offset;
    const std::size_t lineStart = text_.rfind('\n', offset == 0 ? 0 : offset - 1);
    const int column = int(offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
    return LabDiagnostic{std::string(file_), t_[i].line, offset == 0 ? 1 : column, std::move(message)};
  }

  // The end (the ';' or the closing '}') of the declaration or definition starting at i: a
  // function's body ends it; a type's body may be followed by declarators (`struct S {} s;`);
  // braces after '=' are an initializer.
  std::size_t skipDeclaration(std::size_t i, std::size_t to) const {
    bool classKey = false, paren = false, equals = false;
    for (; i < to; ++i) {
      const std::string_view w = t_[i].text;
      if (w == ";") return i;
      classKey |= w == "struct" || w == "class" || w == "union" || w == "enum";
      paren |= w == "(";
      equals |= w == "=";
      if (w == "{" && !equals && !(classKey && !paren)) return match_[i];
      if (opens(i)) i = match_[i];
    }
    return to;
  }

  // `template < ... >` with its '<' at i: the index after the closing '>' (parentheses may hold '>').
  std::size_t skipTemplateHeader(std::size_t i, std::size_t to) const {
    int depth = 0;
    for (std::size_t k = i; k < to; ++k) {
      if (opens(k)) k = match_[k];
      else if (is(k, "<")) ++depth;
      else if (is(k, ">") && --depth == 0) return k + 1;
    }
    return to;
  }

  std::optional<LabDiagnostic> scope(std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to;) {
      if (is(i, ";")) {
        ++i;
      } else if (is(i, "namespace")) {
        std::size_t k = i + 1;
        while (k < to && !is(k, "{") && !is(k, ";")) ++k;
        if (is(k, "{")) {
          if (auto d = scope(k + 1, match_[k])) return d;
          i = match_[k] + 1;
        } else {
          i = k + 1;  // namespace alias
        }
      } else if (is(i, "extern") && i + 2 < to && t_[i + 1].kind == TokenKind::Literal && is(i + 2, "{")) {
        if (auto d = scope(i + 3, match_[i + 2])) return d;  // extern "C" { ... }
        i = match_[i + 2] + 1;
      } else if (is(i, "template") && is(i + 1, "<")) {
        i = skipTemplateHeader(i + 1, to);  // what follows is checked like any declaration
      } else if (is(i, "typedef") || is(i, "using") || is(i, "static_assert")) {
        i = skipDeclaration(i, to) + 1;
      } else {
        const std::size_t end = skipDeclaration(i, to);
        if (auto d = declaration(i, std::min(end + 1, to), false)) return d;
        i = end + 1;
      }
    }
    return std::nullopt;
  }

  // The members of a struct, class or union body [from, to): member functions are code too.
  std::optional<LabDiagnostic> classBody(std::size_t from, std::size_t to, std::string_view className) {
    for (std::size_t i = from; i < to;) {
      if (is(i, ";")) {
        ++i;
      } else if ((is(i, "public") || is(i, "private") || is(i, "protected")) && is(i + 1, ":")) {
        i += 2;
      } else if (is(i, "template") && is(i + 1, "<")) {
        i = skipTemplateHeader(i + 1, to);
      } else if (is(i, "typedef") || is(i, "using") || is(i, "static_assert") || is(i, "friend")) {
        i = skipDeclaration(i, to) + 1;
      } else {
        const std::size_t end = skipDeclaration(i, to);
        currentClass_ = className;
        if (auto d = declaration(i, std::min(end + 1, to), true)) return d;
        i = end + 1;
      }
    }
    return std::nullopt;
  }

  struct Shape {
    std::size_t typeBody = kNone;   // '{' of a struct/class/union/enum body
    std::size_t params = kNone;     // '(' of a function's parameters
    std::size_t name = kNone;       // the function's or variable's name
    std::size_t init = kNone;       // '=' or the '(' / '{' of a variable's initializer
    std::size_t body = kNone;       // '{' of a function body
    bool device = false, global = false, host = false, constexpr_ = false, constant = false, isStatic = false;
    bool pointerNotConst = false;   // `const float* p`: the pointer itself is not const
    bool usesClassWithCode = false; // its type is a struct of this file with a constructor
    bool isClassKey = false, isEnum = false;
  };

  Shape shapeOf(std::size_t from, std::size_t to) const {
    Shape s;
    bool afterStar = false;
    for (std::size_t i = from; i < to; ++i) {
      const std::string_view w = t_[i].text;
      if (s.init == kNone && s.params == kNone) {
        if (w == "__device__" || w == "__constant__" || w == "__shared__" || w == "__managed__") s.device = true;
        if (w == "__global__") s.global = true;
        if (w == "__host__") s.host = true;
        if (w == "constexpr" || w == "consteval" || w == "constinit") s.constexpr_ = true;
        if (w == "static") s.isStatic = true;
        if (w == "const") s.constant = true, afterStar = false;
        if (w == "*") s.pointerNotConst = true, afterStar = true;
        if (afterStar && w == "const") s.pointerNotConst = false;
        if ((w == "struct" || w == "class" || w == "union" || w == "enum") && s.typeBody == kNone) {
          s.isClassKey = w != "enum";
          s.isEnum = w == "enum";
          std::size_t k = i + 1;
          while (k < to && !is(k, "{") && !is(k, ";") && !is(k, "(") && !is(k, "=")) ++k;
          if (is(k, "{")) {
            s.typeBody = k;
            i = match_[k];
            continue;
          }
        }
        if (w == "=") {
          s.init = i;
          continue;
        }
        const bool operatorName = i > from && (is(i - 1, "operator") || (i > from + 1 && is(i - 2, "operator")));
        if (w == "(" && i > from && !attributeWord(t_[i - 1].text) && (ident(i - 1) || operatorName)) {
          // `name(` is a function, unless it holds values (`Foo f(3);`, a constructor call).
          bool values = false;
          for (std::size_t k = i + 1; k < match_[i]; ++k)
            values |= t_[k].kind == TokenKind::Number || t_[k].kind == TokenKind::Literal;
          if (values) {
            s.init = i;
          } else {
            s.params = i;
            s.name = i - 1;
          }
          i = match_[i];
          continue;
        }
        if (w == "{" && s.name != kNone) {  // `int x{3};`
          s.init = i;
          continue;
        }
        if (ident(i)) s.name = i;
      } else if (s.params != kNone && s.body == kNone && w == "{" && s.init == kNone) {
        s.body = i;
      }
      if (ident(i) && classesWithCode_.count(w)) s.usesClassWithCode = true;
      if (opens(i) && s.init == kNone && s.params == kNone) i = match_[i];  // declarators: `a[3]`
    }
    // `operator+(...)`: the name is the word `operator`.
    for (std::size_t i = from; s.params != kNone && i < s.params; ++i)
      if (is(i, "operator")) s.name = i;
    return s;
  }

  // A constant initializer, as far as tokens tell: no call (but a cast to a built-in type),
  // no lambda, no `new`: nothing that runs code when the program starts.
  std::optional<std::size_t> runsCode(std::size_t from, std::size_t to) const {
    for (std::size_t i = from; i < to; ++i) {
      const bool call = ident(i) && is(i + 1, "(") && !builtinType(t_[i].text);
      const bool lambda = is(i, "[") && i > 0 && !ident(i - 1) && !is(i - 1, "]") && !is(i - 1, ")");
      if (call || lambda || is(i, "new") || is(i, "throw")) return i;
    }
    return std::nullopt;
  }

  std::optional<LabDiagnostic> declaration(std::size_t from, std::size_t to, bool member) {
    const Shape s = shapeOf(from, to);
    if (s.typeBody != kNone && s.isClassKey) {
      std::size_t nameAt = s.typeBody;
      std::string_view className;
      if (nameAt > from && ident(nameAt - 1)) className = t_[nameAt - 1].text;
      const std::string_view outer = currentClass_;
      if (auto d = classBody(s.typeBody + 1, match_[s.typeBody], className)) return d;
      currentClass_ = outer;
    }
    if (s.params != kNone) return function(s, member);
    // A type definition alone, or a declaration that ends right after the type's body.
    const std::size_t afterType = s.typeBody == kNone ? from : match_[s.typeBody] + 1;
    if (s.typeBody != kNone && (afterType >= to || is(afterType, ";"))) return std::nullopt;
    if (s.name == kNone) return std::nullopt;  // nothing declared (`;`, a bare keyword)
    if (member) {
      // Data members are initialised by the constructor, which runs where the object is
      // made (on the device); only a static member initialised at load time is host code.
      if (s.isStatic && s.init != kNone && !s.constexpr_)
        if (auto call = runsCode(s.init, to)) return initializerRunsCode(from, *call);
      return std::nullopt;
    }
    return variable(s, from, to);
  }

  std::optional<LabDiagnostic> function(const Shape& s, bool member) {
    const std::string name(t_[s.name].text);
    // A constructor makes its class's objects run code when they are made.
    if (member && name == currentClass_) classesWithCode_.insert(currentClass_);
    if (s.global || s.device) return std::nullopt;
    if (name == "main")
      return at(s.name, "'main' is host code: the lab launches the kernel itself (grid, block, sizes and the copies "
                        "of M, N and P come from the run's settings), so a lab file holds no main; remove it and "
                        "any other host code");
    const std::string what = member ? "the member function '" + name + "'" : "the function '" + name + "'";
    const std::string host = what + " is host code" + (s.host ? " (__host__ only)" : "");
    // Where the kernel calls it is the line the student looks at (the call is the error on a
    // GPU); the definition's line is named in the words.
    if (!member)
      if (auto call = callInKernel(t_[s.name].text))
        return at(*call, host + " (defined at line " + std::to_string(t_[s.name].line) +
                             "), called here from the kernel: a kernel can call only device functions; mark '" +
                             name + "' __device__ (or __host__ __device__) where it is defined");
    return at(s.name, host + ": a lab file is device code, as the GPU compiles it; mark a helper __device__ "
                             "(or __host__ __device__), or move its work into the __global__ kernel");
  }

  // The first call of `name` in the body of a __global__ function (not a member's call).
  std::optional<std::size_t> callInKernel(std::string_view name) const {
    for (std::size_t g = 0; g < t_.size(); ++g) {
      if (!is(g, "__global__")) continue;
      std::size_t open = g;
      while (open < t_.size() && !is(open, "{") && !is(open, ";")) open = opens(open) ? match_[open] + 1 : open + 1;
      if (!is(open, "{") || !opens(open)) continue;
      for (std::size_t i = open + 1; i < match_[open]; ++i)
        if (ident(i) && t_[i].text == name && is(i + 1, "(") && !is(i - 1, ".") && !is(i - 1, "->") && !is(i - 1, "::"))
          return i;
      g = match_[open];
    }
    return std::nullopt;
  }

  LabDiagnostic initializerRunsCode(std::size_t declaration, std::size_t call) const {
    return at(declaration, "this initializer runs code when the kernel is loaded ('" + std::string(t_[call].text) +
                               "' is called before any kernel starts, on the host): a lab file is device code; "
                               "compute the value inside the kernel, or make it a constexpr constant");
  }

  std::optional<LabDiagnostic> variable(const Shape& s, std::size_t from, std::size_t to) {
    const std::string name(t_[s.name].text);
    if (s.usesClassWithCode && !s.constexpr_)
      return at(from, "'" + name + "' is made by a constructor when the kernel is loaded, on the host: a lab file "
                      "is device code; make the object inside the kernel");
    if (s.init != kNone && !s.constexpr_)
      if (auto call = runsCode(s.init, to)) return initializerRunsCode(from, *call);
    if (s.device || s.constexpr_ || (s.constant && !s.pointerNotConst)) return std::nullopt;
    return at(from, "'" + name + "' is a variable in host memory, which a kernel on the GPU cannot reach: declare "
                    "it inside the kernel, make it a constant (constexpr, or const with a value), or declare it "
                    "__device__ or __constant__");
  }

  const std::vector<SourceToken>& t_;
  std::string_view text_, file_;
  std::vector<std::size_t> match_;
  std::unordered_set<std::string_view> classesWithCode_;
  std::string_view currentClass_;
};

}  // namespace

std::optional<LabDiagnostic> checkNamespaceScope(const std::vector<SourceToken>& tokens, std::string_view text,
                                                 std::string_view fileName) {
  // A file without a kernel is a fragment: readKernelSource says so, which helps more.
  bool kernel = false;
  for (const SourceToken& t : tokens) kernel |= t.kind == TokenKind::Identifier && t.text == "__global__";
  if (!kernel) return std::nullopt;
  return ScopeChecker(tokens, text, fileName).run();
}

std::optional<LabDiagnostic> checkConditionalCode(const std::vector<PreprocessorToken>& tokens, std::string_view fileName) {
  int depth = 0;
  int openedAt = 0;  // the line of the outermost open #if
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const PreprocessorToken& t = tokens[i];
    if (t.inDirective) {
      // A directive's name is the token after its '#'.
      if (i == 0 || tokens[i - 1].text != "#" || !tokens[i - 1].inDirective || t.kind != PreprocessorToken::Kind::Identifier)
        continue;
      if (t.text == "if" || t.text == "ifdef" || t.text == "ifndef") {
        if (depth++ == 0) openedAt = t.line;
      } else if (t.text == "endif" && depth > 0) {
        --depth;
      }
      continue;
    }
    if (depth > 0)
      return LabDiagnostic{std::string(fileName), t.line, t.column,
                           "code inside the #if block of line " + std::to_string(openedAt) +
                               ": the lab checks a file as written, while the compiler reads only the blocks whose "
                               "condition holds, so a lab kernel keeps its code outside #if, #ifdef and #ifndef "
                               "(they may hold #define lines: #ifndef TILE_WIDTH / #define TILE_WIDTH 16 / #endif)"};
  }
  return std::nullopt;
}

namespace {
bool arithmeticWord(std::string_view w) {
  static constexpr std::array kWords = {"float",   "double",   "int",     "unsigned", "signed",  "char",
                                        "short",   "long",     "bool",    "size_t",   "int8_t",  "uint8_t",
                                        "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t"};
  for (const char* a : kWords)
    if (w == a) return true;
  return false;
}
bool qualifierWord(std::string_view w) {
  return w == "const" || w == "volatile" || w == "extern" || w == "static" || w == "__shared__" ||
         w == "__align__" || w == "alignas" || w == "__restrict__";
}
// Names the file gives an arithmetic type: `typedef float real;`, `using real = float;`.
std::unordered_set<std::string_view> arithmeticAliases(const std::vector<SourceToken>& t) {
  std::unordered_set<std::string_view> names;
  auto arithmetic = [&](std::size_t from, std::size_t to) {
    bool any = false;
    for (std::size_t k = from; k < to; ++k) {
      if (!arithmeticWord(t[k].text) && !names.count(t[k].text) && !qualifierWord(t[k].text)) return false;
      any = true;
    }
    return any;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::size_t semi = i;
    while (semi < t.size() && t[semi].text != ";") ++semi;
    if (semi >= t.size() || semi < i + 3) continue;
    if (t[i].text == "typedef" && t[semi - 1].kind == TokenKind::Identifier && arithmetic(i + 1, semi - 1))
      names.insert(t[semi - 1].text);
    if (t[i].text == "using" && t[i + 2].text == "=" && arithmetic(i + 3, semi)) names.insert(t[i + 1].text);
  }
  return names;
}
}  // namespace

std::optional<LabDiagnostic> checkSharedTypes(const std::vector<SourceToken>& t, std::string_view text,
                                              std::string_view fileName) {
  const auto aliases = arithmeticAliases(t);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].text != "__shared__") continue;
    // The type: the words from __shared__ to the name (the identifier before '[', ';' or '=').
    std::size_t end = i + 1;
    while (end < t.size() && t[end].text != "[" && t[end].text != ";" && t[end].text != "=" && t[end].text != ",") ++end;
    std::string type;
    bool arithmetic = end > i + 2;
    for (std::size_t k = i + 1; k + 1 < end; ++k) {
      if (t[k].text == "(" || t[k].text == ")") continue;  // __align__(16)
      if (qualifierWord(t[k].text) || t[k].kind == TokenKind::Number) continue;
      type += (type.empty() ? "" : " ") + std::string(t[k].text);
      arithmetic = arithmetic && (arithmeticWord(t[k].text) || aliases.count(t[k].text));
    }
    if (arithmetic) continue;
    const std::size_t lineStart = text.rfind('\n', t[i].offset == 0 ? 0 : t[i].offset - 1);
    const int column = int(t[i].offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
    const std::string name = end > i + 1 ? std::string(t[end - 1].text) : "";
    return LabDiagnostic{std::string(fileName), t[i].line, column,
                         "the __shared__ variable '" + name + "' is of type '" + type +
                             "': the lab records shared memory as arrays of numbers (float, int, ...), and the "
                             "members of a struct, class or union would be read and written unseen; declare each "
                             "tile as its own array: `__shared__ float " + (name.empty() ? "Tile" : name) +
                             "[TILE_WIDTH][TILE_WIDTH];`"};
  }
  return std::nullopt;
}

}  // namespace tilescope::lab
