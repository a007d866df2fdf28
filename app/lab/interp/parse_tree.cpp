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

}  // namespace

std::optional<Diagnostic> parseUnit(Unit& unit) {
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
    return Diagnostic{unit.line(bad), unit.column(bad), token + " is missing here"};
  }
  const std::string near = firstWordOf(unit.text(bad));
  return Diagnostic{unit.line(bad), unit.column(bad),
                    near.empty() ? std::string("this line is not valid CUDA C")
                                 : "this is not valid CUDA C here: '" + near + "'"};
}

}  // namespace tilescope::interp
