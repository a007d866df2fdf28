// parseDiagnostics and its helpers (lab_diagnostics.h): a line scanner over the compiler's
// output, the groups it forms (an error and the notes and context that locate it), and the
// translation of the lab's names into the student's. The explanations added to them: lab_explain.cpp.
#include "lab_diagnostics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/run/reference.h"
#include "core/trace/trace.h"
#include "kernels/rewrite/declaration_rewrite.h"

namespace tilescope::lab {

std::string unitFileName(std::string_view fileName) {
  std::string name(fileName);
  for (char& c : name)
    if (c == '"' || c == '\\' || (static_cast<unsigned char>(c) < 0x20) || c == 0x7f) c = '_';
  return name;
}


namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) {
  return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Where the digits that start at `text[at]` end.
std::size_t digitsEnd(std::string_view text, std::size_t at) {
  while (at < text.size() && isDigit(text[at])) ++at;
  return at;
}

// `:LINE:COL: `, `:LINE: ` (g++) or `(LINE): ` (NVRTC) at `text[at]`, filled into `out`.
bool locationAt(std::string_view text, std::size_t at, LocatedLine& out) {
  const bool nvrtc = text[at] == '(';
  const std::size_t lineEnd = digitsEnd(text, at + 1);
  if (lineEnd == at + 1 || lineEnd >= text.size()) return false;
  std::size_t p = lineEnd;
  int column = 0;
  if (nvrtc) {
    if (text[p] != ')') return false;
    ++p;
  } else if (text[p] == ':' && p + 1 < text.size() && isDigit(text[p + 1])) {
    const std::size_t colEnd = digitsEnd(text, p + 1);
    column = parseSourceNumber(text.substr(p + 1, colEnd - p - 1)).value_or(0);
    p = colEnd;
  }
  if (p + 1 >= text.size() || text[p] != ':' || text[p + 1] != ' ') return false;
  out.file = text.substr(0, at);
  out.line = parseSourceNumber(text.substr(at + 1, lineEnd - at - 1)).value_or(0);
  out.column = column;
  out.rest = text.substr(p + 2);
  return true;
}

std::optional<LocatedLine> locate(std::string_view text, std::string_view knownFile) {
  LocatedLine out;
  // The student's own name first: it may hold a ':' of its own.
  if (!knownFile.empty() && text.size() > knownFile.size() && text.starts_with(knownFile) &&
      locationAt(text, knownFile.size(), out))
    return out;
  for (std::size_t i = 0; i < text.size(); ++i)
    if ((text[i] == ':' || text[i] == '(') && locationAt(text, i, out)) return out;
  return std::nullopt;
}

// A line that quotes source (`   49 | #define ...`, `      |    ^~~`), or NVRTC's caret line.
bool isQuote(std::string_view line) {
  const std::string_view t = trimmed(line);
  if (t.empty() || t.front() == '|' || t.front() == '^') return true;
  const std::size_t end = digitsEnd(t, 0);
  return end > 0 && t.substr(end).starts_with(" |");
}

// NVRTC quotes the line (indented by 2) after an error and puts a caret under the column on
// the line after that: the column, from the lines at `from`, else 1.
int caretColumn(std::string_view output, std::size_t from) {
  const std::size_t quoteEnd = output.find('\n', std::min(from, output.size()));
  if (quoteEnd == std::string_view::npos) return 1;
  const std::string_view rest = output.substr(quoteEnd + 1);
  const std::string_view caretLine = rest.substr(0, rest.find('\n'));
  const std::size_t caret = caretLine.find_first_not_of(' ');
  if (caret == std::string_view::npos || caretLine[caret] != '^' || caret < 2) return 1;
  return int(std::min<std::size_t>(caret - 1, kMaxSourceLine));
}

enum class Kind { Error, Continuation, Warning, Note, Required, Other };

// What follows a location: "error: ", "fatal error: ", "catastrophic error: ",
// "error #20042-D: " (NVRTC), "note: ", "  required from here" ...
Kind kindOf(std::string_view rest, std::string_view& text) {
  auto after = [&](std::string_view word) {
    if (!rest.starts_with(word)) return false;
    std::size_t p = word.size();
    if (p < rest.size() && rest[p] == ' ' && p + 1 < rest.size() && rest[p + 1] == '#') {  // NVRTC's number
      p = rest.find(':', p);
      if (p == std::string_view::npos) return false;
    }
    if (p + 1 >= rest.size() || rest[p] != ':' || rest[p + 1] != ' ') return false;
    text = rest.substr(p + 2);
    return true;
  };
  if (after("error") || after("fatal error") || after("catastrophic error"))
    return text.starts_with("  ") ? Kind::Continuation : Kind::Error;  // g++'s "error:   trying to instantiate"
  if (after("warning")) return Kind::Warning;
  if (after("note") || after("remark")) return Kind::Note;
  const std::string_view t = trimmed(rest);
  if (t.starts_with("required ") || t.starts_with("recursively required ")) return Kind::Required;
  text = rest;
  return Kind::Other;
}

struct Where {
  int line = 0, column = 0;
};

// One error with what locates it.
struct Group {
  std::string file;  // where the compiler put it
  Where at;
  std::string message;
  bool own = false;                     // the error is in the student's file
  std::optional<Where> expansion;       // "in expansion of macro" at a line of the student's
  std::string macro;                    // that macro
  std::optional<Where> required, note;  // "required from" (before it), another note (after it)
};

// Where a message nothing maps comes from, in words: the construct an internal file stands
// for, or a name the student's own #line directive gave.
std::string placeOf(std::string_view file) {
  if (file.find("lab-entry") != std::string_view::npos || file.find("lab-gpu-entry") != std::string_view::npos)
    return "in the lab's call of your kernel with its M, N and P: check the kernel's parameters";
  if (file.find('/') == std::string_view::npos)
    return "at a line a #line directive in your file renamed: the lab cannot tell which line of yours";
  if (file.find("views") != std::string_view::npos) return "in the lab's code for an access to M, N, P or a __shared__ array";
  if (file.find("emu") != std::string_view::npos || file.find("cuda_surface") != std::string_view::npos)
    return "in the lab's code for a CUDA built-in (threadIdx, blockIdx, __syncthreads() ...)";
  if (file.find("traced_surface") != std::string_view::npos || file.find("unit.") != std::string_view::npos)
    return "in the lab's code for a __shared__ declaration or a __syncthreads()";
  return "in a library function your kernel calls";
}

// Words that only the lab's own code contains: a message still holding one after
// plainMessage says nothing the student can act on.
bool mentionsInternals(std::string_view m) {
  for (std::string_view w : {"blockShared", "noteShared", "sharedArray", "Recorder", "tsRecorder", "TsStorage",
                             "syncThreads", "TraceSink", "Site<", "firstSink", "attachAll", "ThreadArgs", "tsA_",
                             "labGeometry", "ElementAddress", "Subscript"})
    if (m.find(w) != std::string_view::npos) return true;
  return false;
}

bool isSharedMacro(std::string_view m) { return m.starts_with("TILESCOPE_SHARED") || m == "TILESCOPE_EXTERN_SHARED"; }

std::string cut(std::string m) {
  if (m.size() <= kMaxMessageChars) return m;
  const std::size_t more = m.size() - kMaxMessageChars;
  m.resize(kMaxMessageChars);
  return m + "... (" + std::to_string(more) + " more characters)";
}

// The group as the student reads it: at the student's line, in the student's words.
LabDiagnostic resolve(const Group& g, std::string_view fileName) {
  LabDiagnostic d{std::string(fileName), 0, 0, plainMessage(g.message)};
  const std::optional<Where> at = g.own ? std::optional<Where>(g.at) : g.expansion ? g.expansion : g.required ? g.required : g.note;
  if (at) d.line = at->line, d.column = std::max(at->column, 1);
  const std::string& m = d.message;
  if (isSharedMacro(g.macro)) {
    if (m.find("variably modified") != std::string::npos) {
      const std::size_t q = m.find('\''), e = q == std::string::npos ? q : m.find('\'', q + 1);
      d.message = "a __shared__ array's size must be a constant the compiler knows (a #define or a constexpr), "
                  "not a variable" + (e == std::string::npos ? std::string() : ": " + m.substr(q, e - q + 1));
    } else if (mentionsInternals(m)) {
      d.message = "this __shared__ declaration does not compile (its type or size)";
    }
  } else if (g.macro == "__syncthreads" &&
             (m.find("void expression") != std::string::npos || m.starts_with("expected") ||
              m.find("apparent call") != std::string::npos || m.find("operator()") != std::string::npos)) {
    d.message = "expected ';' before __syncthreads(): the statement before it is not finished";
  } else if (g.macro == "__syncthreads" && mentionsInternals(m)) {
    d.message = "__syncthreads() cannot be used here";
  } else if (!at) {
    d.message = (mentionsInternals(m) ? std::string("your kernel does not compile") : m) + " (" + placeOf(g.file) + ")";
  } else if (mentionsInternals(m)) {
    d.message = "this line does not compile with the lab's recorded arrays: it uses M, N, P or a __shared__ array in "
                "a way a plain pointer or array allows and the lab does not";
  }
  d.message = cut(std::move(d.message));
  return d;
}

// Each group at the student's line, once; a generic message about a line gives way to a
// specific one about the same line.
std::vector<LabDiagnostic> resolveAll(const std::vector<Group>& groups, std::string_view fileName) {
  auto generic = [](const LabDiagnostic& d) { return d.message.starts_with("this __shared__ declaration does not compile"); };
  std::vector<LabDiagnostic> all, out;
  for (const Group& g : groups) all.push_back(resolve(g, fileName));
  for (const LabDiagnostic& d : all) {
    const bool shadowed = generic(d) && std::any_of(all.begin(), all.end(), [&](const LabDiagnostic& e) {
                            return e.line == d.line && !generic(e);
                          });
    const bool seen = std::any_of(out.begin(), out.end(), [&](const LabDiagnostic& e) {
      return e.line == d.line && e.message == d.message;
    });
    if (!shadowed && !seen) out.push_back(d);
  }
  return out;
}

// NVRTC's "detected during instantiation of "..." at line 12 of kernel.cu".
std::optional<std::pair<int, std::string_view>> atLineOf(std::string_view line) {
  const std::size_t at = line.rfind(" at line ");
  if (at == std::string_view::npos) return std::nullopt;
  const std::size_t start = at + 9, end = digitsEnd(line, start);
  if (end == start || !line.substr(end).starts_with(" of ")) return std::nullopt;
  return std::pair{parseSourceNumber(line.substr(start, end - start)).value_or(0), trimmed(line.substr(end + 4))};
}

}  // namespace

