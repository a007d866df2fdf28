// A student's file read as the preprocessor reads it (lab_text_check.h).
//
// Translation phases 2 and 3 only: lines are spliced at a backslash-newline, then the text is
// cut into preprocessing tokens (comments dropped, literals and header names whole), and each
// token keeps the line and column it has in the file as written, so a refusal points where the
// student looks. Nothing is expanded: what could only be seen after expansion (a name built
// by ## pasting) is refused instead.
#include "lab_text_check.h"

#include <algorithm>
#include <array>
#include <string>

namespace tilescope::lab {

namespace {

// What NVRTC gives a kernel without a file system (runner_cuda.cpp's stubs): the CUDA surface
// these name comes from the lab's own headers, so including them changes nothing.
constexpr std::array kAllowedHeaders = {"cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "stdio.h", "cstdio",
                                        "math.h", "cmath", "stdlib.h", "cstdlib"};

// Macros one compiler defines and the other does not (nvcc / NVRTC for the GPU, g++ for the
// emulator), and the probes that differ with the compiler or the machine.
bool compilerProbe(std::string_view id) {
  static constexpr std::array kPrefixes = {"__CUDA",   "__NVCC",     "__NVCOMPILER", "__GNUC",    "__GNUG",
                                           "__clang",  "__llvm",     "__x86_64",     "__amd64",   "__i386",
                                           "__aarch64", "__linux",   "__unix",       "__ELF__",   "__OPTIMIZE",
                                           "__has_",   "__STDC_HOSTED", "__INTEL",   "_MSC_VER",  "__APPLE",
                                           "__GCC",    "__VERSION__", "__FAST_MATH", "__NO_INLINE", "__PIC__",
                                           "__pic__",  "__PIE__",    "__pie__",      "__SSE",     "__AVX",
                                           "__FMA",    "__MMX",      "__SEH",        "__x86"};
  for (const char* p : kPrefixes)
    if (id.starts_with(p)) return true;
  return id == "linux" || id == "unix" || id == "CUDART_VERSION";
}

struct Spliced {
  std::string text;
  std::vector<int> line, column;  // of each character of text, in the file as written
  std::vector<std::pair<std::size_t, int>> splices;  // offset in text, line of the backslash
};

Spliced splice(std::string_view in) {
  Spliced s;
  s.text.reserve(in.size());
  int line = 1, column = 1;
  for (std::size_t i = 0; i < in.size();) {
    if (in[i] == '\\') {
      std::size_t j = i + 1;
      while (j < in.size() && (in[j] == ' ' || in[j] == '\t' || in[j] == '\r')) ++j;
      if (j < in.size() && in[j] == '\n') {  // g++ splices with spaces before the newline too
        s.splices.push_back({s.text.size(), line});
        ++line;
        column = 1;
        i = j + 1;
        continue;
      }
    }
    s.text += in[i];
    s.line.push_back(line);
    s.column.push_back(column);
    if (in[i] == '\n') ++line, column = 1;
    else ++column;
    ++i;
  }
  s.line.push_back(line);  // one past the end, for a token that ends the file
  s.column.push_back(column);
  return s;
}

bool identStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}
bool identChar(char c) { return identStart(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  Lexer(const Spliced& s, std::string_view file) : s_(s), t_(s.text), file_(file) {}

  TextCheck run() {
    for (std::size_t i = 0; i < t_.size() && !refused_;) i = step(i);
    if (directive_) spans_.push_back({directiveStart_, t_.size()});
    if (!refused_) checkSplices();
    return TextCheck{std::move(tokens_), std::move(refused_)};
  }

 private:
  std::size_t step(std::size_t i) {
    const char c = t_[i];
    if (c == '\n') {
      if (directive_) spans_.push_back({directiveStart_, i});
      directive_ = false;
      lineStart_ = true;
      return i + 1;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') return i + 1;
    if (t_.compare(i, 2, "/*") == 0) {
      const std::size_t end = t_.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? t_.size() : end + 2;
      // A comment over several lines outside a directive: what follows it may start one
      // (g++ takes `/*...\n...*/ #include` as a directive); checking it as one is the safe side.
      if (!directive_ && std::find(t_.begin() + long(i), t_.begin() + long(stop), '\n') != t_.begin() + long(stop))
        lineStart_ = true;
      return stop;
    }
    if (t_.compare(i, 2, "//") == 0) {
      const std::size_t end = t_.find('\n', i);
      return end == std::string::npos ? t_.size() : end;
    }
    const bool wasLineStart = lineStart_;
    lineStart_ = false;
    if (c == '#' && wasLineStart && t_.compare(i, 2, "##") != 0) {
      directive_ = true;
      directiveStart_ = i;
      directiveName_.clear();
      afterName_ = 0;
      emit(PreprocessorToken::Kind::Punct, i, i + 1);
      return i + 1;
    }
    if (directive_ && expectHeader() && c == '<') {
      const std::size_t end = t_.find_first_of(">\n", i + 1);
      const std::size_t stop = end == std::string::npos || t_[end] == '\n' ? end : end + 1;
      return emit(PreprocessorToken::Kind::HeaderName, i, stop == std::string::npos ? t_.size() : stop);
    }
    if (identStart(c)) return identifier(i);
    if (digit(c) || (c == '.' && i + 1 < t_.size() && digit(t_[i + 1]))) return number(i);
    if (c == '"' || c == '\'') return literal(i, i);
    return punct(i);
  }

  std::size_t identifier(std::size_t i) {
    std::size_t e = i;
    while (e < t_.size() && identChar(t_[e])) ++e;
    const std::string_view id(t_.data() + i, e - i);
    if (e < t_.size() && (t_[e] == '"' || t_[e] == '\'')) {
      if (id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR") return rawLiteral(i, e);
      if (id == "u8" || id == "u" || id == "U" || id == "L") return literal(i, e);
    }
    const std::size_t next = emit(PreprocessorToken::Kind::Identifier, i, e);
    if (directive_ && directiveName_.empty()) directiveName_ = id, afterName_ = tokens_.size();
    else if (directive_ && directiveName_ == "pragma" && tokens_.size() == afterName_ + 1 && id != "unroll" &&
             id != "nounroll" && id != "once")
      refuse(i, "#pragma " + std::string(id) + ": a lab kernel may use #pragma unroll (and nounroll, once) only");
    if (compilerProbe(id))
      refuse(i, std::string(id) +
                    " tells one compiler from another (the GPU's from the emulator's g++): a lab kernel must be one "
                    "program on both, so that what the emulator records and grades is what the GPU runs; no kernel "
                    "of the book needs it, so the lab refuses it");
    else if (id == "_Pragma" || id == "__pragma")
      refuse(i, std::string(id) + ": a lab kernel may use #pragma unroll only, written as a # line");
    return next;
  }

  std::size_t number(std::size_t i) {
    std::size_t e = i + 1;
    while (e < t_.size()) {
      const char c = t_[e];
      if ((c == '+' || c == '-') && (t_[e - 1] == 'e' || t_[e - 1] == 'E' || t_[e - 1] == 'p' || t_[e - 1] == 'P')) ++e;
      else if (identChar(c) || c == '.' || c == '\'') ++e;
      else break;
    }
    return emit(PreprocessorToken::Kind::Number, i, e);
  }

  // A string or character literal from its prefix at `start`, its quote at `quote`.
  std::size_t literal(std::size_t start, std::size_t quote) {
    const char q = t_[quote];
    std::size_t e = quote + 1;
    while (e < t_.size() && t_[e] != q && t_[e] != '\n') e += t_[e] == '\\' ? 2 : 1;
    const PreprocessorToken::Kind kind =
        directive_ && expectHeader() && q == '"' ? PreprocessorToken::Kind::HeaderName : PreprocessorToken::Kind::Literal;
    return emit(kind, start, std::min(t_.size(), e + 1));
  }
  std::size_t rawLiteral(std::size_t start, std::size_t quote) {
    const std::size_t open = t_.find('(', quote);
    if (open == std::string::npos) return emit(PreprocessorToken::Kind::Literal, start, t_.size());
    const std::string close = ")" + t_.substr(quote + 1, open - quote - 1) + "\"";
    const std::size_t end = t_.find(close, open);
    return emit(PreprocessorToken::Kind::Literal, start, end == std::string::npos ? t_.size() : end + close.size());
  }

  std::size_t punct(std::size_t i) {
    static constexpr std::array kDigraphs = {"%:", "<%", "%>", "<:", ":>"};
    for (const char* d : kDigraphs)
      if (t_.compare(i, 2, d) == 0 && !(d[0] == '<' && d[1] == ':' && t_.compare(i, 3, "<::") == 0 &&
                                         t_.compare(i, 4, "<:::") != 0 && t_.compare(i, 4, "<::>") != 0)) {
        refuse(i, std::string("'") + d +
                      "' is a digraph (another spelling of #, {, } or [ ]): a lab kernel is written with the usual "
                      "characters, and the lab refuses digraphs so that every #include and bracket is seen as the "
                      "compiler sees it");
        return i + 2;
      }
    for (const char* two : {"##", "->", "::", "&&"})
      if (t_.compare(i, 2, two) == 0) {
        if (two[0] == '#')
          refuse(i, "token pasting (##): it can build names the lab's checks never see written (__CUDA_ARCH__, the "
                    "lab's own); a lab kernel writes every name out");
        return emit(PreprocessorToken::Kind::Punct, i, i + 2);
      }
    return emit(PreprocessorToken::Kind::Punct, i, i + 1);
  }

  bool expectHeader() const {
    return tokens_.size() == afterName_ &&
           (directiveName_ == "include" || directiveName_ == "include_next" || directiveName_ == "import" ||
            directiveName_ == "embed");
  }

  std::size_t emit(PreprocessorToken::Kind kind, std::size_t from, std::size_t to) {
    tokens_.push_back({kind, t_.substr(from, to - from), s_.line[from], s_.column[from], directive_});
    if (directive_ && tokens_.size() == afterName_ + 1 && afterName_ > 0) checkInclude();
    return to;
  }

  // The token just emitted is the first after a directive's name: for an #include, its header.
  void checkInclude() {
    if (directiveName_ != "include" && directiveName_ != "include_next" && directiveName_ != "import" &&
        directiveName_ != "embed")
      return;
    const PreprocessorToken& h = tokens_.back();
    std::string name;
    if (h.kind == PreprocessorToken::Kind::HeaderName && h.text.size() >= 2) name = h.text.substr(1, h.text.size() - 2);
    bool allowed = directiveName_ == "include";
    bool listed = false;
    for (const char* a : kAllowedHeaders) listed = listed || name == a;
    if (allowed && listed) return;
    std::string list;
    for (const char* a : kAllowedHeaders) list += (list.empty() ? "" : ", ") + std::string(a);
    refuse(directiveStart_, "#" + std::string(directiveName_) +
                                " of a file the lab does not provide: a lab kernel is device code, as NVRTC compiles "
                                "it, and may #include only " + list);
  }

  // Every splice lies inside a directive: elsewhere a backslash at a line's end would join
  // what the rewrite's tokenizer and the compiler read differently.
  void checkSplices() {
    std::size_t span = 0;  // both lists are in file order: one pass over each
    for (const auto& [offset, line] : s_.splices) {
      while (span < spans_.size() && spans_[span].second < offset) ++span;
      if (span < spans_.size() && offset > spans_[span].first) continue;
      refused_ = LabDiagnostic{std::string(file_), line, 1,
                               "a backslash at the end of the line joins it to the next: a lab kernel may do that "
                               "only inside a #define (a name or a comment split over two lines is refused)"};
      return;
    }
  }

  void refuse(std::size_t at, std::string message) {
    if (refused_) return;
    refused_ = LabDiagnostic{std::string(file_), s_.line[at], s_.column[at], std::move(message)};
  }

  const Spliced& s_;
  const std::string& t_;
  std::string_view file_;
  std::vector<PreprocessorToken> tokens_;
  std::optional<LabDiagnostic> refused_;
  std::vector<std::pair<std::size_t, std::size_t>> spans_;  // [#, end of line) of each directive
  bool lineStart_ = true, directive_ = false;
  std::size_t directiveStart_ = 0, afterName_ = 0;
  std::string directiveName_;
};

}  // namespace

TextCheck checkPreprocessorText(std::string_view text, std::string_view fileName) {
  const Spliced s = splice(text);
  return Lexer(s, fileName).run();
}

}  // namespace tilescope::lab
