// The tiling sweep behind the ladder's top rung: the kernel files themselves
// (kernels/double_buffered.cuh, kernels/warptile.cuh), instantiated for candidate tilings,
// each verified on a sample against a double-precision reference, then timed next to cuBLAS
// (pedantic FP32) in the same run: median of 15 launches over 3 rotating input sets.
// Built and run by scripts/gpu-check (step tune); prints one line per candidate and size.
//   nvcc -O3 -std=c++20 -arch=sm_90 -I. bench/ladder_tuning/ladder_tuning.cu -lcublas -o ladder_tuning
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/kernel_facts.h"
#include "kernels/portable.h"

namespace tilescope::warptile {
#include "kernels/warptile.cuh"
}
namespace tilescope::double_buffered {
#include "kernels/double_buffered.cuh"
}

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

namespace {
constexpr int kSets = 3;
float* gM[kSets];
float* gN[kSets];
float* gP;
std::vector<float> hostM, hostN;

template <class F>
double medianMs(F launch, int repeats = 15) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int w = 0; w < 2; ++w) launch(w);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < repeats; ++r) {
    CHECK(cudaEventRecord(a));
    launch(r);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float x = 0;
    CHECK(cudaEventElapsedTime(&x, a, b));
    ms.push_back(x);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// A sample of P (corners, then spread rows and columns) against the reference.
bool verified(int j, int k, int l) {
  std::vector<float> p(std::size_t(j) * l);
  CHECK(cudaMemcpy(p.data(), gP, p.size() * 4, cudaMemcpyDeviceToHost));
  for (int s = 0; s < 256; ++s) {
    int r = int((s * 7919ll) % j), c = int((s * 104729ll + s / 3) % l);
    if (s < 4) r = s & 1 ? j - 1 : 0, c = s & 2 ? l - 1 : 0;
    double ref = 0, mag = 0;
    for (int i = 0; i < k; ++i) {
      const double x = double(hostM[std::size_t(r) * k + i]) * hostN[std::size_t(i) * l + c];
      ref += x;
      mag += std::fabs(x);
    }
    const double err = std::fabs(p[std::size_t(r) * l + c] - ref) / (mag + 1e-30);
    if (!(err < 32 * std::sqrt(double(k)) * 5.96e-8)) return false;
  }
  return true;
}

std::string tilingName(const tilescope::Tiling& t) {
  char s[64];
  std::snprintf(s, sizeof s, "%dx%dx%d/%dx%d/%dx%d", t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn);
  return s;
}

// One candidate: a rung's kernel template at tiling (BM..TN), with the shared memory its
// facts give; verified, then timed.
template <bool Double, int BM, int BN, int BK, int WM, int WN, int TM, int TN>
void candidate(int j, int k, int l, double cublasMs) {
  constexpr tilescope::Tiling t{BM, BN, BK, WM, WN, TM, TN};
  void (*kernel)(float*, float*, float*, int, int, int) =
      Double ? tilescope::double_buffered::matrixMulKernel<BM, BN, BK, WM, WN, TM, TN> : tilescope::warptile::matrixMulKernel<BM, BN, BK, WM, WN, TM, TN>;
  const char* rung = Double ? "double-buffered" : "warptile";
  const std::string problem = Double ? tilescope::double_buffered::Facts::tilingProblem(t) : tilescope::warptile::Facts::tilingProblem(t);
  if (!problem.empty()) {
    std::printf("%-16s %-24s refused: %s\n", rung, tilingName(t).c_str(), problem.c_str());
    return;
  }
  const int threads = (BM / WM) * (BN / WN) * 32;
  const std::size_t shared = Double ? std::size_t(tilescope::double_buffered::Facts::sharedFloats(t)) * 4 : 0;
  if (shared > 48 * 1024) CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const dim3 grid((l + BN - 1) / BN, (j + BM - 1) / BM);
  CHECK(cudaMemset(gP, 0xff, std::size_t(j) * l * 4));  // NaN: an element never written fails
  kernel<<<grid, threads, shared>>>(gM[0], gN[0], gP, j, k, l);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaFuncAttributes fa{};
  CHECK(cudaFuncGetAttributes(&fa, kernel));
  const std::string name = tilingName(t);
  if (!verified(j, k, l)) {
    std::printf("%-16s %-24s %5dx%5dx%5d  FAILED verification: not timed\n", rung, name.c_str(), j, k, l);
    return;
  }
  const double ms = medianMs([&](int r) { kernel<<<grid, threads, shared>>>(gM[r % kSets], gN[r % kSets], gP, j, k, l); });
  std::printf("%-16s %-24s %5dx%5dx%5d  regs %3d  spill %3d B  %8.3f ms  %6.2f TFLOP/s  %5.1f %% of cuBLAS\n", rung,
              name.c_str(), j, k, l, fa.numRegs, int(fa.localSizeBytes), ms, 2.0 * j * k * l / ms / 1e9,
              100.0 * cublasMs / ms);
}
}  // namespace

