// The explanations added to a compiler's messages and to a wrong result (lab_diagnostics.h):
// a near miss of a CUDA built-in, a missing ';' before the barrier, a compiler stopped at the
// lab's limits, an integer accumulator behind whole-number values of P, and the first wrong
// element of P followed back to the operand that differs from the reference's.
#include "lab_diagnostics.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <span>

#include "core/run/reference.h"
#include "core/trace/trace.h"
#include "kernels/rewrite/declaration_rewrite.h"
#include "core/edit_distance.h"

namespace tilescope::lab {
namespace {


// The name an "undeclared" message is about: g++'s 'NAME' was not declared, NVRTC's
// identifier "NAME" is undefined.
std::string_view undeclaredName(std::string_view m) {
  if (m.starts_with("'") && m.find("' was not declared") != std::string_view::npos) return m.substr(1, m.find('\'', 1) - 1);
  if (m.starts_with("identifier \"") && m.find("\" is undefined") != std::string_view::npos)
    return m.substr(12, m.find('"', 12) - 12);
  return {};
}

// "; did you mean '__syncthreads'?" for a near miss of a CUDA built-in.
std::string builtinSuggestion(std::string_view message) {
  const std::string_view name = undeclaredName(message);
  if (name.empty() || message.find("did you mean") != std::string_view::npos) return {};
  for (std::string_view b : {"__syncthreads", "threadIdx", "blockIdx", "blockDim", "gridDim", "__shared__", "__syncwarp",
                             "atomicAdd", "warpSize", "__device__", "__global__"})
    if (name != b && editDistance(name, b) <= 2) return "; did you mean '" + std::string(b) + "'?";
  return {};
}

bool endsStatement(std::string_view t) {
  return t == ";" || t == "{" || t == "}" || t == ")" || t == ":" || t == "else" || t == "do";
}

bool missingSemicolonWords(std::string_view m) {
  return m.starts_with("expected ';'") || m.starts_with("expected ',' or ';'") || m.starts_with("expected a \";\"") ||
         m.find("void expression") != std::string_view::npos || m.find("apparent call") != std::string_view::npos ||
         m.find("operator()") != std::string_view::npos;
}

}  // namespace

constexpr std::string_view kOverLimit = "the compiled kernel would be over the lab's limits";

namespace {
// The line of the first __device__ / __constant__ array of the file, 0 if none.
int firstGlobalArrayLine(const std::vector<SourceToken>& tokens) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].text != "__device__" && tokens[i].text != "__constant__") continue;
    for (std::size_t k = i + 1; k < tokens.size() && tokens[k].text != ";" && tokens[k].text != "(" && tokens[k].text != "{"; ++k)
      if (tokens[k].text == "[") return tokens[i].line;
  }
  return 0;
}
}  // namespace

