// Rungs 10 and 11 (kernels/ladder/mma_tf32.cuh, wgmma_tf32.cuh) on the GPU without the app's
// build: the kernel files themselves at their first built tilings (rung 10's candidates too with
// -DMMA_CANDIDATES), each verified on a sample against a
// double-precision reference (TF32's tolerance: app/core/run/reference.h), then timed next to
// cuBLAS in TF32 (cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32), cuBLAS in pedantic FP32 and
// rung 9 (kernels/ladder/stream_k.cuh with the app's selector rule) in the same run: median of
// 15 launches over 3 rotating input sets (sweep_harness.h). One line per case and size.
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a -I. bench/tensor_cores/mma_bench.cu \
//        kernels/cuda/tensor_map.cpp kernels/cuda/stream_k_workspace.cpp kernels/cuda/cuda_check.cpp \
//        -lcublas -o mma_bench
//   ./mma_bench [N ...]        (default: 2048 3000 4096 5000 6144 8192)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_exec.cuh"
#include "kernels/portable.h"

namespace tilescope::tma_pipeline {
#include "kernels/ladder/tma_pipeline.cuh"
}
namespace tilescope::stream_k {
#include "kernels/ladder/stream_k.cuh"
}
namespace tilescope::mma_tf32 {
#include "kernels/ladder/mma_tf32.cuh"
}
namespace tilescope::wgmma_tf32 {
#include "kernels/ladder/wgmma_tf32.cuh"
}

#include "bench/ladder_tuning/sweep_harness.h"

