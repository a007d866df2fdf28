#include "lab_source.h"

#include <algorithm>
#include <cctype>

#include "kernels/rewrite/declaration_rewrite.h"

namespace tilescope::lab {

const char* const kAcceptedSignatures =
    "__global__ void NAME(float* M, float* N, float* P, int Width, ...) or "
    "__global__ void NAME(float* M, float* N, float* P, int j, int k, int l, ...): the first three pointer "
    "parameters are M (j x k), N (k x l) and P (j x l), further scalar parameters take their values from "
    "--arg NAME=VALUE";

namespace {

using Tokens = std::vector<SourceToken>;

struct Reader {
  const Tokens& t;
  std::string_view file;

  bool is(std::size_t i, std::string_view s) const { return i < t.size() && t[i].text == s; }
  Error error(std::size_t i, const std::string& why) const {
    const int line = i < t.size() ? t[i].line : (t.empty() ? 1 : t.back().line);
    return invalidInput(std::string(file) + ":" + std::to_string(line) + ": " + why);
  }
  // Index of the token closing the bracket opened at `open`, or t.size().
  std::size_t matching(std::size_t open) const {
    const std::string_view o = t[open].text;
    const std::string_view c = o == "(" ? ")" : o == "[" ? "]" : "}";
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
      if (t[i].text == o) depth++;
      else if (t[i].text == c && --depth == 0) return i;
    }
    return t.size();
  }
  std::string joined(std::size_t from, std::size_t to) const {
    std::string s;
    for (std::size_t i = from; i < to; ++i) s += std::string(s.empty() ? "" : " ") + std::string(t[i].text);
    return s;
  }
  // The function whose specifier (__global__ / __device__) is at i: [name, open paren, body open or npos).
  struct Function {
    std::size_t name = 0, open = 0, close = 0, body = std::string::npos, end = 0;
  };
  std::optional<Function> function(std::size_t i) const {
    std::size_t open = i;
    while (open < t.size() && !is(open, "(") && !is(open, ";") && !is(open, "{") && !is(open, "=")) ++open;
    if (!is(open, "(") || open == 0 || t[open - 1].kind != TokenKind::Identifier) return std::nullopt;
    Function f;
    f.name = open - 1;
    f.open = open;
    f.close = matching(open);
    std::size_t b = f.close + 1;
    while (b < t.size() && !is(b, "{") && !is(b, ";")) b = is(b, "(") ? matching(b) + 1 : b + 1;
    if (is(b, "{")) {
      f.body = b;
      f.end = matching(b);
    }
    return f;
  }
};

std::vector<KernelParam> parameters(const Reader& r, std::size_t from, std::size_t to) {
  std::vector<KernelParam> out;
  std::size_t start = from;
  int depth = 0;
  for (std::size_t i = from; i <= to; ++i) {
    if (i < to && (r.is(i, "(") || r.is(i, "[") || r.is(i, "<"))) depth++;
    if (i < to && (r.is(i, ")") || r.is(i, "]") || r.is(i, ">"))) depth--;
    if (i != to && !(depth == 0 && r.is(i, ","))) continue;
    if (i > start) {
      KernelParam p;
      std::size_t nameAt = i - 1;
      if (r.t[nameAt].kind == TokenKind::Identifier) p.name = std::string(r.t[nameAt].text);
      else nameAt = i;  // unnamed
      for (std::size_t k = start; k < nameAt; ++k) {
        if (r.is(k, "__restrict__") || r.is(k, "__restrict")) continue;
        if (r.is(k, "*")) p.pointer = true;
        p.type += (p.type.empty() || r.is(k, "*") ? "" : " ") + std::string(r.t[k].text);
      }
      if (p.type == "void" && p.name.empty()) {
        start = i + 1;
        continue;  // f(void)
      }
      out.push_back(std::move(p));
    }
    start = i + 1;
  }
  return out;
}

Status mapSignature(const Reader& r, std::size_t at, std::vector<KernelParam>& params, bool& widthForm) {
  int pointers = 0;
  for (KernelParam& p : params) {
    if (p.name.empty()) return r.error(at, "every parameter needs a name; the lab runs " + std::string(kAcceptedSignatures));
    if (!p.pointer) continue;
    std::string base = p.type;
    for (const char* q : {"const ", "volatile "}) {
      for (auto pos = base.find(q); pos != std::string::npos; pos = base.find(q)) base.erase(pos, std::string(q).size());
    }
    if (base != "float*" && base != "float const*")
      return r.error(at, "parameter '" + p.name + "' is a '" + p.type + "': M, N and P are float matrices; the lab runs " +
                             kAcceptedSignatures);
    if (pointers >= 3)
      return r.error(at, "a fourth pointer parameter ('" + p.name + "'): the lab runs " + std::string(kAcceptedSignatures));
    p.role = KernelParam::Role(int(KernelParam::Role::M) + pointers++);
  }
  if (pointers < 3)
    return r.error(at, "the kernel has " + std::to_string(pointers) + " pointer parameters, the lab needs three: " +
                           kAcceptedSignatures);
  auto named = [&](std::string_view n) {
    return std::find_if(params.begin(), params.end(), [&](const KernelParam& p) { return !p.pointer && p.name == n; });
  };
  if (named("j") != params.end() && named("k") != params.end() && named("l") != params.end()) {
    named("j")->role = KernelParam::Role::J;
    named("k")->role = KernelParam::Role::K;
    named("l")->role = KernelParam::Role::L;
    widthForm = false;
    return Ok{};
  }
  for (KernelParam& p : params)
    if (!p.pointer) {
      p.role = KernelParam::Role::Width;
      widthForm = true;
      return Ok{};
    }
  return r.error(at, "the kernel has no size parameter: the lab runs " + std::string(kAcceptedSignatures));
}

// A `__syncthreads()` or `__shared__` inside a __device__ helper: the rewrite records
// barriers and shared arrays through the kernel's own recorder, which a helper cannot see.
Status checkHelpers(const Reader& r) {
  for (std::size_t i = 0; i < r.t.size(); ++i) {
    if (!r.is(i, "__device__")) continue;
    bool global = false;
    for (std::size_t k = i; k < std::min(r.t.size(), i + 4); ++k) global |= r.is(k, "__global__");
    if (global) continue;
    auto f = r.function(i);
    if (!f || f->body == std::string::npos) continue;
    for (std::size_t k = f->body; k < f->end; ++k)
      if (r.is(k, "__syncthreads") || r.is(k, "__shared__"))
        return r.error(k, std::string(r.t[k].text) + " inside the __device__ function '" +
                              std::string(r.t[f->name].text) +
                              "': the lab traces barriers and shared arrays of the __global__ kernel's own body; "
                              "declare the array there and call __syncthreads() there (pass the tile to the helper)");
    i = f->end;
  }
  return Ok{};
}

// The last additive term of the tokens [from, to) at bracket depth 0, as text.
std::string lastTerm(const Reader& r, std::size_t from, std::size_t to) {
  int depth = 0;
  std::size_t start = from;
  for (std::size_t i = from; i < to; ++i) {
    if (r.is(i, "(") || r.is(i, "[")) depth++;
    if (r.is(i, ")") || r.is(i, "]")) depth--;
    if (depth == 0 && (r.is(i, "+") || r.is(i, "-"))) start = i + 1;
  }
  return r.joined(start, to);
}
bool isThreadX(const std::string& term) {
  return term == "tx" || term == "threadIdx . x" || term == "Col" || term == "col" || term == "gx";
}

// Which matrix `array` is loaded from: a statement `array[...]... = X[...]` with X one of the
// pointer parameters; and whether the slot's column follows the element's column.
void inferTiles(const Reader& r, std::size_t from, std::size_t to, const std::vector<KernelParam>& params,
                LabSharedArray& a) {
  for (std::size_t i = from; i < to; ++i) {
    if (!r.is(i, a.name) || !r.is(i + 1, "[")) continue;
    std::size_t k = i + 1, lastOpen = k;
    while (r.is(k, "[")) {
      lastOpen = k;
      k = r.matching(k) + 1;
    }
    if (!r.is(k, "=") || k + 2 >= to || !r.is(k + 2, "[")) continue;
    const auto src = std::find_if(params.begin(), params.end(),
                                  [&](const KernelParam& p) { return p.pointer && r.is(k + 1, p.name); });
    if (src == params.end() || (src->role != KernelParam::Role::M && src->role != KernelParam::Role::N)) continue;
    a.matrix = src->role == KernelParam::Role::M ? MatrixRole::M : MatrixRole::N;
    const std::string slotTerm = lastTerm(r, lastOpen + 1, r.matching(lastOpen));
    const std::string globalTerm = lastTerm(r, k + 3, r.matching(k + 2));
    a.tileRowIsMatrixRow = slotTerm == globalTerm || (isThreadX(slotTerm) && isThreadX(globalTerm));
    return;
  }
  // No load seen (an extern array carved into tiles, a tile filled some other way): by name.
  const char c = a.name.empty() ? ' ' : char(std::toupper(static_cast<unsigned char>(a.name[0])));
  if (!a.isExtern) a.matrix = c == 'M' || c == 'A' ? MatrixRole::M : c == 'N' || c == 'B' ? MatrixRole::N : MatrixRole::Other;
}

// A kernel whose '{' (at `open`) is never closed: one '}' is missing, and each '}' after it
// closed the block one level out. Where it is missing: the first for loop to close whose body
// goes on for whole statements after the last line using its loop variable (the k loop that
// also swallowed the barrier after it) probably lost its '}' right after that line; with no such
// loop, the kernel's own '}' is missing at the end.
Error missingBrace(const Reader& r, std::size_t open, std::string_view kernel) {
  const Tokens& t = r.t;
  struct Block {
    int line = 0;
    std::string_view variable;  // a for loop's
    int lastUse = 0;
  };
  std::vector<Block> blocks;
  for (std::size_t i = open; i < t.size(); ++i) {
    if (t[i].text == "{") {
      Block b{t[i].line, {}, 0};
      if (i > 0 && t[i - 1].text == ")") {  // `for ( TYPE v = ... ) {`
        std::size_t p = i - 1;
        for (int depth = 0; p > open; --p) {
          depth += t[p].text == ")" ? 1 : t[p].text == "(" ? -1 : 0;
          if (depth == 0) break;
        }
        if (p > 0 && t[p - 1].text == "for")
          for (std::size_t v = p + 1; v + 1 < i && t[v].text != ";"; ++v)
            if (t[v].kind == TokenKind::Identifier && (t[v + 1].text == "=" || t[v + 1].text == ":")) b.variable = t[v].text;
      }
      blocks.push_back(b);
    } else if (t[i].text == "}" && !blocks.empty()) {
      const Block b = blocks.back();
      blocks.pop_back();
      const bool laterStatement = b.lastUse > 0 && t[i - 1].text == ";" && t[i - 1].line > b.lastUse;
      if (!b.variable.empty() && laterStatement)
        return invalidInput(std::string(r.file) + ":" + std::to_string(b.lastUse + 1) + ": a '}' is probably missing here: the for loop of line " +
                            std::to_string(b.line) + " uses '" + std::string(b.variable) + "' last at line " +
                            std::to_string(b.lastUse) + ", but the '}' at line " + std::to_string(t[i].line) +
                            " closes it, so the kernel '" + std::string(kernel) + "' never ends (its '{' is never closed)");
    } else if (t[i].kind == TokenKind::Identifier) {
      for (Block& b : blocks)
        if (b.variable == t[i].text) b.lastUse = t[i].line;
    }
  }
  return invalidInput(std::string(r.file) + ":" + std::to_string(t.back().line) + ": the kernel '" + std::string(kernel) +
                      "' never ends: its '{' at line " + std::to_string(t[open].line) +
                      " is never closed (a '}' is missing after this line, or the file holds only the kernel's first lines)");
}


}  // namespace

