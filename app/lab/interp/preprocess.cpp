#include "lab/interp/preprocess.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <mutex>
#include <regex>
#include <sstream>
#include <vector>

extern "C" {
#include <mcpp_lib.h>
}

// mcpp, a C program made a library, keeps a few hundred bytes of its own (xmalloc'd names and
// tables) from each call; they are not ours to free. Under LeakSanitizer they are named here.
extern "C" const char* __lsan_default_suppressions() { return "leak:xmalloc\n"; }

namespace tilescope::interp {

namespace {

constexpr std::size_t kMaxLineLength = 2000;

// Headers a CUDA file includes for what the lab already provides: read as empty.
bool isKnownHeader(const std::string& name) {
  static const char* known[] = {"cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "stdio.h", "cstdio",
                                "math.h", "cmath", "stdint.h", "cstdint", "cuda_runtime_api.h", "assert.h",
                                "cassert", "stdlib.h", "cstdlib"};
  for (const char* k : known)
    if (name == k) return true;
  return false;
}

// The directive lines as the preprocessor reads them, each with the line it starts on: lines
// spliced at a backslash-newline and comments made one space (a block comment spanning lines
// keeps its directive going), strings and characters kept whole.
std::vector<std::pair<int, std::string>> logicalDirectives(const std::string& text) {
  std::vector<std::pair<int, std::string>> directives;
  std::string current;
  int line = 1, startLine = 1;
  char quote = 0;
  bool blockComment = false, lineComment = false;
  auto endLine = [&] {
    const std::size_t first = current.find_first_not_of(" \t");
    if (first != std::string::npos && current[first] == '#') directives.emplace_back(startLine, current);
    current.clear();
    startLine = line;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {  // a splice: no line ends here
      ++i, ++line;
      continue;
    }
    if (c == '\n') {
      ++line;
      lineComment = false;
      quote = 0;
      if (!blockComment) endLine();
      continue;
    }
    if (blockComment || lineComment) {
      if (blockComment && c == '*' && i + 1 < text.size() && text[i + 1] == '/') blockComment = false, ++i;
      continue;
    }
    if (quote) {
      if (c == '\\' && i + 1 < text.size()) current += text[i++];
      else if (c == quote) quote = 0;
      current += c;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '*' || text[i + 1] == '/')) {
      (text[i + 1] == '*' ? blockComment : lineComment) = true;
      current += ' ';
      ++i;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    current += c;
  }
  endLine();
  return directives;
}

// mcpp's buffers are fixed: a line made long by backslash-newline splices (each piece short)
// is refused at its first line before it reaches them, as a long line is (dropIncludes).
std::optional<Diagnostic> splicedLineTooLong(const std::string& text) {
  std::size_t length = 0;
  int line = 1, start = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i, ++line;
    } else if (text[i] == '\n') {
      ++line;
      start = line;
      length = 0;
      continue;
    } else {
      ++length;
    }
    // One physical line too long is dropIncludes' to name (an #error's own words, say).
    if (length > kMaxLineLength && line != start)
      return Diagnostic{start, 1, "this line (with its continued lines) is longer than " + std::to_string(kMaxLineLength) +
                                      " characters: break it up"};
  }
  return std::nullopt;
}

// The lab reads the student's one file and nothing of the machine it runs on: an #include is
// only a known header's, written plainly on one line (which dropIncludes then blanks). Any
// other spelling (a comment inside it, a continued line, a macro for the name, include_next or
// import) is refused before the preprocessor could open a file.
std::optional<Diagnostic> includeProblem(const std::string& text) {
  static const std::regex includeLike(R"(^[ \t]*#[ \t]*(include|include_next|import)\b.*$)");
  static const std::regex plainKnown(R"(^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]*)[>"][ \t]*$)");
  static const std::regex writtenPlainly(R"(^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]*)[>"].*$)");  // dropIncludes' own
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
  }
  for (const auto& [line, directive] : logicalDirectives(text)) {
    if (!std::regex_match(directive, includeLike)) continue;
    std::smatch m, onLine;
    const std::string& physical = line - 1 < int(lines.size()) ? lines[std::size_t(line - 1)] : directive;
    const bool plain = std::regex_match(directive, m, plainKnown) && std::regex_match(physical, onLine, writtenPlainly) &&
                       m[1].str() == onLine[1].str();
    if (plain && isKnownHeader(m[1].str())) continue;
    if (plain) return Diagnostic{line, 1, "the lab reads your one file: #include \"" + m[1].str() + "\" cannot be followed"};
    return Diagnostic{line, 1, "the lab reads your one file: this #include cannot be followed (write a header the lab "
                               "knows, such as #include <stdio.h>, plainly on one line)"};
  }
  return std::nullopt;
}

