// A tensor-core rung's GPU trace against the emulator's (rung 10 unless TRACE_KERNEL names
// another, mma_trace.h), thread by thread and slot by slot, at the shapes of its GPU tests:
// every field of every event equal (barrier clocks aside), loads, shared reads and the A and B fragments bit-identical, the accumulator
// fragments and stores of P within 2e-6 (k + 1) of their size (the GPU's order of summation
// inside an MMA is its own). Also: each executor's P against the double-precision reference
// with its facts' tolerance (TF32), and every A and B fragment element a TF32 number (13 low bits 0).
// Prints one line per shape and "ALL EQUAL" or the first difference; exit status 0 when equal.
// Built and run by bench/tensor_cores/device.sh (the traced kernel rewritten as the build does).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench/tensor_cores/mma_trace.h"

namespace {
using namespace tilescope;

struct Shape {
  int j, k, l, tiling;
};

double relativeError(const std::vector<float>& M, const std::vector<float>& N, const std::vector<float>& P, int j,
                     int k, int l) {
  double worst = 0;
  for (int r = 0; r < j; ++r)
    for (int c = 0; c < l; ++c) {
      double ref = 0, mag = 0;
      for (int i = 0; i < k; ++i) {
        ref += double(M[std::size_t(r) * k + i]) * N[std::size_t(i) * l + c];
        mag += std::fabs(double(M[std::size_t(r) * k + i]) * N[std::size_t(i) * l + c]);
      }
      const double e = std::fabs(P[std::size_t(r) * l + c] - ref) / (mag + 1e-30);
      worst = std::isfinite(P[std::size_t(r) * l + c]) ? std::max(worst, e) : INFINITY;
    }
  return worst;
}

uint32_t bitsOf(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

std::string describe(const Event& e) {
  char s[256];
  std::snprintf(s, sizeof s, "op %d block(%d,%d) thread %d line %d flags %d global(%d,%d) shared(%d,%d) value %.9g",
                int(e.op), e.blockX, e.blockY, e.threadX, e.line, e.flags, e.globalRow, e.globalCol, e.sharedRow,
                e.sharedCol, double(e.value));
  return s;
}

// Slot by slot; the first difference into `first`.
long compareSlots(const std::vector<Event>& emu, const std::vector<Event>& gpu, int k, std::string& first,
                  std::map<int, long>& counts, long& notTf32) {
  long differences = 0;
  const double tolerance = 2e-6 * (k + 1);
  for (std::size_t i = 0; i < emu.size(); ++i) {
    const Event& a = emu[i];
    const Event& b = gpu[i];
    if (a.op != Op::None) ++counts[int(a.op)];
    if ((a.op == Op::MmaA || a.op == Op::MmaB) && (bitsOf(b.value) & 0x1fffu)) ++notTf32;
    bool same = a.op == b.op && a.flags == b.flags && a.line == b.line && a.blockX == b.blockX &&
                a.blockY == b.blockY && a.threadX == b.threadX && a.threadY == b.threadY &&
                a.sharedRow == b.sharedRow && a.sharedCol == b.sharedCol;
    if (a.op != Op::Barrier) same = same && a.globalRow == b.globalRow && a.globalCol == b.globalCol;
    if (same && a.op != Op::Barrier && a.op != Op::None) {
      if (a.op == Op::StoreP || a.op == Op::MmaC)
        same = std::fabs(double(a.value) - b.value) <= tolerance * std::max(1.0, std::fabs(double(a.value)));
      else same = bitsOf(a.value) == bitsOf(b.value);
    }
    if (!same && differences++ == 0)
      first = "slot " + std::to_string(i) + ":\n  emulator " + describe(a) + "\n  gpu      " + describe(b);
  }
  return differences;
}

bool runShape(const Shape& s, unsigned seed) {
  unsigned slotsPerThread = 0;
  const KernelLaunch L = mma_trace::planMmaLaunch(s.j, s.k, s.l, s.tiling, &slotsPerThread);
  std::vector<float> M(std::size_t(s.j) * s.k), N(std::size_t(s.k) * s.l), gpuP(std::size_t(s.j) * s.l),
      emuP(gpuP.size(), NAN);
  unsigned state = seed;
  auto uniform = [&] { state = state * 1664525u + 1013904223u; return float(state >> 8) / float(1u << 24) * 2.0f - 1.0f; };
  for (float& x : M) x = uniform();
  for (float& x : N) x = uniform();
  const std::size_t threads = std::size_t(L.gridX) * L.gridY * L.blockX * L.blockY;
  std::vector<Event> gpu(threads * slotsPerThread), emu(gpu.size());
  unsigned gpuOverflow = 0, emuOverflow = 0;
  if (!mma_trace::traceOnGpu(L, M.data(), N.data(), gpuP.data(), gpu.data(), slotsPerThread, &gpuOverflow) ||
      !mma_trace::traceOnEmulator(L, M.data(), N.data(), emuP.data(), emu.data(), slotsPerThread, &emuOverflow))
    return false;
  std::string first;
  std::map<int, long> counts;
  long notTf32 = 0;
  const long differences = compareSlots(emu, gpu, s.k, first, counts, notTf32);
  const int bits = mma_trace::operandMantissaBits();  // app/core/run/reference.cpp's tolerance
  const double tf32 = 32.0 * std::sqrt(double(s.k)) * std::ldexp(1.0, -24) + 1e-7 + std::ldexp(1.0, -bits) +
                      std::ldexp(1.0, -2 * bits) / 4;
  const double gpuErr = relativeError(M, N, gpuP, s.j, s.k, s.l), emuErr = relativeError(M, N, emuP, s.j, s.k, s.l);
  long events = 0;
  for (const auto& [op, n] : counts) events += n;
  std::printf("%4dx%4dx%4d tiling %d: %zu threads, %ld events (MmaA %ld, MmaB %ld, MmaC %ld, ReadM %ld, ReadN %ld), "
              "%ld differences, overflow %u/%u, A/B not TF32 %ld; P error GPU %.3g emulator %.3g (tolerance %.3g) %s\n",
              s.j, s.k, s.l, s.tiling, threads, events, counts[int(Op::MmaA)], counts[int(Op::MmaB)],
              counts[int(Op::MmaC)], counts[int(Op::ReadM)], counts[int(Op::ReadN)], differences, gpuOverflow,
              emuOverflow, notTf32, gpuErr, emuErr, tf32, differences == 0 ? "EQUAL" : "DIFFERENT");
  if (differences) std::printf("  first difference, %s\n", first.c_str());
  // A kernel that rounds its fragments (toTf32, rung 10: 10 mantissa bits) passes TF32 numbers;
  // rung 11's register fragments are N's floats as they lie, whose low bits the tensor cores drop.
  const bool roundsFragments = bits == 10;
  return differences == 0 && gpuOverflow == 0 && emuOverflow == 0 && (notTf32 == 0 || !roundsFragments) && gpuErr <= tf32 && emuErr <= tf32 &&
         events > 0;
}

}  // namespace

int main() {
  // The shapes the kernel's facts give the GPU tests (gpuTestLaunches).
  bool all = true;
  unsigned seed = 20261129u;
  std::printf("%s\n", mma_trace::kernelName());
  for (const auto& [j, k, l, tiling] : mma_trace::testShapes()) all = runShape({j, k, l, tiling}, seed++) && all;
  std::printf("%s\n", all ? "ALL EQUAL" : "NOT ALL EQUAL");
  return all ? 0 : 1;
}
