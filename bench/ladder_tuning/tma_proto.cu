// A standalone prototype of rung 8 (TMA + mbarriers + a producer warp), to find its tiling
// and stage count fast before the kernel file is written: candidates verified on a sample
// against a double-precision reference (NaN-poisoned P), then timed next to cuBLAS (pedantic
// FP32) in the same run: median of 15 launches over 3 rotating input sets.
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90,code=sm_90 bench/ladder_tuning/tma_proto.cu -lcublas -o tma_proto
#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sweep_harness.h"

__device__ __forceinline__ unsigned smem(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }
__device__ __forceinline__ void mbarInit(uint64_t* b, unsigned n) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(b)), "r"(n));
}
__device__ __forceinline__ void mbarExpect(uint64_t* b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(b)), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbarArrive(uint64_t* b) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(b)) : "memory");
}
__device__ __forceinline__ void mbarWait(uint64_t* b, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(b)), "r"(parity) : "memory");
  } while (!done);
}
__device__ __forceinline__ void tma2d(void* dst, const CUtensorMap* map, int c0, int c1, uint64_t* b) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          smem(dst)),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(smem(b))
      : "memory");
}

// SWZ: M's tile rows are BK floats (64 B at BK 16, 128 B at 32) swizzled by TMA so that the
// 8 rows a warp reads at once land in 8 different 16-byte bank groups.
// MODE 0: one producer warp after the consumers; 1: a producer warpgroup, registers moved to
// the consumers by setmaxnreg (sm_90a); 2: no producer: consumer thread 0 also issues copies.
template <int MODE, int BM, int BN, int BK, int WM, int WN>
constexpr int threadsOf() { return (BM / WM) * (BN / WN) * 32 + (MODE == 0 ? 32 : MODE == 1 ? 128 : 0); }
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int ST, bool SWZ, int MODE, int GROUP = 0>
__global__ void __launch_bounds__(threadsOf<MODE, BM, BN, BK, WM, WN>(), 1)
tmaKernel(float* P, int j, int k, int l, const __grid_constant__ CUtensorMap mMap, const __grid_constant__ CUtensorMap nMap) {
  constexpr int CONSUMERS = (BM / WM) * (BN / WN) * 32;
  constexpr int LANES_N = WN / TN, LANES_M = 32 / LANES_N;
  constexpr int NSPAN = WN / (TN / 4);
  constexpr int MSTAGE = BM * BK, NSTAGE = BK * BN;
  // The offset is taken on the shared array itself (2026-11-25): rounding a generic address
  // through uintptr_t lost the address space, and every fragment read was a generic LD.E.128
  // with 64-bit addresses instead of an LDS.128 (sweeps 1 and 2 of 2026-11-24 ran that way).
  extern __shared__ __align__(1024) float raw[];
  float* base = raw + ((1024u - (smem(raw) & 1023u)) & 1023u) / 4;
  float* Mds = base;
  float* Nds = base + ST * MSTAGE;
  uint64_t* full = reinterpret_cast<uint64_t*>(Nds + ST * NSTAGE);
  uint64_t* empty = full + ST;
  const int tiles = (k + BK - 1) / BK;
  int bx = blockIdx.x, by = blockIdx.y;
  if (GROUP) {  // GROUP block rows walk the columns together, so their N tiles stay in L2
    int id = blockIdx.y * gridDim.x + blockIdx.x, per = GROUP * gridDim.x;
    int first = id / per * GROUP, rows = min(GROUP, int(gridDim.y) - first);
    by = first + (id % per) % rows;
    bx = (id % per) / rows;
  }
  const int rowBase = by * BM, colBase = bx * BN;
  if (threadIdx.x == 0) {
    for (int s = 0; s < ST; ++s) {
      mbarInit(&full[s], 1);
      mbarInit(&empty[s], CONSUMERS);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  auto produce = [&](int t) {
      int s = t % ST;
      mbarWait(&empty[s], ((t / ST) & 1) ^ 1);
      mbarExpect(&full[s], (MSTAGE + NSTAGE) * 4);
      tma2d(Mds + s * MSTAGE, &mMap, t * BK, rowBase, &full[s]);
      tma2d(Nds + s * NSTAGE, &nMap, colBase, t * BK, &full[s]);
  };
  if (MODE != 2 && threadIdx.x >= CONSUMERS) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    if (MODE == 1) asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
#endif
    if (threadIdx.x != CONSUMERS) return;
    for (int t = 0; t < tiles; ++t) {
      int s = t % ST;
      mbarWait(&empty[s], ((t / ST) & 1) ^ 1);
      mbarExpect(&full[s], (MSTAGE + NSTAGE) * 4);
      tma2d(Mds + s * MSTAGE, &mMap, t * BK, rowBase, &full[s]);
      tma2d(Nds + s * NSTAGE, &nMap, colBase, t * BK, &full[s]);
    }
    return;
  }
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (MODE == 1) asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
#endif
  if (MODE == 2 && threadIdx.x == 0)
    for (int t = 0; t < ST - 1 && t < tiles; ++t) produce(t);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int laneRow = lane / LANES_N, laneCol = lane % LANES_N;
  float acc[TM][TN];
#pragma unroll
  for (int y = 0; y < TM; ++y)
#pragma unroll
    for (int x = 0; x < TN; ++x) acc[y][x] = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    int s = t % ST;
    // MODE 2: the stage the previous tile used is refilled with tile t + ST - 1.
    if (MODE == 2 && threadIdx.x == 0 && t + ST - 1 < tiles) produce(t + ST - 1);
    mbarWait(&full[s], (t / ST) & 1);
    const float* Ms = Mds + s * MSTAGE;
    const float* Ns = Nds + s * NSTAGE;
#pragma unroll
    for (int k4 = 0; k4 < BK / 4; ++k4) {
      float4 a[TM];
#pragma unroll
      for (int y = 0; y < TM; ++y) {
        int r = warpRow * WM + y * LANES_M + laneRow;
        int chunk = k4;
        if (SWZ) chunk = BK == 16 ? (k4 ^ ((r >> 1) & 3)) : (k4 ^ (r & 7));
        a[y] = *reinterpret_cast<const float4*>(&Ms[r * BK + chunk * 4]);
      }
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        float b[TN];
#pragma unroll
        for (int c = 0; c < TN / 4; ++c) {
          float4 v = *reinterpret_cast<const float4*>(&Ns[(k4 * 4 + q) * BN + warpCol * WN + c * NSPAN + laneCol * 4]);
          b[c * 4 + 0] = v.x; b[c * 4 + 1] = v.y; b[c * 4 + 2] = v.z; b[c * 4 + 3] = v.w;
        }
#pragma unroll
        for (int y = 0; y < TM; ++y) {
          float m = q == 0 ? a[y].x : q == 1 ? a[y].y : q == 2 ? a[y].z : a[y].w;
#pragma unroll
          for (int x = 0; x < TN; ++x) acc[y][x] += m * b[x];
        }
      }
    }
    mbarArrive(&empty[s]);
  }
  const bool aligned = l % 4 == 0;
