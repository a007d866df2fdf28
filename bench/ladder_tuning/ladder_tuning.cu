// The tiling sweep behind the ladder's top rungs: the kernel files themselves
// (kernels/ladder/warptile.cuh, kernels/ladder/double_buffered.cuh, kernels/ladder/tma_pipeline.cuh), instantiated
// for candidate tilings, each verified on a sample against a double-precision reference, then
// timed next to cuBLAS (pedantic FP32) in the same run: median of 15 launches over 3 rotating
// input sets. Built and run by scripts/gpu-check (step tune); one line per candidate and size.
// sm_90a: rung 8 moves registers between its warpgroups (setmaxnreg); its tensor maps are made
// by the app's own encodeTileMap.
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a -I. bench/ladder_tuning/ladder_tuning.cu \
//        kernels/cuda/tensor_map.cpp kernels/cuda/cuda_check.cpp -lcublas -o ladder_tuning
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/kernel_facts.h"
#include "kernels/portable.h"

namespace tilescope::warptile {
#include "kernels/ladder/warptile.cuh"
}
namespace tilescope::double_buffered {
#include "kernels/ladder/double_buffered.cuh"
}
#include "kernels/ladder/copy_engine.h"
#include "kernels/cuda/tensor_map.h"
namespace tilescope::tma_pipeline {
#include "kernels/ladder/tma_pipeline.cuh"
}

#include "sweep_harness.h"

namespace {
using namespace sweep;

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
// Rung 8 at tiling (BM..TN) with STAGES stages: its consumers and producer warpgroup, the
// shared memory and M's swizzle its facts give, tensor maps over each input set.
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES>
void tmaCandidate(int j, int k, int l, double cublasMs) {
  using Facts = tilescope::tma_pipeline::Facts;
  constexpr tilescope::Tiling t{BM, BN, BK, WM, WN, TM, TN};
  const std::string name = tilingName(t) + " s" + std::to_string(STAGES);
  if (const std::string problem = Facts::tilingProblem(t); !problem.empty()) {
    std::printf("%-16s %-24s refused: %s\n", "tma-pipeline", name.c_str(), problem.c_str());
    return;
  }
  auto kernel = tilescope::tma_pipeline::matrixMulKernel<BM, BN, BK, WM, WN, TM, TN, STAGES>;
  const int threads = Facts::consumers(t) + 128;
  const std::size_t shared = (std::size_t(STAGES) * (BM * BK + BK * BN) + 256) * 4;  // the ring, 1 KiB to align it
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  CUtensorMap mMaps[kSets], nMaps[kSets];
  for (int s = 0; s < kSets; ++s) {
    const tilescope::Status m = tilescope::cuda::encodeTileMap(mMaps[s], gM[s], "M", j, k, BM, BK, Facts::swizzleM(t));
    const tilescope::Status n =
        tilescope::cuda::encodeTileMap(nMaps[s], gN[s], "N", k, l, BK, BN, tilescope::TileSwizzle::None);
    if (!m || !n) {
      std::printf("%-16s %-24s refused: %s\n", "tma-pipeline", name.c_str(), (!m ? m : n).error().message.c_str());
      return;
    }
  }
  const dim3 grid((l + BN - 1) / BN, (j + BM - 1) / BM);
  CHECK(cudaMemset(gP, 0xff, std::size_t(j) * l * 4));  // NaN: an element never written fails
  kernel<<<grid, threads, shared>>>(gM[0], gN[0], gP, j, k, l, mMaps[0], nMaps[0]);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaFuncAttributes fa{};
  CHECK(cudaFuncGetAttributes(&fa, kernel));
  if (!verified(j, k, l)) {
    std::printf("%-16s %-24s %5dx%5dx%5d  FAILED verification: not timed\n", "tma-pipeline", name.c_str(), j, k, l);
    return;
  }
  const double ms = medianMs([&](int r) {
    kernel<<<grid, threads, shared>>>(gM[r % kSets], gN[r % kSets], gP, j, k, l, mMaps[r % kSets], nMaps[r % kSets]);
  });
  std::printf("%-16s %-24s %5dx%5dx%5d  regs %3d  spill %3d B  %8.3f ms  %6.2f TFLOP/s  %5.1f %% of cuBLAS\n",
              "tma-pipeline", name.c_str(), j, k, l, fa.numRegs, int(fa.localSizeBytes), ms, 2.0 * j * k * l / ms / 1e9,
              100.0 * cublasMs / ms);
}
}  // namespace

int main() {
  setUp();
  cublasHandle_t handle = pedanticCublas();
  const int sizes[][3] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {1000, 1000, 1000}};
  for (const auto& d : sizes) {
    const int j = d[0], k = d[1], l = d[2];
    const double cublasMs = sweep::cublasMs(handle, j, k, l);
    if (cublasMs < 0) return 1;
    candidate<false, 128, 128, 16, 64, 32, 8, 8>(j, k, l, cublasMs);
    candidate<false, 128, 128, 8, 64, 32, 8, 8>(j, k, l, cublasMs);
    candidate<true, 128, 256, 16, 32, 128, 8, 16>(j, k, l, cublasMs);
    candidate<true, 128, 256, 16, 64, 64, 8, 16>(j, k, l, cublasMs);
    candidate<true, 128, 256, 8, 32, 128, 8, 16>(j, k, l, cublasMs);
    candidate<true, 256, 128, 16, 64, 64, 16, 8>(j, k, l, cublasMs);
    candidate<true, 128, 128, 16, 64, 32, 8, 8>(j, k, l, cublasMs);
    candidate<true, 128, 128, 16, 32, 64, 8, 8>(j, k, l, cublasMs);
    candidate<true, 128, 128, 8, 64, 64, 8, 16>(j, k, l, cublasMs);
    // Rung 8: its H100 tiling (M swizzled), 3 stages, 256 x 128 blocks, BK 16 (64-byte rows:
    // not swizzled), 128 x 128 blocks of 8 x 8 thread tiles.
    tmaCandidate<128, 256, 32, 64, 64, 8, 16, 4>(j, k, l, cublasMs);
    tmaCandidate<128, 256, 32, 64, 64, 8, 16, 3>(j, k, l, cublasMs);
    tmaCandidate<256, 128, 32, 64, 64, 8, 16, 4>(j, k, l, cublasMs);
    tmaCandidate<128, 256, 16, 64, 64, 8, 16, 6>(j, k, l, cublasMs);
    tmaCandidate<128, 128, 32, 64, 32, 8, 8, 4>(j, k, l, cublasMs);
  }
  return 0;
}