void explainDiagnostics(std::vector<LabDiagnostic>& diagnostics, std::string_view source) {
  const std::vector<SourceToken> tokens = tokenizeSource(source);
  int kernelLine = 0;
  for (const SourceToken& t : tokens)
    if (t.kind == TokenKind::Identifier && t.text == "__global__") {
      kernelLine = t.line;
      break;
    }
  auto columnAfter = [&](const SourceToken& t) {
    const std::size_t lineStart = source.rfind('\n', t.offset);
    return int(t.offset - (lineStart == std::string_view::npos ? 0 : lineStart + 1) + t.text.size()) + 1;
  };
  const int lines = int(std::count(source.begin(), source.end(), '\n')) + 1;
  for (LabDiagnostic& d : diagnostics) {
    if (!source.empty() && d.line > lines) {  // the file's own #line renumbered it
      d.message += " (the compiler's line " + std::to_string(d.line) + " is past the end of your file: a #line directive?)";
      d.line = 0;
    }
    if (d.line <= 0 && d.message.starts_with(kOverLimit)) d.line = firstGlobalArrayLine(tokens), d.column = 1;
    if (d.line <= 0) d.line = std::max(kernelLine, 1), d.column = 1;
    d.message += builtinSuggestion(d.message);
    // g++ reads `x = 0.0f __syncthreads()` (after the lab's macro) as a call of `0.0f`: when the
    // line starts with the barrier, that message is a missing ';' too.
    const bool semicolonWords = missingSemicolonWords(d.message);
    const bool callWords = d.message.find("cannot be used as a function") != std::string::npos;
    if (!semicolonWords && !callWords) continue;
    // At the first token of its line (a __syncthreads() the lab's macro expanded, or the token
    // g++ names): the statement above runs into it, and the ';' belongs at that statement's end.
    const auto first = std::find_if(tokens.begin(), tokens.end(), [&](const SourceToken& t) { return t.line == d.line; });
    if (first == tokens.end() || first == tokens.begin()) continue;
    const bool barrier = first->text == "__syncthreads";
    if (!semicolonWords && !barrier) continue;
    const bool named = d.message.find("before '" + std::string(first->text) + "'") != std::string::npos;
    if (!barrier && !named && columnAfter(*first) - int(first->text.size()) != d.column) continue;  // g++ counts a tab as 8
    const SourceToken& before = *(first - 1);
    if (endsStatement(before.text)) continue;
    d.message = "expected ';' at the end of this line: the statement runs on into " +
                std::string(barrier ? "the __syncthreads() of " : "") + "line " + std::to_string(d.line);
    d.line = before.line;
    d.column = columnAfter(before);
  }
}

