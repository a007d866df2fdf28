// Levenshtein distance between two names, for the "did you mean" of a misspelt name: a page
// address's key (app/ui/app_options.cpp), a student's undeclared name (app/lab/interp) and a
// compiler's message about one (app/lab/lab_explain.cpp).
#pragma once
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace tilescope {

// Edits are insertions, deletions, substitutions and swaps of two neighbouring characters
// (optimal string alignment): "--kernle" is one edit from "--kernel", as a typist makes it, not
// two. Only the first 64 characters of each are compared: a name is short, and a student's
// file may hold a name thousands of characters long, which would cost the square of its length.
inline std::size_t editDistance(std::string_view a, std::string_view b) {
  a = a.substr(0, 64), b = b.substr(0, 64);
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      row[j] = std::min({previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, row);
  }
  return previous[b.size()];
}

}  // namespace tilescope
