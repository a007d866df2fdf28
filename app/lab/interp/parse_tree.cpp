#include "lab/interp/parse_tree.h"

extern "C" const TSLanguage* tree_sitter_cuda(void);

namespace tilescope::interp {

Unit::~Unit() {
  if (tree) ts_tree_delete(tree);
}

namespace {

// The first node, in reading order, that the parser had to invent (MISSING) or skip (ERROR).
TSNode firstBroken(TSNode n) {
  if (ts_node_is_missing(n) || is(n, "ERROR")) return n;
  const uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_has_error(c) && !ts_node_is_missing(c)) continue;
    TSNode found = firstBroken(c);
    if (!ts_node_is_null(found)) return found;
  }
  return TSNode{};
}

std::string firstWordOf(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && end < 24 && text[end] != '\n') ++end;
  std::string word(text.substr(0, end));
  while (!word.empty() && (word.back() == ' ' || word.back() == '\t')) word.pop_back();
  return word;
}

// What a statement without its ';' runs on into: the barrier by name, else the next line.
std::string whatFollows(const Unit& unit, TSNode next) {
  return unit.text(next).rfind("__syncthreads", 0) == 0 ? "the __syncthreads()" : "the next line";
}

// A statement whose ';' is missing runs on into the next line, where the parser stops: the
// mistake is at the end of the line before (the last one with code on it), not where it stopped.
std::optional<Diagnostic> statementRunsOn(const Unit& unit, TSNode bad) {
  const uint32_t row = ts_node_start_point(bad).row;
  const std::string& text = unit.pre.text;
  std::size_t lineStart = ts_node_start_byte(bad);
  while (lineStart > 0 && text[lineStart - 1] != '\n') --lineStart;
  const std::string before = std::string(text.substr(lineStart, ts_node_start_byte(bad) - lineStart));
  if (before.find_first_not_of(" \t") != std::string::npos || lineStart == 0) return std::nullopt;
  // the previous line with code on it, comments aside
  std::size_t end = lineStart - 1;
  for (uint32_t back = 1; back <= row; ++back) {
    std::size_t start = end;
    while (start > 0 && text[start - 1] != '\n') --start;
    std::string code = text.substr(start, end - start);
    if (const std::size_t comment = code.find("//"); comment != std::string::npos) code.resize(comment);
    while (!code.empty() && (code.back() == ' ' || code.back() == '\t' || code.back() == '\r')) code.pop_back();
    if (!code.empty()) {
      const char last = code.back();
      if (last == ';' || last == '{' || last == '}' || last == ':' || code.find('#') != std::string::npos) return std::nullopt;
      return Diagnostic{unit.pre.studentLine(int(row - back) + 1), int(code.size()) + 1,
                        "expected ';' at the end of this line: the statement runs on into " + whatFollows(unit, bad)};
    }
    if (start == 0) break;
    end = start - 1;
  }
  return std::nullopt;
}

// Brackets nested deeper than this are refused before the parser sees them: its error recovery
// over tens of thousands of open brackets is not something to lean on, and no kernel needs
// more than a few dozen (the lowering refuses expressions past 64 levels anyway).
constexpr int kMaxBracketDepth = 256;

// The first place the brackets ( [ { nest past kMaxBracketDepth, strings and characters aside.
std::optional<Diagnostic> bracketsTooDeep(const Unit& unit) {
  const std::string& text = unit.pre.text;
  int depth = 0, line = 1;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote || c == '\n') quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') {
      if (++depth > kMaxBracketDepth)
        return Diagnostic{unit.pre.studentLine(line), 1,
                          "brackets are nested more than " + std::to_string(kMaxBracketDepth) + " deep here"};
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Diagnostic> parseUnit(Unit& unit) {
  if (auto deep = bracketsTooDeep(unit)) return deep;
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_cuda());
  unit.tree = ts_parser_parse_string(parser, nullptr, unit.pre.text.data(), uint32_t(unit.pre.text.size()));
  ts_parser_delete(parser);
  if (!unit.tree) return Diagnostic{0, 0, "the lab could not read your file"};
  TSNode root = unit.root();
  if (!ts_node_has_error(root)) return std::nullopt;
  TSNode bad = firstBroken(root);
  if (ts_node_is_null(bad)) return Diagnostic{0, 0, "this file is not valid CUDA C"};
  if (ts_node_is_missing(bad)) {
    // A token the parser expected: placed where it is missing, after the previous token.
    std::string token = typeOf(bad) == std::string_view("identifier") ? "a name" : "'" + std::string(typeOf(bad)) + "'";
    if (token == "';'") return Diagnostic{unit.line(bad), unit.column(bad), "expected ';' at the end of this line"};
    return Diagnostic{unit.line(bad), unit.column(bad), "expected " + token + " here"};
  }
  if (auto e = statementRunsOn(unit, bad)) return e;
  // What the parser skipped ends its line and the code goes on below: the line lacks its ';'.
  TSNode next = ts_node_next_sibling(bad);
  while (!ts_node_is_null(next) && is(next, "comment")) next = ts_node_next_sibling(next);
  if (!ts_node_is_null(next) && ts_node_start_point(next).row > ts_node_end_point(bad).row)
    return Diagnostic{unit.line(bad), int(ts_node_end_point(bad).column) + 1,
                      "expected ';' at the end of this line: the statement runs on into " + whatFollows(unit, next)};
  const std::string near = firstWordOf(unit.text(bad));
  return Diagnostic{unit.line(bad), unit.column(bad),
                    near.empty() ? std::string("this line is not valid CUDA C")
                                 : "this is not valid CUDA C here: '" + near + "'"};
}

}  // namespace tilescope::interp