std::optional<int> parseSourceNumber(std::string_view digits) {
  if (digits.empty() || digits.size() > 12) return std::nullopt;
  long long v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || end != digits.data() + digits.size() || v < 1 || v > kMaxSourceLine) return std::nullopt;
  return int(v);
}

std::optional<LocatedLine> locateLine(std::string_view text) { return locate(text, {}); }

std::vector<LabDiagnostic> parseDiagnostics(std::string_view output, std::string_view fileName) {
  const std::string unitName = unitFileName(fileName);  // as the unit's #line wrote it
  auto isMine = [&](std::string_view f) {
    return f == unitName || (f.size() > unitName.size() && f.ends_with(unitName) && f[f.size() - unitName.size() - 1] == '/');
  };
  std::vector<Group> groups;
  std::optional<Where> pending;  // a "required from" of the student's, for the error that follows
  bool inGroup = false;          // notes attach to the last group
  std::size_t start = 0;
  while (start <= output.size() && groups.size() < 200) {
    std::size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    const std::string_view line = output.substr(start, end - start);
    start = end + 1;
    if (line.empty() || isQuote(line)) continue;
    const std::string_view t = trimmed(line);
    if (t.starts_with("In file included from ") || t.starts_with("from ")) continue;
    // "FILE: In function '...':", "FILE: At global scope:": a new context, whose errors follow.
    const bool context = t.ends_with(":") && (t.find(": In ") != std::string_view::npos ||
                                              t.find(": At global scope") != std::string_view::npos);
    const auto located = context ? std::nullopt : locate(line, unitName);
    if (!located) {
      if (context) {
        pending.reset();
        inGroup = false;
      } else if (auto at = atLineOf(line); at && inGroup && !groups.back().note && isMine(at->second) && at->first > 0) {
        groups.back().note = Where{at->first, 1};
      }
      continue;
    }
    std::string_view text;
    const Kind kind = kindOf(located->rest, text);
    const bool mine = isMine(located->file) && located->line > 0;
    const Where where{located->line, located->column};
    if (kind == Kind::Error) {
      Group g;
      g.file = std::string(located->file);
      g.at = where;
      g.message = std::string(text);
      g.own = mine;
      g.required = pending;
      pending.reset();
      if (g.at.column == 0) g.at.column = caretColumn(output, start);  // NVRTC: the caret two lines on
      groups.push_back(std::move(g));
      inGroup = true;
    } else if (kind == Kind::Required) {
      if (mine && !pending) pending = where;
    } else if (kind == Kind::Warning) {
      inGroup = false;
    } else if (inGroup && mine && (kind == Kind::Note || kind == Kind::Continuation)) {
      Group& g = groups.back();
      constexpr std::string_view kExpansion = "in expansion of macro '";
      if (text.starts_with(kExpansion) && !g.expansion) {
        g.expansion = where;
        g.macro = std::string(text.substr(kExpansion.size(), text.find('\'', kExpansion.size()) - kExpansion.size()));
      } else if (!g.note) {
        g.note = where;
      }
    }
  }
  return resolveAll(groups, fileName);
}

