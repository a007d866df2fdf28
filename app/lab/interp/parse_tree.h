// The parsed translation unit: tree-sitter's CUDA grammar over the preprocessed text, and the
// helpers the front end reads the tree with.
#pragma once
#include <tree_sitter/api.h>

#include <optional>
#include <string>
#include <string_view>

#include "lab/interp/interp.h"
#include "lab/interp/preprocess.h"

namespace tilescope::interp {

struct Unit {
  Preprocessed pre;
  TSTree* tree = nullptr;
  Unit() = default;
  Unit(const Unit&) = delete;
  Unit& operator=(const Unit&) = delete;
  ~Unit();
  TSNode root() const { return ts_tree_root_node(tree); }
  std::string_view text(TSNode n) const {
    return std::string_view(pre.text).substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }
  // Where a node starts, on the student's line (columns count from 1).
  int line(TSNode n) const { return pre.studentLine(int(ts_node_start_point(n).row) + 1); }
  int column(TSNode n) const { return int(ts_node_start_point(n).column) + 1; }
};

// Parses the preprocessed text; the first syntax error, at the student's line, if any.
std::optional<Diagnostic> parseUnit(Unit& unit);

inline std::string_view typeOf(TSNode n) { return ts_node_type(n); }
inline bool is(TSNode n, std::string_view type) { return !ts_node_is_null(n) && typeOf(n) == type; }
inline TSNode field(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, uint32_t(std::string_view(name).size()));
}

// Whether one of n's own tokens is `token` (__global__, __device__, const...).
inline bool hasToken(const Unit& u, TSNode n, std::string_view token) {
  for (uint32_t i = 0; i < ts_node_child_count(n); ++i)
    if (u.text(ts_node_child(n, i)) == token) return true;
  return false;
}
// The name a declarator declares, through its pointer, array and function declarators.
inline TSNode nameOf(TSNode declarator) {
  while (!ts_node_is_null(declarator) && !is(declarator, "identifier")) declarator = field(declarator, "declarator");
  return declarator;
}

}  // namespace tilescope::interp
