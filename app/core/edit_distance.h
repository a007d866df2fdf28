// Levenshtein distance between two names, for the "did you mean" of a misspelt name: a page
// address's key (app/ui/app_options.cpp), a student's undeclared name (app/lab/interp) and a
// compiler's message about one (app/lab/lab_explain.cpp).
#pragma once
#include <algorithm>
#include <cstddef>
#include <string_view>
#include <vector>

namespace tilescope {

// Only the first 64 characters of each are compared: a name is short, and a student's file may
// hold a name thousands of characters long, which would cost the square of its length.
inline std::size_t editDistance(std::string_view a, std::string_view b) {
  a = a.substr(0, 64), b = b.substr(0, 64);
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace tilescope
