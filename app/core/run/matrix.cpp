#include "core/run/matrix.h"

#include <limits>
#include <random>

namespace tilescope {

Matrix randomMatrix(int rows, int cols, uint64_t seed) {
  Matrix m(rows, cols);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float& v : m.values) v = dist(rng);
  return m;
}

void poison(Matrix& m) {
  for (float& v : m.values) v = std::numeric_limits<float>::quiet_NaN();
}

}  // namespace tilescope
