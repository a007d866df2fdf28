#include "kernels/rewrite/declaration_rewrite.h"

#include <algorithm>
#include <cctype>

namespace tilescope {

namespace {

using Token = SourceToken;

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Tokens outside comments and preprocessor lines; literals are single tokens.
std::vector<Token> tokenize(std::string_view s) {
  std::vector<Token> out;
  int line = 1;
  bool lineStart = true;  // only whitespace since the last newline
  std::size_t i = 0;
  auto advance = [&](std::size_t to) {
    for (; i < to && i < s.size(); ++i)
      if (s[i] == '\n') line++;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      advance(i + 1);
      lineStart = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '#' && lineStart) {  // a directive, with its continuation lines
      std::size_t j = i;
      while (j < s.size() && !(s[j] == '\n' && s[j - 1] != '\\')) ++j;
      advance(j);
      continue;
    }
    lineStart = false;
    if (s.substr(i, 2) == "//") {
      advance(std::min(s.find('\n', i), s.size()));
      continue;
    }
    if (s.substr(i, 2) == "/*") {
      const std::size_t end = s.find("*/", i + 2);
      advance(end == std::string_view::npos ? s.size() : end + 2);
      continue;
    }
    const std::size_t start = i;
    const int startLine = line;
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') j += s[j] == '\\' ? 2 : 1;
      advance(std::min(j + 1, s.size()));
      out.push_back({TokenKind::Literal, s.substr(start, i - start), start, startLine});
      continue;
    }
    if (identStart(c)) {
      while (i < s.size() && identChar(s[i])) ++i;
      out.push_back({TokenKind::Identifier, s.substr(start, i - start), start, startLine});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
      while (i < s.size() && (identChar(s[i]) || s[i] == '.' || s[i] == '\'' ||
                              ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
        ++i;
      out.push_back({TokenKind::Number, s.substr(start, i - start), start, startLine});
      continue;
    }
    i += s.substr(i, 2) == "::" ? 2 : 1;
    out.push_back({TokenKind::Punct, s.substr(start, i - start), start, startLine});
  }
  return out;
}

struct Edit {
  std::size_t offset, length;
  std::string text;
};

bool isStatementKeyword(std::string_view t) {
  static constexpr std::string_view kWords[] = {"return", "if", "else", "for", "while", "do", "switch", "case",
                                                "goto", "break", "continue", "default", "throw", "delete",
                                                "sizeof", "new", "typedef", "using", "static_assert"};
  return std::find(std::begin(kWords), std::end(kWords), t) != std::end(kWords);
}

class Rewriter {
 public:
  Rewriter(std::string_view source, std::string_view file) : src_(source), file_(file), t_(tokenize(source)) {}

  Result<RewrittenSource> run() {
    for (std::size_t i = 0; i < t_.size(); ++i) {
      if (!is(i, "__global__") && !is(i, "__device__")) continue;
      if (auto s = function(i); !s) return s.error();
    }
    RewrittenSource out;
    out.functions = std::move(functions_);
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
    std::size_t at = 0;
    for (const Edit& e : edits_) {
      out.text.append(src_.substr(at, e.offset - at));
      out.text.append(e.text);
      // Keep the line breaks of what was replaced, so every later line keeps its number.
      out.text.append(std::size_t(std::count(src_.begin() + long(e.offset), src_.begin() + long(e.offset + e.length), '\n')),
                      '\n');
      at = e.offset + e.length;
    }
    out.text.append(src_.substr(at));
    return out;
  }

 private:
  bool is(std::size_t i, std::string_view text) const { return i < t_.size() && t_[i].text == text; }
  Error error(std::size_t i, const std::string& why) const {
    const int line = i < t_.size() ? t_[i].line : 0;
    return invalidInput(std::string(file_) + ":" + std::to_string(line) + ": " + why);
  }
  // Index of the token closing the bracket opened at `open`, or t_.size().
  std::size_t matching(std::size_t open) const {
    const std::string_view o = t_[open].text;
    const std::string_view c = o == "(" ? ")" : o == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t i = open; i < t_.size(); ++i) {
      if (t_[i].text == o) depth++;
      else if (t_[i].text == c && --depth == 0) return i;
    }
    return t_.size();
  }
  std::string joined(std::size_t from, std::size_t to) const {  // tokens [from, to) with single spaces
    std::string s;
    for (std::size_t i = from; i < to; ++i) {
      if (!s.empty()) s += ' ';
      s += t_[i].text;
    }
    return s;
  }
  void replace(std::size_t from, std::size_t to, std::string text) {  // tokens [from, to)
    const std::size_t begin = t_[from].offset;
    const std::size_t end = t_[to - 1].offset + t_[to - 1].text.size();
    edits_.push_back({begin, end - begin, std::move(text)});
  }
  void insertAfter(std::size_t i, std::string text) {
    edits_.push_back({t_[i].offset + t_[i].text.size(), 0, std::move(text)});
  }