Result<LabKernelSource> readKernelSource(std::string_view source, std::string_view fileName) {
  const Tokens tokens = tokenizeSource(source);
  const Reader r{tokens, fileName};
  std::size_t at = tokens.size();
  for (std::size_t i = 0; i < tokens.size() && at == tokens.size(); ++i)
    if (r.is(i, "__global__")) at = i;
  if (at == tokens.size())
    return invalidInput(std::string(fileName) + ":" + std::to_string(tokens.empty() ? 1 : tokens.front().line) + ": no __global__ function (a fragment of a kernel?): the lab runs " + kAcceptedSignatures);
  for (std::size_t k = at >= 12 ? at - 12 : 0; k < at; ++k)
    if (r.is(k, "template"))
      return r.error(at, "a template kernel: the lab compiles plain kernels; give TILE_WIDTH with #define (or --define)");
  auto f = r.function(at);
  if (!f || f->close >= tokens.size()) return r.error(at, "cannot read the kernel's parameter list");
  if (f->body == std::string::npos)
    return r.error(f->name, "the kernel '" + std::string(tokens[f->name].text) + "' has no complete body");
  if (f->end >= tokens.size()) return missingBrace(r, f->body, tokens[f->name].text);
  LabKernelSource k;
  k.name = std::string(tokens[f->name].text);
  k.line = tokens[f->name].line;
  k.params = parameters(r, f->open + 1, f->close);
  if (auto s = mapSignature(r, f->name, k.params, k.widthForm); !s) return s.error();
  if (auto s = checkHelpers(r); !s) return s.error();

  auto rewritten = rewriteDeclarations(source, fileName);
  if (!rewritten) return rewritten.error();
  k.rewritten = std::move(rewritten->text);
  for (const RewrittenFunction& fn : rewritten->functions) {
    if (!fn.isKernel || fn.name != k.name || fn.line != k.line) continue;
    for (const std::string& name : fn.sharedArrays) {
      LabSharedArray a;
      a.name = name;
      for (std::size_t i = f->body; i < f->end; ++i) {
        if (!r.is(i, "__shared__")) continue;
        std::size_t n = i + 1;
        while (n < f->end && !r.is(n, "[") && !r.is(n, ";")) ++n;
        if (!r.is(n - 1, name)) continue;
        a.declared = true;
        a.isExtern = (i > 0 && r.is(i - 1, "extern")) || (i > 1 && r.is(i - 2, "extern"));
        a.twoDimensional = r.is(n, "[") && r.is(r.matching(n) + 1, "[");
      }
      inferTiles(r, f->body, f->end, k.params, a);
      k.shared.push_back(std::move(a));
    }
  }
  return k;
}