#pragma unroll
  for (int y = 0; y < TM; ++y) {
    int row = rowBase + warpRow * WM + y * LANES_M + laneRow;
#pragma unroll
    for (int c = 0; c < TN / 4; ++c) {
      int col = colBase + warpCol * WN + c * NSPAN + laneCol * 4;
      if (aligned && row < j && col + 3 < l) {
        *reinterpret_cast<float4*>(&P[std::size_t(row) * l + col]) =
            make_float4(acc[y][c * 4], acc[y][c * 4 + 1], acc[y][c * 4 + 2], acc[y][c * 4 + 3]);
      } else {
        for (int e = 0; e < 4; ++e)
          if (row < j && col + e < l) P[std::size_t(row) * l + col + e] = acc[y][c * 4 + e];
      }
    }
  }
}

namespace {
using namespace sweep;
PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;

CUtensorMap makeMap(const float* base, int rows, int cols, int boxRows, int boxCols, bool swizzle) {
  CUtensorMap m;
  cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  cuuint64_t strides[1] = {cuuint64_t(cols) * 4};
  cuuint32_t box[2] = {cuuint32_t(boxCols), cuuint32_t(boxRows)};
  cuuint32_t elem[2] = {1, 1};
  CUtensorMapSwizzle sw = !swizzle ? CU_TENSOR_MAP_SWIZZLE_NONE
                          : boxCols * 4 == 64 ? CU_TENSOR_MAP_SWIZZLE_64B : CU_TENSOR_MAP_SWIZZLE_128B;
  CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box, elem,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
    std::exit(1);
  }
  return m;
}

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int ST, bool SWZ, int MODE, int GROUP = 0>
void candidate(int j, int k, int l, double cublasMs) {
  auto kernel = tmaKernel<BM, BN, BK, WM, WN, TM, TN, ST, SWZ, MODE, GROUP>;
  const int threads = threadsOf<MODE, BM, BN, BK, WM, WN>();
  const std::size_t shared = std::size_t(ST) * (BM * BK + BK * BN) * 4 + 2 * ST * 8 + 1024;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const dim3 grid((l + BN - 1) / BN, (j + BM - 1) / BM);
  CUtensorMap mm[kSets], nm[kSets];
  for (int s = 0; s < kSets; ++s) {
    mm[s] = makeMap(gM[s], j, k, BM, BK, SWZ);
    nm[s] = makeMap(gN[s], k, l, BK, BN, false);
  }
  CHECK(cudaMemset(gP, 0xff, std::size_t(j) * l * 4));
  kernel<<<grid, threads, shared>>>(gP, j, k, l, mm[0], nm[0]);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaFuncAttributes fa{};
  CHECK(cudaFuncGetAttributes(&fa, kernel));
  char name[96];
  std::snprintf(name, sizeof name, "%dx%dx%d/%dx%d/%dx%d s%d%s m%d g%d", BM, BN, BK, WM, WN, TM, TN, ST, SWZ ? " swz" : "", MODE, GROUP);
  if (!verified(j, k, l, 512)) {
    std::printf("tma %-32s %5dx%5dx%5d  FAILED verification\n", name, j, k, l);
    return;
  }
  const double ms = medianMs([&](int r) { kernel<<<grid, threads, shared>>>(gP, j, k, l, mm[r % kSets], nm[r % kSets]); });
  std::printf("tma %-32s %5dx%5dx%5d  regs %3d  spill %3d  %8.3f ms  %6.2f TFLOP/s  %5.1f %% of cuBLAS\n", name, j, k,
              l, fa.numRegs, int(fa.localSizeBytes), ms, 2.0 * j * k * l / ms / 1e9, 100.0 * cublasMs / ms);
}
}  // namespace

