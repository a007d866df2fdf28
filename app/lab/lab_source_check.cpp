// What the lab refuses before it compiles a student's file (lab_source.h: checkStudentSource).
#include <array>
#include <set>

#include "kernels/rewrite/declaration_rewrite.h"
#include "lab_scope_check.h"
#include "lab_source.h"
#include "lab_text_check.h"

namespace tilescope::lab {

namespace {
using Token = PreprocessorToken;

// Names the views and the recorder use inside a traced kernel: a kernel that names them could
// detach or feed the recorder, and so fake what is graded.
bool reservedName(std::string_view id) {
  return id == "tsRecorder" || id.starts_with("tilescope") || id.starts_with("tslab") || id.starts_with("__tilescope") ||
         id.starts_with("tsA_") || id.find("TsStorage") != std::string_view::npos ||
         id.find("TsNoted") != std::string_view::npos;
}
bool reservedMember(std::string_view id) {
  return id == "attach" || id == "sink" || id == "site" || id == "recorder" || id == "recorder_";
}

// What reads or copies an object's bytes: how a kernel would take an address out of a view.
bool byteCopier(std::string_view id) {
  static constexpr std::array kNames = {"memcpy",    "memmove",          "__builtin_memcpy", "__builtin_memmove",
                                        "bit_cast",  "__builtin_bit_cast", "addressof",      "__builtin_addressof",
                                        "union",     "asm",              "__asm__",          "__asm",
                                        "memcmp",    "__builtin_memcmp", "offsetof",         "__builtin_offsetof"};
  for (const char* n : kNames)
    if (id == n) return true;
  return false;
}

// The names a kernel's code sees as views: pointer parameters, shared arrays, local pointers
// into them (the declaration rewrite's own lists). Empty when the rewrite fails (the kernel's
// reading reports that).
std::set<std::string, std::less<>> viewNames(std::string_view text) {
  std::set<std::string, std::less<>> names;
  auto rewritten = rewriteDeclarations(text, "");
  if (!rewritten) return names;
  for (const RewrittenFunction& f : rewritten->functions) {
    names.insert(f.pointerParams.begin(), f.pointerParams.end());
    names.insert(f.sharedArrays.begin(), f.sharedArrays.end());
  }
  return names;
}

class EscapeChecker {
 public:
  EscapeChecker(const std::vector<Token>& t, std::string_view text, std::string_view file)
      : t_(t), views_(viewNames(text)), file_(file) {}

  std::optional<LabDiagnostic> run() const {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      const Token& t = t_[i];
      if (t.kind == Token::Kind::Identifier && byteCopier(t.text))
        return at(i, t.text + " reads or copies an object's bytes: in a lab kernel that is how a kernel would take a "
                                 "matrix's address out of its view and compute unrecorded, so the lab refuses it (no "
                                 "kernel of the book needs it; copy elements with =)");
      if (is(i, "&")) {
        const std::size_t name = skipParens(i + 1);
        if (isView(name) && !subscripted(name))
          return at(i, "&" + t_[name].text + " takes the address of the view " + t_[name].text +
                           " itself, not of an element: a lab kernel reaches its matrices and shared arrays element "
                           "by element (" + t_[name].text + "[i], or &" + t_[name].text +
                           "[i] for a float4), so that every access is recorded; the book never needs it");
      }
      if (is(i, "reinterpret_cast")) {
        if (auto d = castOperand(i, closingAngle(i + 1) + 1, "reinterpret_cast")) return d;
      } else if (is(i, ")") && i > 0 && (is(i - 1, "*") || is(i - 1, "&"))) {
        if (auto d = castOperand(i, i + 1, "a pointer cast")) return d;
      }
    }
    return std::nullopt;
  }

 private:
  bool is(std::size_t i, std::string_view s) const { return i < t_.size() && t_[i].text == s; }
  bool isView(std::size_t i) const {
    return i < t_.size() && t_[i].kind == Token::Kind::Identifier && views_.contains(t_[i].text);
  }
  // Each scan looks a bounded way ahead (kLookahead tokens), so the check stays linear in the
  // file whatever it holds; what lies further is the compiler's to refuse.
  static constexpr std::size_t kLookahead = 64;
  bool subscripted(std::size_t i) const {
    std::size_t n = i + 1;
    while (is(n, ")") && n < i + kLookahead) ++n;
    return is(n, "[") || is(i + 1, "[");
  }
  std::size_t skipParens(std::size_t i) const {
    const std::size_t from = i;
    while (is(i, "(") && i < from + kLookahead) ++i;
    return i;
  }
  std::size_t closingAngle(std::size_t open) const {
    int depth = 0;
    for (std::size_t i = open; i < t_.size() && i < open + kLookahead; ++i) {
      if (is(i, "<")) ++depth;
      else if (is(i, ">") && --depth == 0) return i;
    }
    return t_.size();
  }
  // The operand of a cast starting at `from`: the address of a whole object (`&x`, not
  // `&x[i]`) or a view itself is refused; `reinterpret_cast<float4*>(&M[i])` is the book's.
  std::optional<LabDiagnostic> castOperand(std::size_t castAt, std::size_t from, const std::string& what) const {
    std::size_t i = skipParens(from);
    const bool address = is(i, "&");
    if (address) i = skipParens(i + 1);
    if (i >= t_.size() || t_[i].kind != Token::Kind::Identifier) return std::nullopt;
    if (subscripted(i) || (!address && !isView(i))) return std::nullopt;
    if (is(i + 1, ".") || is(i + 1, "->")) return std::nullopt;  // &s.member: a struct's field
    return at(castAt, what + " of " + (address ? "&" : "") + t_[i].text +
                          ": it reinterprets the bytes of a whole object (a view, or a copy of one) as a pointer, "
                          "which is how a kernel would take a matrix's address out of its view; a lab kernel casts "
                          "only an element's address (reinterpret_cast<float4*>(&M[i]))");
  }
  LabDiagnostic at(std::size_t i, std::string message) const {
    return LabDiagnostic{std::string(file_), t_[i].line, t_[i].column, std::move(message)};
  }

  const std::vector<Token>& t_;
  std::set<std::string, std::less<>> views_;
  std::string_view file_;
};
}  // namespace

std::optional<LabDiagnostic> checkStudentSource(std::string_view text, std::string_view fileName) {
  TextCheck read = checkPreprocessorText(text, fileName);
  if (read.refused) return read.refused;
  const std::vector<Token>& tokens = read.tokens;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind != Token::Kind::Identifier) continue;
    const bool member = i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "->");
    if (reservedName(t.text) || (member && reservedMember(t.text)))
      return LabDiagnostic{std::string(fileName), t.line, t.column,
                           "'" + t.text +
                               "' is the lab's own: the views and the recorder that observe a kernel are not the "
                               "kernel's to use (on a GPU they do not exist)"};
  }
  if (auto d = checkConditionalCode(tokens, fileName)) return d;
  if (auto d = EscapeChecker(tokens, text, fileName).run()) return d;
  const std::vector<SourceToken> code = tokenizeSource(text);
  if (auto d = checkSharedTypes(code, text, fileName)) return d;
  return checkNamespaceScope(code, text, fileName);
}

}  // namespace tilescope::lab