// Blanks the #include lines of known headers (keeping the line count); the first other one is an
// error. A `#define NAME` of a name the lab's settings define takes the settings' value, as the
// lab's `define:` lines promise (a file's own `#define TILE_WIDTH 16` gives way to them).
std::optional<Diagnostic> dropIncludes(std::string& text, const std::vector<Define>& defines) {
  static const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]*)[>"].*$)");
  static const std::regex define(R"(^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z_0-9]*)([^\\]*)$)");
  static const std::regex lineDirective(R"(^[ \t]*#[ \t]*line\b.*$)");
  static const std::regex error(R"(^[ \t]*#[ \t]*error\b.*$)");
  std::istringstream in(text);
  std::string out, line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    std::smatch m;
    // mcpp's buffers are fixed: a line past this is refused before it reaches them.
    if (line.size() > kMaxLineLength) {
      if (std::regex_match(line.substr(0, 64), error)) return Diagnostic{n, 1, line.substr(line.find('#'), 120) + "..."};
      return Diagnostic{n, 1, "this line is longer than " + std::to_string(kMaxLineLength) + " characters: break it up"};
    }
    if (std::regex_match(line, lineDirective))
      return Diagnostic{n, 1, "a #line directive is outside the lab: the lab keeps your file's own line numbers"};
    if (std::regex_match(line, m, include)) {
      if (!isKnownHeader(m[1].str()))
        return Diagnostic{n, 1, "the lab reads your one file: #include \"" + m[1].str() + "\" cannot be followed"};
      line.clear();
    }
    if (std::regex_match(line, m, define))
      for (const Define& d : defines)
        if (m[1].str() == d.name) line = "#define " + d.name + " " + d.value;
    out += line;
    out += '\n';
  }
  text = std::move(out);
  return std::nullopt;
}

// A line number's digits as an int, saturating (std::stoi throws past INT_MAX, and the page is
// built without exceptions).
int lineNumber(std::string_view digits) {
  long long n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') break;
    n = std::min<long long>(n * 10 + (c - '0'), std::numeric_limits<int>::max());
  }
  return int(n);
}

// Whether a line is `#line N ...` (N in `number`) or a #pragma: read by hand, not by
// std::regex, whose matcher recurses once per character of a line (a macro's expansion can
// make mcpp's output lines longer than any line the student wrote).
bool isLineDirective(std::string_view line, int& number) {
  if (line.substr(0, 6) != "#line " || line.size() < 7 || line[6] < '0' || line[6] > '9') return false;
  number = lineNumber(line.substr(6));
  return true;
}
bool isPragma(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return false;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line.substr(i, 6) != "pragma") return false;
  const std::size_t after = i + 6;
  return after == line.size() || !(std::isalnum((unsigned char)line[after]) || line[after] == '_');
}

// mcpp's messages: "<file>:<line>: error: <what>"; the first error becomes the diagnostic.
std::optional<Diagnostic> firstError(const std::string& messages) {
  static const std::regex error(R"(:(\d+): (?:fatal )?error: (.*))");
  std::smatch m;
  std::istringstream in(messages);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, error)) {
      std::string what = m[2].str();
      if (what.size() > 200) what = what.substr(0, 200) + "...";
      return Diagnostic{lineNumber(m[1].str()), 0, what};
    }
  return std::nullopt;
}

// mcpp's output carries `#line N "file"` where lines were dropped; those lines are blanked
// and every output line is mapped to the student's line. #pragma lines are blanked too.
void mapLines(const std::string& raw, Preprocessed& p) {
  std::istringstream in(raw);
  int next = 1;
  for (std::string line; std::getline(in, line);) {
    if (int number = 0; isLineDirective(line, number)) {
      next = number;
      p.sourceLine.push_back(next);
      p.text += '\n';
      continue;
    }
    p.sourceLine.push_back(next++);
    if (!isPragma(line)) p.text += line;  // nvcc's hints (#pragma unroll): nothing to run
    p.text += '\n';
  }
}

std::mutex& mcppLock() {  // mcpp keeps its state in globals
  static std::mutex m;
  return m;
}

}  // namespace

Preprocessed preprocess(std::string_view source, const std::vector<Define>& defines) {
  Preprocessed p;
  std::string text(source);
  if (auto e = splicedLineTooLong(text)) {
    p.error = e;
    return p;
  }
  if (auto e = includeProblem(text)) {
    p.error = e;
    return p;
  }
  if (auto e = dropIncludes(text, defines)) {
    p.error = e;
    return p;
  }
  char path[] = "/tmp/tilescope-lab-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    p.error = Diagnostic{0, 0, "the lab could not prepare your file for reading (no temporary space)"};
    return p;
  }
  { std::ofstream(path, std::ios::binary) << text; }
  close(fd);
  // Every function the lab runs is device code, which nvcc and NVRTC compile with __CUDA_ARCH__
  // defined: a file that asks takes the branch the GPU takes, never a host-only one.
  std::vector<std::string> args = {"mcpp", "-N", "-k", "-D__CUDACC__=1", "-D__NVCC__=1", "-D__CUDA_ARCH__=900"};
  for (const Define& d : defines) args.push_back("-D" + d.name + "=" + d.value);
  args.push_back(path);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  std::string raw, messages;
  int status = 0;
  {
    std::lock_guard<std::mutex> hold(mcppLock());
    mcpp_use_mem_buffers(1);
    status = mcpp_lib_main(int(argv.size()), argv.data());
    if (const char* out = mcpp_get_mem_buffer(OUT)) raw = out;
    if (const char* err = mcpp_get_mem_buffer(ERR)) messages = err;
    mcpp_use_mem_buffers(1);  // frees the buffers for the next call
  }
  std::remove(path);
  if (status != 0 || messages.find("error") != std::string::npos) {
    p.error = firstError(messages);
    if (!p.error) p.error = Diagnostic{0, 0, "the preprocessor could not read your file"};
    return p;
  }
  mapLines(raw, p);
  return p;
}

}  // namespace tilescope::interp