  // A __global__ or __device__ at token i: a function (rewrite it) or a variable (skip).
  Status function(std::size_t i) {
    std::size_t open = i;
    while (open < t_.size() && !is(open, "(") && !is(open, ";") && !is(open, "{") && !is(open, "=")) {
      // `__global__ void __launch_bounds__(256) name(...)`: the bounds are not the parameters.
      if (is(open, "__launch_bounds__") && is(open + 1, "(")) open = matching(open + 1);
      ++open;
    }
    if (!is(open, "(") || open == 0 || t_[open - 1].kind != TokenKind::Identifier) return Ok{};
    RewrittenFunction fn;
    fn.name = std::string(t_[open - 1].text);
    fn.line = t_[open - 1].line;
    fn.isKernel = is(i, "__global__");
    const std::size_t close = matching(open);
    if (close >= t_.size()) return error(open, "unbalanced parentheses in the parameters of " + fn.name);
    parameters(open + 1, close, fn);
    // The traced build records from local state and needs more registers than the plain
    // one: promise the largest block, so a 32 x 32 block still launches (spilling if it must).
    bool bounded = false;
    for (std::size_t k = i; k < open; ++k) bounded = bounded || is(k, "__launch_bounds__");
    if (fn.isKernel && !bounded) edits_.push_back({t_[open - 1].offset, 0, "TILESCOPE_LAUNCH_BOUNDS "});
    std::size_t body = close + 1;
    while (body < t_.size() && !is(body, "{") && !is(body, ";")) {
      body = is(body, "(") ? matching(body) + 1 : body + 1;  // __launch_bounds__(...) and the like
    }
    if (is(body, "{")) {
      if (fn.isKernel) {
        std::string params;
        for (const std::string& p : fn.pointerParams) params += (params.empty() ? "" : ", ") + p;
        insertAfter(body, params.empty() ? " TILESCOPE_KERNEL_ENTRY_NONE" : " TILESCOPE_KERNEL_ENTRY(" + params + ")");
      }
      const std::size_t end = matching(body);
      if (end >= t_.size()) return error(body, "unbalanced braces in the body of " + fn.name);
      if (auto s = bodyDeclarations(body + 1, end, fn); !s) return s;
    }
    functions_.push_back(std::move(fn));
    return Ok{};
  }

  // Parameters in [from, to): each pointer parameter becomes a GlobalView.
  void parameters(std::size_t from, std::size_t to, RewrittenFunction& fn) {
    std::size_t start = from;
    int depth = 0;
    for (std::size_t i = from; i <= to; ++i) {
      if (i < to && (is(i, "(") || is(i, "[") || is(i, "<"))) depth++;
      if (i < to && (is(i, ")") || is(i, "]") || is(i, ">"))) depth--;
      if (i == to || (depth == 0 && is(i, ","))) {
        pointerParameter(start, i, fn);
        start = i + 1;
      }
    }
  }
  void pointerParameter(std::size_t from, std::size_t to, RewrittenFunction& fn) {
    if (to <= from || t_[to - 1].kind != TokenKind::Identifier) return;
    std::size_t star = to;
    for (std::size_t i = from; i < to; ++i) {
      if (is(i, "(") || is(i, "[") || is(i, "<") || is(i, "&")) return;  // function pointers, arrays, templates
      if (is(i, "*")) {
        if (star != to) return;  // pointers to pointers stay as written
        star = i;
      }
    }
    if (star == to || star == from) return;
    std::string type;
    for (std::size_t i = from; i < star; ++i) {
      if (is(i, "__restrict__") || is(i, "__restrict")) continue;
      type += (type.empty() ? "" : " ") + std::string(t_[i].text);
    }
    const std::string name(t_[to - 1].text);
    replace(from, to, "::tilescope::GlobalView<" + type + "> " + name);
    fn.pointerParams.push_back(name);
  }

  // Shared declarations and local pointer declarations at statement starts in (from, to).
  Status bodyDeclarations(std::size_t from, std::size_t to, RewrittenFunction& fn) {
    bool statementStart = true;
    for (std::size_t i = from; i < to; ++i) {
      vectorCast(i, to);
      if (statementStart) {
        std::size_t next = i;
        if (auto s = sharedDeclaration(i, to, fn, next); !s) return s;
        if (next == i) pointerDeclaration(i, to, fn, next);
        if (next != i) {
          i = next;  // the ';' that ends it
          statementStart = true;
          continue;
        }
      }
      statementStart = is(i, ";") || is(i, "{") || is(i, "}");
    }
    return Ok{};
  }

  // `reinterpret_cast<float4*>(` or `reinterpret_cast<const float4*>(`: a 128-bit access
  // through a view, recorded as one access of four elements (views.h, vectorCast).
  void vectorCast(std::size_t i, std::size_t to) {
    if (!is(i, "reinterpret_cast") || !is(i + 1, "<")) return;
    std::size_t k = i + 2;
    if (is(k, "const")) ++k;
    if (!is(k, "float4") || !is(k + 1, "*") || !is(k + 2, ">") || !is(k + 3, "(") || k + 3 >= to) return;
    replace(i, k + 4, "::tilescope::vectorCast<float4>(");
  }

