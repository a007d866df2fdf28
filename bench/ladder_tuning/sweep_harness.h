// What the tiling sweep shares (ladder_tuning.cu): inputs drawn once on the host
// and copied into kSets device sets (the others rotate the caches), CUDA calls checked, a median
// of CUDA-event timings, a sampled check of P against a double-precision reference, and cuBLAS
// (pedantic FP32) verified and timed at each size. A program includes it once, from its .cu.
#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

namespace sweep {

constexpr int kSets = 3;
constexpr int kLargest = 8192;  // every size is read from the same largest buffers
inline float* gM[kSets];
inline float* gN[kSets];
inline float* gP;
inline std::vector<float> hostM, hostN;

// Median of `repeats` timed launches after two warm-up ones; launch(r) may rotate the sets.
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

// `samples` elements of P (the corners, then spread rows and columns) against the reference,
// each within `tolerance` of the sum of magnitudes: the largest relative error, or -1 with the
// first wrong element printed.
inline double worstError(int j, int k, int l, double tolerance, int samples) {
  std::vector<float> p(std::size_t(j) * l);
  CHECK(cudaMemcpy(p.data(), gP, p.size() * 4, cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int s = 0; s < samples; ++s) {
    int r = int((s * 7919ll) % j), c = int((s * 104729ll + s / 3) % l);
    if (s < 4) r = s & 1 ? j - 1 : 0, c = s & 2 ? l - 1 : 0;
    double ref = 0, mag = 0;
    for (int i = 0; i < k; ++i) {
      const double x = double(hostM[std::size_t(r) * k + i]) * hostN[std::size_t(i) * l + c];
      ref += x;
      mag += std::fabs(x);
    }
    const double err = std::fabs(p[std::size_t(r) * l + c] - ref) / (mag + 1e-30);
    if (!(err < tolerance)) {
      std::printf("  wrong at (%d,%d): %g vs %g (relative error %.3g)\n", r, c, p[std::size_t(r) * l + c], ref, err);
      return -1;
    }
    worst = std::max(worst, err);
  }
  return worst;
}
// Within 32 sqrt(k) FP32 epsilons.
inline bool verified(int j, int k, int l, int samples = 256) {
  return worstError(j, k, l, 32 * std::sqrt(double(k)) * 5.96e-8, samples) >= 0;
}

// Inputs uniform in [-1, 1) from a fixed seed, copied into every set; P allocated; the device named.
inline void setUp() {
  const std::size_t elements = std::size_t(kLargest) * kLargest;
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
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s\n", prop.name);
}

// cuBLAS SGEMM at j x k x l (pedantic FP32), verified, then timed: its median ms, or -1 (printed)
// when it failed verification. Row-major P = M N is column-major P^T = N^T M^T.
inline double cublasMs(cublasHandle_t handle, int j, int k, int l) {
  const float one = 1, zero = 0;
  auto sgemm = [&](int r) {
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &one, gN[r % kSets], l, gM[r % kSets], k, &zero, gP, l);
  };
  CHECK(cudaMemset(gP, 0xff, std::size_t(j) * l * 4));  // NaN: an element never written fails
  sgemm(0);
  CHECK(cudaDeviceSynchronize());
  if (!verified(j, k, l)) {
    std::printf("cuBLAS failed verification at %dx%dx%d\n", j, k, l);
    return -1;
  }
  const double ms = medianMs(sgemm);
  std::printf("%-40s %5dx%5dx%5d  %8.3f ms  %6.2f TFLOP/s\n", "cuBLAS SGEMM pedantic FP32", j, k, l, ms,
              2.0 * j * k * l / ms / 1e9);
  return ms;
}

inline cublasHandle_t pedanticCublas() {
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS could not be set up\n");
    std::exit(1);
  }
  return handle;
}

}  // namespace sweep