namespace {

// The '>' that closes the '<' at `open`, or npos.
std::size_t matchingAngle(std::string_view m, std::size_t open) {
  int depth = 0;
  for (std::size_t p = open; p < m.size(); ++p) {
    if (m[p] == '<') ++depth;
    else if (m[p] == '>' && --depth == 0) return p;
  }
  return std::string_view::npos;
}

std::string translateNames(std::string_view m);

// What the student wrote for the lab's type `name<args>`.
std::string studentName(std::string_view name, std::string_view args) {
  const std::size_t comma = args.find(',');
  const std::string first = translateNames(trimmed(args.substr(0, comma)));
  if (name == "GlobalView") return first + "*";
  if (name == "SharedView") {
    const std::string_view rank = comma == std::string_view::npos ? "1" : trimmed(args.substr(comma + 1));
    return "__shared__ " + first + (rank == "2" ? "[][]" : "[]");
  }
  if (name == "ElementRef" || name == "VectorRef") return first;
  if (name == "Dim3") return "uint3";
  if (name == "Subscript") return "int";  // an index, as the student wrote it
  if (name == "TensorMapView") return "CUtensorMap";
  return std::string(name) + (args.empty() ? "" : "<" + translateNames(args) + ">");
}

// Every `tilescope::...` name (and its template arguments) as the student would write it.
std::string translateNames(std::string_view m) {
  constexpr std::string_view kSpace = "tilescope::";
  std::string out;
  std::size_t i = 0;
  while (i < m.size()) {
    const std::size_t hit = m.find(kSpace, i);
    if (hit == std::string_view::npos || (hit > 0 && isIdentChar(m[hit - 1]))) {
      const std::size_t to = hit == std::string_view::npos ? m.size() : hit + kSpace.size();
      out += m.substr(i, to - i);
      i = to;
      continue;
    }
    out += m.substr(i, (hit >= 2 && m.substr(hit - 2, 2) == "::" ? hit - 2 : hit) - i);
    for (std::string_view kw : {"struct ", "class "})
      if (out.ends_with(kw)) out.resize(out.size() - kw.size());
    std::size_t p = hit;
    std::string_view last;
    for (;;) {
      const std::size_t s = p;
      while (p < m.size() && isIdentChar(m[p])) ++p;
      last = m.substr(s, p - s);
      if (m.substr(p, 2) == "::" && p + 2 < m.size() && isIdentChar(m[p + 2])) p += 2;
      else break;
    }
    std::string_view args;
    if (p < m.size() && m[p] == '<')
      if (const std::size_t close = matchingAngle(m, p); close != std::string_view::npos) {
        args = m.substr(p + 1, close - p - 1);
        p = close + 1;
      }
    out += studentName(last, args);
    i = p;
  }
  return out;
}

void replaceAll(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// The emulator's thread context (`_ZTW...currentThreadE()->...ThreadContext::threadIdx`) as
// the built-in the student wrote.
std::string builtinsNamed(std::string m) {
  for (std::size_t hit = m.find("currentThread"); hit != std::string::npos; hit = m.find("currentThread", hit)) {
    std::size_t from = hit;
    while (from > 0 && m[from - 1] != '\'' && m[from - 1] != '"' && m[from - 1] != ' ' && m[from - 1] != '(') --from;
    std::size_t to = std::string::npos;
    std::string name;
    for (const char* b : {"threadIdx", "blockIdx", "blockDim", "gridDim"})
      if (const std::size_t at = m.find(b, hit); at != std::string::npos && at - hit < 96 && at < to) to = at, name = b;
    if (to == std::string::npos) {
      hit += 13;
      continue;
    }
    m.replace(from, to + name.size() - from, name);
    hit = from + name.size();
  }
  replaceAll(m, ".tilescope::Dim3::", ".");
  return m;
}

// Paths into the lab's cache or scratch folders, which the student never wrote.
std::string withoutPaths(std::string m) {
  for (std::string_view marker : {"include-", "unit.cpp", "lab-gpu-unit.cu", "/.cache/", "/kernels/"}) {
    for (std::size_t hit = m.find(marker); hit != std::string::npos; hit = m.find(marker, hit + 1)) {
      auto stop = [](char c) { return c == ' ' || c == '\'' || c == '"' || c == '(' || c == ')' || c == ','; };
      std::size_t from = hit, to = hit;
      while (from > 0 && !stop(m[from - 1])) --from;
      while (to < m.size() && !stop(m[to])) ++to;
      if (m.find('/', from) >= to && marker != "unit.cpp") continue;  // a word, not a path
      m.replace(from, to - from, "the lab's code");
      hit = from;
    }
  }
  return m;
}

// g++'s wording for two common slips, said plainly.
std::string plainWording(std::string m) {
  constexpr std::string_view kRequest = "request for member '", kIn = "' in '", kNonClass = "', which is of non-class type '";
  if (m.starts_with(kRequest)) {
    const std::size_t in = m.find(kIn), nonClass = m.find(kNonClass);
    if (in != std::string::npos && nonClass != std::string::npos && in < nonClass && m.ends_with("'")) {
      const std::string member = m.substr(kRequest.size(), in - kRequest.size());
      const std::string what = m.substr(in + kIn.size(), nonClass - in - kIn.size());
      const std::string type = m.substr(nonClass + kNonClass.size(), m.size() - 1 - nonClass - kNonClass.size());
      m = "'" + what + "' is a number ('" + type + "'): it has no member '" + member + "'";
    }
  }
  if (const std::size_t at = m.find("'uint3' has no member named '"); at != std::string::npos) {
    const std::size_t name = at + 29, end = m.find('\'', name);
    std::string hint = " (threadIdx, blockIdx, blockDim and gridDim have the members x, y and z";
    if (end == name + 1 && (m[name] == 'X' || m[name] == 'Y' || m[name] == 'Z'))
      hint += std::string("; did you mean '") + char(m[name] - 'A' + 'a') + "'?";
    m += hint + ")";
  }
  return m;
}

}  // namespace

std::string plainMessage(std::string_view message) {
  std::string m(message.substr(0, 4 * kMaxMessageChars));
  const std::size_t dropped = message.size() - m.size();
  for (char& c : m)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  m = translateNames(builtinsNamed(std::move(m)));
  for (std::string_view space : {"tslab_plain::", "tslab::"}) replaceAll(m, space, "");
  replaceAll(m, "TsStorage", "");
  m = plainWording(withoutPaths(std::move(m)));
  if (dropped) m += "... (" + std::to_string(dropped) + " more characters)";
  return m;
}

}  // namespace tilescope::lab
