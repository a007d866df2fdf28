#include "core/run/reference.h"

#include <cmath>
#include <cstdio>
#include <random>

namespace tilescope {

double verificationTolerance(int k, int mantissaBits) {
  const double fp32 = 32.0 * std::sqrt(double(k)) * std::ldexp(1.0, -24) + 1e-7;
  if (mantissaBits >= 23) return fp32;
  const double operands = std::ldexp(1.0, -mantissaBits);  // 2 x 2^-(bits + 1)
  return fp32 + operands + operands * operands / 4;
}

double referenceElement(const Matrix& M, const Matrix& N, int r, int c) {
  double sum = 0.0;
  for (int i = 0; i < M.cols; ++i) sum += double(M.at(r, i)) * double(N.at(i, c));
  return sum;
}

ElementCheck checkElement(const Matrix& M, const Matrix& N, const Matrix& P, int r, int c) {
  double sum = 0.0, magnitude = 0.0;
  for (int i = 0; i < M.cols; ++i) {
    const double term = double(M.at(r, i)) * double(N.at(i, c));
    sum += term;
    magnitude += std::fabs(term);
  }
  const double got = P.at(r, c);
  if (!std::isfinite(got)) return {sum, INFINITY, false};
  return {sum, std::fabs(got - sum) / std::max(magnitude, 1e-30), true};
}

Verification verifyProduct(const Matrix& M, const Matrix& N, const Matrix& P, long maxChecked, int mantissaBits) {
  Verification v;
  v.tolerance = verificationTolerance(M.cols, mantissaBits);
  const long total = long(P.rows) * P.cols;
  const bool everyElement = total <= maxChecked;
  v.cols = P.cols;
  if (everyElement) v.wrongCells.assign(std::size_t(total), 0);
  auto visit = [&](int r, int c) {
    const ElementCheck e = checkElement(M, N, P, r, c);
    ++v.checked;
    if (!e.finite) ++v.nonFinite;
    if (e.wrong(v.tolerance)) {
      ++v.wrong;
      if (everyElement) v.wrongCells[std::size_t(r) * std::size_t(P.cols) + std::size_t(c)] = 1;
    }
    if (v.worstRow < 0 || e.error > v.maxRelativeError) {
      v.maxRelativeError = e.error;
      v.worstRow = r;
      v.worstCol = c;
    }
  };
  if (everyElement) {
    for (int r = 0; r < P.rows; ++r)
      for (int c = 0; c < P.cols; ++c) visit(r, c);
  } else {
    v.sampled = true;
    std::mt19937_64 rng(0x7113c09eULL ^ uint64_t(total));
    std::uniform_int_distribution<int> row(0, P.rows - 1), col(0, P.cols - 1);
    // A diagonal sweep first touches every row and column, then random elements.
    const int sweep = std::max(P.rows, P.cols);
    for (long s = 0; s < maxChecked; ++s) {
      if (s < sweep) visit(int(s % P.rows), int(s % P.cols));
      else visit(row(rng), col(rng));
    }
  }
  v.passed = v.checked > 0 && v.wrong == 0;
  return v;
}

std::string Verification::summary() const {
  char buf[320];
  if (nonFinite > 0) {
    std::snprintf(buf, sizeof buf, "FAILED: %ld of %ld checked elements are NaN or infinite (one at P(%d,%d))",
                  nonFinite, checked, worstRow, worstCol);
  } else if (passed) {
    std::snprintf(buf, sizeof buf, "verified: max relative error %.3g (tolerance %.3g) over %ld %selements",
                  maxRelativeError, tolerance, checked, sampled ? "sampled " : "");
  } else {
    std::snprintf(buf, sizeof buf,
                  "FAILED: %ld of %ld %selements wrong, max relative error %.3g at P(%d,%d) (tolerance %.3g)", wrong,
                  checked, sampled ? "sampled " : "", maxRelativeError, worstRow, worstCol, tolerance);
  }
  return buf;
}

}  // namespace tilescope
