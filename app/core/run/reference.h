// The host reference: P = M x N in double precision, and the check every result passes
// before it is shown, plotted or timed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/run/matrix.h"

namespace tilescope {

struct Verification {
  bool passed = false;
  // Largest |P - ref| / sum_i |M[r][i] * N[i][c]| over the checked elements: the error
  // relative to the magnitude the sum went through, so cancellation does not inflate it.
  double maxRelativeError = 0.0;
  double tolerance = 0.0;
  int worstRow = -1, worstCol = -1;  // element with the largest error (or the first NaN)
  long nonFinite = 0;                // NaN or infinite elements among those checked
  long checked = 0;                  // elements compared (all, or a sample for large P)
  long wrong = 0;                    // elements over the tolerance
  bool sampled = false;
  // Per element of P in row-major order, 1 where it is wrong: filled when every element was
  // checked (not sampled), so the app marks the wrong cells without checking them again.
  std::vector<uint8_t> wrongCells;
  int cols = 0;  // P's columns, to index wrongCells

  bool wrongAt(int row, int col) const {
    const std::size_t i = std::size_t(row) * std::size_t(cols) + std::size_t(col);
    return i < wrongCells.size() && wrongCells[i] != 0;
  }
  std::string summary() const;
};

// The error a float dot product of length k may carry: a few ulps per sqrt(k) terms, with
// margin for FMA contraction and any summation order (cuBLAS sums differently). Operands
// rounded to fewer mantissa bits first (`mantissaBits` < 23: TF32 on the tensor cores, 10) add
// their rounding: each product carries two, at most 2^-(bits + 1) of its size each, so the sum
// is off by at most 2^-bits (and their square) of its magnitude, whatever k.
double verificationTolerance(int k, int mantissaBits = 23);

// Compares every element when P has at most `maxChecked` elements, otherwise a
// reproducible sample of that many (each row and column of P is hit at least once when
// there are enough samples).
// `mantissaBits`: the operands' precision as the kernel multiplied them (KernelInfo's
// operandMantissaBits).
Verification verifyProduct(const Matrix& M, const Matrix& N, const Matrix& P, long maxChecked = 1L << 20,
                           int mantissaBits = 23);

// The double-precision reference element P[r][c].
double referenceElement(const Matrix& M, const Matrix& N, int r, int c);

// One element of P against the reference: the one rule that verification, the app's red
// cells and the bug gallery all apply.
struct ElementCheck {
  double expected = 0.0;  // the reference, in double precision
  double error = 0.0;     // |P - ref| / sum_i |M[r][i] N[i][c]|; infinite when P is not finite
  bool finite = true;
  bool wrong(double tolerance) const { return !finite || error > tolerance; }
};
ElementCheck checkElement(const Matrix& M, const Matrix& N, const Matrix& P, int r, int c);

}  // namespace tilescope