TraceSink labTraceSinkFacts(const LabKernelSource& kernel, int rowStride) {
  TraceSink sink;
  for (std::size_t i = 0; i < kernel.shared.size() && i < std::size_t(kMaxSharedArrays); ++i) {
    const LabSharedArray& a = kernel.shared[i];
    sink.shared[i] = {a.matrix, a.twoDimensional ? 0 : rowStride, a.tileRowIsMatrixRow};
  }
  return sink;
}

namespace {
// [name start, name end) of a `#define NAME` line starting at `line`, or npos.
std::pair<std::size_t, std::size_t> defineName(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return {std::string_view::npos, 0};
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line.substr(i, 6) != "define") return {std::string_view::npos, 0};
  i = line.find_first_not_of(" \t", i + 6);
  if (i == std::string_view::npos) return {std::string_view::npos, 0};
  std::size_t e = i;
  while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
  return {i, e};
}
}  // namespace

std::string_view withoutByteOrderMark(std::string_view source) {
  return source.starts_with("\xEF\xBB\xBF") ? source.substr(3) : source;
}

std::string applyDefines(std::string_view source, const std::vector<std::pair<std::string, std::string>>& defines) {
  std::string out;
  std::size_t at = 0;
  while (at <= source.size()) {
    std::size_t end = source.find('\n', at);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view line = source.substr(at, end - at);
    const auto [b, e] = defineName(line);
    bool replaced = false;
    if (b != std::string_view::npos && line.back() != '\\') {
      for (const auto& [name, value] : defines)
        if (line.substr(b, e - b) == name) {
          out += "#define " + name + " " + value;
          replaced = true;
          break;
        }
    }
    if (!replaced) out += line;
    if (end == source.size()) break;
    out += '\n';
    at = end + 1;
  }
  return out;
}

std::optional<int> definedInteger(std::string_view source, std::string_view name) {
  std::size_t at = 0;
  while (at < source.size()) {
    std::size_t end = source.find('\n', at);
    if (end == std::string_view::npos) end = source.size();
    const std::string_view line = source.substr(at, end - at);
    const auto [b, e] = defineName(line);
    if (b != std::string_view::npos && line.substr(b, e - b) == name) {
      std::string rest(line.substr(e));
      rest.erase(0, rest.find_first_not_of(" \t"));
      while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back()))) rest.pop_back();
      if (!rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
          rest.size() < 9)
        return std::stoi(rest);
    }
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace tilescope::lab