namespace {
using namespace sweep;
using tilescope::KernelLaunch;
using tilescope::Tiling;

// app/core/run/reference.cpp's tolerance: FP32 accumulation, plus 2^-bits for operands rounded
// to `bits` mantissa bits.
double tolerance(int k, int bits) {
  const double fp32 = 32.0 * std::sqrt(double(k)) * std::ldexp(1.0, -24) + 1e-7;
  return bits >= 23 ? fp32 : fp32 + std::ldexp(1.0, -bits) + std::ldexp(1.0, -2 * bits) / 4;
}

void report(const char* what, int n, double ms, double err, double fp32Ms, double tf32Ms) {
  char tf32[48] = "";
  if (tf32Ms > 0) std::snprintf(tf32, sizeof tf32, "  %6.1f %% of TF32 cuBLAS", 100 * tf32Ms / ms);
  std::printf("%-44s %5d  %8.3f ms  %7.2f TFLOP/s  %6.1f %% of FP32 cuBLAS%s  err %.2e\n", what, n, ms,
              2.0 * n * double(n) * n / ms / 1e9, 100 * fp32Ms / ms, tf32, err);
}

// Verifies, then times, launch(set); bits: the operands' mantissa bits for the tolerance.
template <class F>
double verifiedMs(const char* what, int n, int bits, F launch, double fp32Ms, double tf32Ms) {
  CHECK(cudaMemset(gP, 0xff, std::size_t(n) * n * 4));  // NaN: an element never written fails
  launch(0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double err = worstError(n, n, n, tolerance(n, bits), 512);
  if (err < 0) {
    std::printf("%-44s %5d  failed verification\n", what, n);
    return -1;
  }
  const double ms = medianMs(launch);
  report(what, n, ms, err, fp32Ms, tf32Ms);
  return ms;
}

double cublasTf32Ms(cublasHandle_t h, int n, double fp32Ms) {
  const float one = 1, zero = 0;
  return verifiedMs("cuBLAS TF32 (GemmEx, 32F_FAST_TF32)", n, 10, [&](int r) {
    cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, gN[r % kSets], CUDA_R_32F, n, gM[r % kSets], CUDA_R_32F, n,
                 &zero, gP, CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
  }, fp32Ms, -1);
}

// Rung 9 as the app runs it at n: the H100 tiling; one block per tile when its waves are at
// least 90 % busy (one block per SM), else stream-K over the 132 SMs (stream_k_plan.h).
double rung9Ms(int n, int sms, double fp32Ms, double tf32Ms) {
  KernelLaunch L;
  L.kernel = tilescope::KernelId::StreamK;
  L.j = L.k = L.l = n;
  L.tiling = tilescope::stream_k::Facts::kTilings[0];
  const long tiles = long((n + 127) / 128) * ((n + 255) / 256);
  const long waves = (tiles + sms - 1) / sms;
  L.persistentBlocks = double(tiles) / double(waves * sms) >= 0.9 ? 0 : unsigned(sms);
  const tilescope::LaunchShape s = tilescope::stream_k::Facts::shape(L);
  L.gridX = s.gridX;
  L.gridY = s.gridY;
  L.blockX = s.blockX;
  L.dynamicSharedFloats = s.dynamicSharedFloats;
  L.staticSharedBytes = s.staticSharedBytes;
  struct Args {
    float *M, *N, *P;
  };
  std::string what = std::string("rung 9 stream-k ") + (L.persistentBlocks ? "stream-K on 132" : "data-parallel");
  return verifiedMs(what.c_str(), n, 23, [&](int r) {
    tilescope::cuda::LaunchExec<Args> x;
    tilescope::stream_k::Facts::launch(x, L, Args{gM[r % kSets], gN[r % kSets], gP});
    if (x.refused) std::printf("refused: %s\n", x.refused->message.c_str());
  }, fp32Ms, tf32Ms);
}

template <int BM, int BN, int BK, int WM, int WN>
double rung10Ms(int n, double fp32Ms, double tf32Ms) {
  constexpr Tiling t{BM, BN, BK, WM, WN, WM / 8, WN / 4};
  char what[96];
  std::snprintf(what, sizeof what, "rung 10 mma-tf32 %dx%dx%d/%dx%d", BM, BN, BK, WM, WN);
  if (std::string p = tilescope::mma_tf32::Facts::tilingProblem(t); !p.empty()) {
    std::printf("%-44s refused: %s\n", what, p.c_str());
    return -1;
  }
  auto kernel = tilescope::mma_tf32::matrixMulKernel<BM, BN, BK, WM, WN>;
  const std::size_t shared = std::size_t(tilescope::mma_tf32::Facts::sharedFloats(t)) * 4;
  if (shared > 48 * 1024) CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const dim3 grid((n + BN - 1) / BN, (n + BM - 1) / BM), block((BM / WM) * (BN / WN) * 32);
  return verifiedMs(what, n, 10, [&](int r) {
    kernel<<<grid, block, shared>>>(gM[r % kSets], gN[r % kSets], gP, n, n, n);
  }, fp32Ms, tf32Ms);
}

// Rung 11 at its built tiling `tiling`, launched through its facts (the tensor map of M).
double rung11Ms(int n, std::size_t tiling, double fp32Ms, double tf32Ms) {
  using tilescope::wgmma_tf32::Facts;
  KernelLaunch L;
  L.kernel = tilescope::KernelId::WgmmaTf32;
  L.j = L.k = L.l = n;
  L.tiling = Facts::kTilings[tiling];
  const tilescope::LaunchShape s = Facts::shape(L);
  L.gridX = s.gridX;
  L.gridY = s.gridY;
  L.blockX = s.blockX;
  L.dynamicSharedFloats = s.dynamicSharedFloats;
  L.staticSharedBytes = s.staticSharedBytes;
  struct Args {
    float *M, *N, *P;
  };
  char what[96];
  std::snprintf(what, sizeof what, "rung 11 wgmma-tf32 %dx%dx%d", L.tiling.bm, L.tiling.bn, L.tiling.bk);
  return verifiedMs(what, n, Facts::info.operandMantissaBits, [&](int r) {
    tilescope::cuda::LaunchExec<Args> x;
    Facts::launch(x, L, Args{gM[r % kSets], gN[r % kSets], gP});
    if (x.refused) std::printf("refused: %s\n", x.refused->message.c_str());
  }, fp32Ms, tf32Ms);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {2048, 3000, 4096, 5000, 6144, 8192};
  setUp();
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t pedantic = pedanticCublas(), fast = nullptr;
  if (cublasCreate(&fast) != CUBLAS_STATUS_SUCCESS) return 1;
  for (int n : sizes) {
    const double fp32 = cublasMs(pedantic, n, n, n);
    const double tf32 = cublasTf32Ms(fast, n, fp32);
    rung9Ms(n, prop.multiProcessorCount, fp32, tf32);
    rung10Ms<128, 128, 32, 64, 64>(n, fp32, tf32);  // the file's first tiling: what the app times
    for (std::size_t t = 0; t + 1 < tilescope::wgmma_tf32::Facts::kTilings.size(); ++t) rung11Ms(n, t, fp32, tf32);
#if defined(MMA_CANDIDATES)
    rung10Ms<128, 128, 32, 64, 32>(n, fp32, tf32);
    rung10Ms<128, 256, 32, 64, 64>(n, fp32, tf32);
    rung10Ms<256, 128, 32, 64, 64>(n, fp32, tf32);
    rung10Ms<128, 128, 16, 64, 32>(n, fp32, tf32);
    rung10Ms<64, 128, 32, 32, 64>(n, fp32, tf32);
#endif
  }
  return 0;
}