int main(int argc, char** argv) {
  const int largest = 8192;
  const std::size_t elements = std::size_t(largest) * largest;
  hostM.resize(elements);
  hostN.resize(elements);
  unsigned state = 12345u;
  auto uniform = [&] { state = state * 1664525u + 1013904223u; return float(state >> 8) / float(1u << 24) * 2.0f - 1.0f; };
  for (float& x : hostM) x = uniform();
  for (float& x : hostN) x = uniform();
  for (int s = 0; s < kSets; ++s) {  // set 0 holds the host copy; the others only rotate the caches
    CHECK(cudaMalloc(&gM[s], elements * 4));
    CHECK(cudaMalloc(&gN[s], elements * 4));
    CHECK(cudaMemcpy(gM[s], hostM.data(), elements * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(gN[s], hostN.data(), elements * 4, cudaMemcpyHostToDevice));
  }
  CHECK(cudaMalloc(&gP, elements * 4));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS could not be set up\n");
    return 1;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
  const int sizes[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {1000, 1000, 1000}};
  for (const auto& d : sizes) {
    const int j = d[0], k = d[1], l = d[2];
    const float one = 1, zero = 0;
    auto sgemm = [&](int r) {  // row-major P = M N is column-major P^T = N^T M^T
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &one, gN[r % kSets], l, gM[r % kSets], k, &zero, gP, l);
    };
    CHECK(cudaMemset(gP, 0xff, std::size_t(j) * l * 4));
    sgemm(0);
    CHECK(cudaDeviceSynchronize());
    if (!verified(j, k, l)) { std::printf("cuBLAS failed verification at %dx%dx%d\n", j, k, l); return 1; }
    const double cublasMs = medianMs(sgemm);
    std::printf("%-16s %-24s %5dx%5dx%5d  %8.3f ms  %6.2f TFLOP/s\n", "cuBLAS", "SGEMM pedantic FP32", j, k, l, cublasMs,
                2.0 * j * k * l / cublasMs / 1e9);
    candidate<false, 128, 128, 16, 64, 32, 8, 8>(j, k, l, cublasMs);
    candidate<false, 128, 128, 8, 64, 32, 8, 8>(j, k, l, cublasMs);
    candidate<true, 128, 256, 16, 32, 128, 8, 16>(j, k, l, cublasMs);
    candidate<true, 128, 256, 16, 64, 64, 8, 16>(j, k, l, cublasMs);
    candidate<true, 128, 256, 8, 32, 128, 8, 16>(j, k, l, cublasMs);
    candidate<true, 256, 128, 16, 64, 64, 16, 8>(j, k, l, cublasMs);
    candidate<true, 128, 128, 16, 64, 32, 8, 8>(j, k, l, cublasMs);
    candidate<true, 128, 128, 16, 32, 64, 8, 8>(j, k, l, cublasMs);
    candidate<true, 128, 128, 8, 64, 64, 8, 16>(j, k, l, cublasMs);
  }
  (void)argc;
  (void)argv;
  return 0;
}
