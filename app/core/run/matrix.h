// Row-major float matrices and the inputs every run draws.
#pragma once
#include <cstdint>
#include <vector>

namespace tilescope {

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<float> values;

  Matrix() = default;
  Matrix(int r, int c, float fill = 0.0f) : rows(r), cols(c), values(std::size_t(r) * std::size_t(c), fill) {}
  float& at(int r, int c) { return values[std::size_t(r) * cols + c]; }
  float at(int r, int c) const { return values[std::size_t(r) * cols + c]; }
  std::size_t size() const { return values.size(); }
};

// Uniform values in [-1, 1), reproducible from `seed`, never all zeros.
Matrix randomMatrix(int rows, int cols, uint64_t seed);

// Fills with NaN so that any element a kernel fails to write is caught by verification.
void poison(Matrix& m);

}  // namespace tilescope