  int nextArray(std::size_t at, RewrittenFunction& fn, const std::string& name, Error* tooMany) {
    if (int(fn.sharedArrays.size()) >= kMaxSharedDeclarations) {
      *tooMany = error(at, "more than " + std::to_string(kMaxSharedDeclarations) +
                               " shared arrays and pointers into them in " + fn.name + " (the trace numbers at most " +
                               std::to_string(kMaxSharedDeclarations) + ")");
      return -1;
    }
    fn.sharedArrays.push_back(name);
    return int(fn.sharedArrays.size()) - 1;
  }

  // `[extern] [volatile] __shared__ TYPE NAME [dims] ;` starting at i; sets `end` to its ';'.
  Status sharedDeclaration(std::size_t i, std::size_t to, RewrittenFunction& fn, std::size_t& end) {
    std::size_t s = i;
    bool isExtern = false;
    while (s < to && (is(s, "extern") || is(s, "volatile") || is(s, "static"))) isExtern |= is(s++, "extern");
    if (!is(s, "__shared__")) return Ok{};
    std::size_t semi = s;
    while (semi < to && !is(semi, ";")) ++semi;
    if (semi >= to) return error(s, "a __shared__ declaration without its ';'");
    std::size_t nameAt = semi;
    for (std::size_t k = s + 1; k < semi; ++k)
      if (is(k, "[")) {
        nameAt = k;
        break;
      }
    nameAt -= 1;
    if (nameAt <= s + 1 || t_[nameAt].kind != TokenKind::Identifier)
      return error(s, "a __shared__ declaration the lab reads as `__shared__ TYPE NAME[dims];` (one name per line)");
    for (std::size_t k = s + 1; k < semi; ++k)
      if (is(k, ",") && matchingDepthZero(s, k))
        return error(k, "declare one __shared__ array per statement (`__shared__ float Mds[T][T];`)");
    const std::string type = joined(s + 1, nameAt);
    const std::string name(t_[nameAt].text);
    const std::string dims = joined(nameAt + 1, semi);
    Error tooMany;
    const int id = nextArray(s, fn, name, &tooMany);
    if (id < 0) return tooMany;
    const std::string ids = std::to_string(id);
    std::string text;
    if (dims.empty()) {
      text = "TILESCOPE_SHARED_SCALAR(" + type + ", " + name + ", " + ids + ")";
    } else if (isExtern || dims == "[ ]") {
      if (dims != "[ ]") return error(s, "an extern __shared__ array is declared with empty brackets: `" + name + "[]`");
      text = "TILESCOPE_EXTERN_SHARED(" + type + ", " + name + ", " + ids + ")";
    } else {
      if (std::count(dims.begin(), dims.end(), '[') > 2)
        return error(s, "shared arrays of one or two dimensions only (" + name + " has more)");
      text = "TILESCOPE_SHARED(" + type + ", " + name + ", " + ids + ", " + dims + ")";
    }
    replace(i, semi, text);
    end = semi;
    return Ok{};
  }
  bool matchingDepthZero(std::size_t from, std::size_t at) const {
    int depth = 0;
    for (std::size_t k = from; k < at; ++k) {
      if (is(k, "[") || is(k, "(")) depth++;
      if (is(k, "]") || is(k, ")")) depth--;
    }
    return depth == 0;
  }

  // `[const] TYPE... * NAME = EXPR ;` starting at i: a local pointer becomes an alias view.
  void pointerDeclaration(std::size_t i, std::size_t to, RewrittenFunction& fn, std::size_t& end) {
    std::size_t k = i;
    while (k < to && t_[k].kind == TokenKind::Identifier && !isStatementKeyword(t_[k].text)) ++k;
    if (k == i || !is(k, "*") || k + 2 >= to || t_[k + 1].kind != TokenKind::Identifier || !is(k + 2, "=")) return;
    std::size_t semi = k + 3;
    int depth = 0;
    while (semi < to && !(depth == 0 && (is(semi, ";") || is(semi, ",")))) {
      if (is(semi, "(") || is(semi, "[") || is(semi, "{")) depth++;
      if (is(semi, ")") || is(semi, "]") || is(semi, "}")) depth--;
      ++semi;
    }
    if (!is(semi, ";")) return;  // `float *a = x, *b = y;` stays as written
    const std::string name(t_[k + 1].text);
    Error tooMany;
    const int id = nextArray(i, fn, name, &tooMany);
    if (id < 0) return;  // the compiler will point at it
    replace(i, k + 3, "auto " + name + " = ::tilescope::alias(");
    edits_.push_back({t_[semi].offset, 0, ", " + std::to_string(id) + ", \"" + name + "\")"});
    end = semi;
  }

  std::string_view src_;
  std::string_view file_;
  std::vector<Token> t_;
  std::vector<Edit> edits_;
  std::vector<RewrittenFunction> functions_;
};

}  // namespace

std::vector<SourceToken> tokenizeSource(std::string_view source) { return tokenize(source); }

Result<RewrittenSource> rewriteDeclarations(std::string_view source, std::string_view fileName) {
  return Rewriter(source, fileName).run();
}

}  // namespace tilescope