int main() {
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !encode) return std::fprintf(stderr, "no cuTensorMapEncodeTiled\n"), 1;
  setUp();
  cublasHandle_t handle = pedanticCublas();
  // j, k, l: M is j x k (k a multiple of 4: TMA's 16-byte row stride), N k x l.
  const int sizes[][3] = {{1000, 1004, 1012}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  for (const auto& d : sizes) {
    const int j = d[0], k = d[1], l = d[2];
    // hostM is read as j x k with row stride k: the same buffer serves every size.
    const double cublasMs = sweep::cublasMs(handle, j, k, l);
    if (cublasMs < 0) return 1;
    candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1>(j, k, l, cublasMs);
    candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0>(j, k, l, cublasMs);
    candidate<128, 256, 32, 64, 64, 8, 16, 4, false, 1>(j, k, l, cublasMs);
    candidate<128, 256, 32, 64, 64, 8, 16, 3, true, 1>(j, k, l, cublasMs);
    candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1, 8>(j, k, l, cublasMs);
    candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 8>(j, k, l, cublasMs);
    candidate<256, 128, 32, 64, 64, 8, 16, 4, true, 1>(j, k, l, cublasMs);
    candidate<128, 128, 32, 64, 32, 8, 8, 4, true, 0>(j, k, l, cublasMs);
  }
  return 0;
}