namespace {

// The integer variable P's store at `storeLine` takes its value from (`P[...] = Pvalue;`
// with `int Pvalue` declared before it): its name and its declaration's line.
std::optional<std::pair<std::string, int>> integerStoredAt(std::string_view source, int storeLine) {
  const std::vector<SourceToken> tokens = tokenizeSource(source);
  std::size_t i = 0;
  while (i < tokens.size() && (tokens[i].line != storeLine || tokens[i].text != "=")) ++i;
  if (i + 2 >= tokens.size() || tokens[i + 1].kind != TokenKind::Identifier || tokens[i + 2].text != ";") return std::nullopt;
  const std::string_view name = tokens[i + 1].text;
  for (std::size_t d = i; d-- > 1;)
    if (tokens[d].text == name)
      for (std::string_view type : {"int", "long", "short", "unsigned", "char", "size_t"})
        if (tokens[d - 1].text == type) return std::pair{std::string(name), tokens[d].line};
  return std::nullopt;
}

// Where a NaN in P most likely came from: the first multiply-add read of a shared slot that no
// thread of its block had written (the emulator fills shared memory with NaN before any write),
// with the line(s) that write that tile, so a swapped index (`int tx = threadIdx.y;`) is named
// at the student's lines instead of only counted.
std::string unwrittenSlotHint(const Run& run) {
  if (!run.trace) return {};
  const auto events = std::span(run.trace->events);
  const auto read = std::find_if(events.begin(), events.end(), [](const Event& e) {
    return (e.op == Op::ReadM || e.op == Op::ReadN) && !(e.flags & kWide) && std::isnan(e.value);
  });
  if (read == events.end()) return {};
  const Op load = read->op == Op::ReadM ? Op::LoadM : Op::LoadN;
  const auto write = std::find_if(events.begin(), events.end(), [&](const Event& e) {
    return e.op == load && e.sharedRow >= 0 && e.blockX == read->blockX && e.blockY == read->blockY;
  });
  const char tile = read->op == Op::ReadM ? 'M' : 'N';
  char text[360];
  std::snprintf(text, sizeof text,
                "; a NaN in P comes from a shared slot read before any thread of its block wrote it: %s of block "
                "(%d,%d) reads %cds[%d][%d] at line %d in phase %d, which held nothing yet",
                threadName(read->threadX, read->threadY).c_str(), read->blockX, read->blockY, tile, read->sharedRow,
                read->sharedCol, read->line, read->phase);
  std::string hint = text;
  if (write != events.end())
    hint += ": check which slots the write into " + std::string(1, tile) + "ds at line " + std::to_string(write->line) +
            " fills, and that a __syncthreads() stands between it and the reads";
  return hint;
}

// The first wrong element of P followed back through the trace to the first operand its thread
// multiplied that the reference kernel would not have: the reference's k-th product of P(r, c)
// is M(r, k) x N(k, c), so the thread's k-th read of M must hold M(r, k) and its k-th read of N
// N(k, c) (0 past k's end, a boundary fill). A wrong one read from a tile is traced to the load
// that filled its slot in that phase: which element of M or N it loaded, at which line, by which
// thread. Only for a thread that multiplies one M value by one N value per k step (the
// chapter's kernels, the lab's exercises); "" where the trace says nothing more.
struct Operand {
  const Event* read = nullptr;  // the thread's read (of a tile, or of global memory)
  const Event* load = nullptr;  // the load that filled the tile's slot (null: read from global memory)
};

Operand sourceOf(std::span<const Event> events, const Event& read) {
  const bool isM = read.op == Op::ReadM || read.op == Op::LoadM;
  if (read.op == Op::LoadM || read.op == Op::LoadN) return {&read, nullptr};
  const Event* load = nullptr;
  for (const Event& e : events) {  // the last write of that slot in the block before the read's phase ended
    if (&e == &read) break;
    if (e.op == (isM ? Op::LoadM : Op::LoadN) && e.sharedRow == read.sharedRow && e.sharedCol == read.sharedCol &&
        e.blockX == read.blockX && e.blockY == read.blockY && e.phase == read.phase)
      load = &e;
  }
  return {&read, load};
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

std::string operandSentence(const Run& run, int row, int col, int k, const Operand& o, double expected) {
  const bool isM = o.read->op == Op::ReadM || o.read->op == Op::LoadM;
  const char* matrix = isM ? "M" : "N";
  const int wantRow = isM ? row : k, wantCol = isM ? k : col;
  std::string s = "; P(" + std::to_string(row) + "," + std::to_string(col) + ") is the first wrong element (" +
                  number(run.p.at(row, col)) + " where " + number(referenceElement(run.m, run.n, row, col)) +
                  " is right): at k = " + std::to_string(k) + " its " + threadName(o.read->threadX, o.read->threadY) +
                  " of block (" + std::to_string(o.read->blockX) + "," + std::to_string(o.read->blockY) + ") reads ";
  const Event& from = o.load ? *o.load : *o.read;
  const std::string got = zeroFilled(from) ? "0 (a boundary fill)"
                                           : std::string(matrix) + "(" + std::to_string(from.globalRow) + "," +
                                                 std::to_string(from.globalCol) + ") = " + number(from.value);
  if (o.load)
    s += std::string(isM ? "Mds" : "Nds") + "[" + std::to_string(o.read->sharedRow) + "][" + std::to_string(o.read->sharedCol) +
         "] at line " + std::to_string(o.read->line) + ", which " + threadName(from.threadX, from.threadY) +
         " filled at line " + std::to_string(from.line) + " with " + got;
  else
    s += got + " at line " + std::to_string(o.read->line);
  s += ", where the reference reads " + std::string(matrix) + "(" + std::to_string(wantRow) + "," + std::to_string(wantCol) +
       ") = " + number(expected) + ": check the index at line " + std::to_string(from.line);
  return s;
}

struct WrongOperand {
  int row = -1, col = -1, k = -1;
  Operand operand;
  double expected = 0;
};

std::optional<WrongOperand> firstWrongOperand(const Run& run) {
  const Verification& v = run.verification;
  if (!run.trace || v.wrongCells.empty() || v.cols <= 0) return std::nullopt;
  const auto first = std::find(v.wrongCells.begin(), v.wrongCells.end(), uint8_t(1));
  if (first == v.wrongCells.end()) return std::nullopt;
  const int row = int((first - v.wrongCells.begin()) / v.cols), col = int((first - v.wrongCells.begin()) % v.cols);
  const auto events = std::span<const Event>(run.trace->events);
  const auto store = std::find_if(events.begin(), events.end(), [&](const Event& e) {
    return e.op == Op::StoreP && e.globalRow == row && e.globalCol <= col && col < e.globalCol + eventWidth(e.flags);
  });
  if (store == events.end() || (store->flags & kWide)) return std::nullopt;
  // The storing thread's operands, in its program order (a thread's events are in order in the trace).
  std::vector<const Event*> ms, ns;
  for (const Event& e : events) {
    if (e.blockX != store->blockX || e.blockY != store->blockY || e.threadX != store->threadX || e.threadY != store->threadY)
      continue;
    if (e.flags & (kWide | kStagedRead)) return std::nullopt;
    const bool global = (e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow < 0 && e.k >= 0;
    if (e.op == Op::ReadM || (global && e.op == Op::LoadM)) ms.push_back(&e);
    if (e.op == Op::ReadN || (global && e.op == Op::LoadN)) ns.push_back(&e);
  }
  if (ms.size() != ns.size()) return std::nullopt;
  const int K = run.m.cols;
  for (std::size_t k = 0; k < ms.size(); ++k)
    for (const Event* read : {ms[k], ns[k]}) {
      const bool isM = read == ms[k];
      const double expected = int(k) < K ? double(isM ? run.m.at(row, int(k)) : run.n.at(int(k), col)) : 0.0;
      if (double(read->value) != expected) return WrongOperand{row, col, int(k), sourceOf(events, *read), expected};
    }
  return std::nullopt;
}

std::string wrongOperandHint(const Run& run) {
  const auto w = firstWrongOperand(run);
  return w ? operandSentence(run, w->row, w->col, w->k, w->operand, w->expected) : std::string();
}
}  // namespace

std::vector<int> wrongResultLines(const Run& run) {
  if (run.verification.passed) return {};
  const auto w = firstWrongOperand(run);
  if (!w) return {};
  std::vector<int> lines{int(w->operand.read->line)};
  if (w->operand.load && w->operand.load->line != w->operand.read->line) lines.push_back(int(w->operand.load->line));
  return lines;
}

std::string wrongResultHint(const Run& run) {
  const Verification& v = run.verification;
  if (v.passed || v.wrongCells.empty() || v.worstRow < 0) return {};
  if (v.nonFinite > 0)
    if (std::string hint = unwrittenSlotHint(run); !hint.empty()) return hint;
  long wrong = 0, whole = 0;
  for (std::size_t i = 0; i < v.wrongCells.size() && i < run.p.values.size(); ++i)
    if (v.wrongCells[i]) {
      const float x = run.p.values[i];
      ++wrong;
      whole += std::isfinite(x) && x == std::trunc(x);
    }
  const double expected = referenceElement(run.m, run.n, v.worstRow, v.worstCol);
  if (wrong == 0 || whole != wrong || expected == std::trunc(expected)) return wrongOperandHint(run);
  int storeLine = 0;
  if (run.trace)
    for (const Event& e : run.trace->events)
      if (e.op == Op::StoreP) {
        storeLine = e.line;
        break;
      }
  char text[320];
  std::snprintf(text, sizeof text, "; every wrong value of P is a whole number (P(%d,%d) = %g where %.4g is right)",
                v.worstRow, v.worstCol, double(run.p.at(v.worstRow, v.worstCol)), expected);
  std::string hint = text;
  const auto integer = labKernel(run) && storeLine ? integerStoredAt(labKernel(run)->text, storeLine) : std::nullopt;
  if (integer)
    return hint + ": P is stored at line " + std::to_string(storeLine) + " from '" + integer->first +
           "', an integer variable (line " + std::to_string(integer->second) +
           "): each sum into it drops the fraction; make it a float";
  if (storeLine) hint += ", stored at line " + std::to_string(storeLine);
  return hint + ": the sum lost its fractions, as an int accumulator or an integer division does";
}

}  // namespace tilescope::lab
