// A second standalone prototype of rung 8 (TMA + mbarriers + a producer warpgroup with
// setmaxnreg, sm_90a), for the last points to 95 % of cuBLAS: the consumers' inner loop with
// register double-buffered fragments (the fragments of k step kk + 1 loaded while the
// multiply-adds of step kk run, the next k tile's first fragments loaded before the current
// tile's last step), M read as float4 or float2 along k, the 128-byte TMA swizzle of M's tile,
// the lanes' layout (8 x 4 or 4 x 8), and a persistent grid (one block per SM walking the
// output tiles, the producer running ahead across tiles). Each candidate verified on a sample
// against a double-precision reference (NaN-poisoned P), then timed next to cuBLAS (pedantic
// FP32) in the same run: median of 15 launches over 3 rotating input sets.
//   nvcc -O3 -std=c++20 -gencode=arch=compute_90a,code=sm_90a bench/ladder_tuning/tma_proto2.cu -lcublas -lcuda -Xptxas -v
// With the rung's own kernel too (candidate 27), from the repository's root:
//   n=$(grep -n '^// ---- facts' kernels/ladder/tma_pipeline.cuh | cut -d: -f1)
//   head -n $((n - 1)) kernels/ladder/tma_pipeline.cuh > /tmp/real_kernel.h
//   nvcc ... -I. -Ikernels -DREAL_KERNEL='"/tmp/real_kernel.h"' bench/ladder_tuning/tma_proto2.cu ...
// TMA_ONLY=i,j (positions in the candidate list) and TMA_SIZES=n,m (square sizes) pick a subset.
#include <cublas_v2.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
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

template <int MV> struct VecOf;
template <> struct VecOf<4> { using T = float4; };
template <> struct VecOf<2> { using T = float2; };
__device__ __forceinline__ float comp(const float4& v, int i) { return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w; }
__device__ __forceinline__ float comp(const float2& v, int i) { return i == 0 ? v.x : v.y; }

// Options.
//   SWZ: M's tile (rows of BK = 32 floats, 128 B) written by TMA with the 128-byte swizzle: the
//        16-byte chunk c of row r lies at chunk c ^ (r & 7).
//   DB:  0: the first prototype's loop (fragments loaded at the top of each step, the compiler
//        schedules); 1: explicit register double buffer across k steps and across k tiles.
//   MV:  M's fragment read as float4 (4 k steps) or float2 (2 k steps) along k.
//   PERSIST: gridDim.x = SMs; block b does output tiles b, b + grid, ...; the ring's stage and
//        phase run on across tiles, so the producer fills the next tile's stages during the
//        current tile's last steps and epilogue.
template <int BM, int BN, int WM, int WN>
constexpr int threadsOf() { return (BM / WM) * (BN / WN) * 32 + 128; }
template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int ST, bool SWZ, int DB, int MV, bool PERSIST, int REGS, int ORDER = 0>
__global__ void __launch_bounds__(threadsOf<BM, BN, WM, WN>(), 1)
tmaKernel2(float* P, int j, int k, int l, const __grid_constant__ CUtensorMap mMap, const __grid_constant__ CUtensorMap nMap) {
  constexpr int CONSUMERS = (BM / WM) * (BN / WN) * 32;
  constexpr int LANES_N = WN / TN, LANES_M = 32 / LANES_N;
  constexpr int NSPAN = WN / (TN / 4);
  constexpr int MSTAGE = BM * BK, NSTAGE = BK * BN;
  static_assert(!SWZ || BK == 32, "the swizzle formula is the 128-byte one: rows of 32 floats");
  using VecM = typename VecOf<MV>::T;
  // The tiles start 1024-byte aligned (the 128-byte swizzle's pattern repeats every 1024 bytes
  // of shared address). The offset is taken on the shared array itself: a round trip through a
  // generic integer address (the first prototype's) loses the address space, and every
  // fragment read became a generic LD.E.128 with 64-bit addresses instead of an LDS.128.
  extern __shared__ __align__(1024) float raw[];
  float* base = raw + ((1024u - (smem(raw) & 1023u)) & 1023u) / 4;
  float* Mds = base;
  float* Nds = base + ST * MSTAGE;
  uint64_t* full = reinterpret_cast<uint64_t*>(Nds + ST * NSTAGE);
  uint64_t* empty = full + ST;
  const int kTiles = (k + BK - 1) / BK;
  const int tilesX = (l + BN - 1) / BN, tilesY = (j + BM - 1) / BM;
  const int nTiles = PERSIST ? tilesX * tilesY : 1;
  const int first = PERSIST ? int(blockIdx.x) : 0, stride = PERSIST ? int(gridDim.x) : 1;
  auto origin = [&](int tile, int& rowBase, int& colBase) {
    if (PERSIST) {
      rowBase = tile / tilesX * BM;
      colBase = tile % tilesX * BN;
    } else {
      rowBase = blockIdx.y * BM;
      colBase = blockIdx.x * BN;
    }
  };
  if (threadIdx.x == 0) {
    for (int s = 0; s < ST; ++s) {
      mbarInit(&full[s], 1);
      mbarInit(&empty[s], CONSUMERS);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x >= CONSUMERS) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGS > 232 ? 24 : 40));
#endif
    if (threadIdx.x == CONSUMERS) {
      int g = 0;
      for (int tile = first; tile < nTiles; tile += stride) {
        int rowBase, colBase;
        origin(tile, rowBase, colBase);
        for (int t = 0; t < kTiles; ++t, ++g) {
          int s = g % ST;
          mbarWait(&empty[s], ((g / ST) & 1) ^ 1);
          mbarExpect(&full[s], (MSTAGE + NSTAGE) * 4);
          tma2d(Mds + s * MSTAGE, &mMap, t * BK, rowBase, &full[s]);
          tma2d(Nds + s * NSTAGE, &nMap, colBase, t * BK, &full[s]);
        }
      }
    }
    return;
  }
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGS));
#endif
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  const int laneRow = lane / LANES_N, laneCol = lane % LANES_N;
  // The rows a thread reads: r_y = rowOff + y * LANES_M. With the swizzle, r_y & 7 depends on y
  // only through (y * LANES_M) & 7, which is a compile-time constant.
  const int rowOff = warpRow * WM + laneRow;
  const int nOff = warpCol * WN + laneCol * 4;
  auto loadA = [&](VecM (&dst)[TM], const float* Ms, int kk) {
#pragma unroll
    for (int y = 0; y < TM; ++y) {
      const int r = rowOff + y * LANES_M;
      int chunk = kk / 4;
      if (SWZ) chunk ^= (r & 7);
      dst[y] = *reinterpret_cast<const VecM*>(&Ms[r * BK + chunk * 4 + kk % 4]);
    }
  };
  auto loadB = [&](float (&dst)[TN], const float* Ns, int kk) {
#pragma unroll
    for (int c = 0; c < TN / 4; ++c) {
      float4 v = *reinterpret_cast<const float4*>(&Ns[kk * BN + c * NSPAN + nOff]);
      dst[c * 4 + 0] = v.x; dst[c * 4 + 1] = v.y; dst[c * 4 + 2] = v.z; dst[c * 4 + 3] = v.w;
    }
  };
  int g = 0;
  for (int tile = first; tile < nTiles; tile += stride) {
    int rowBase, colBase;
    origin(tile, rowBase, colBase);
    float acc[TM][TN];
#pragma unroll
    for (int y = 0; y < TM; ++y)
#pragma unroll
      for (int x = 0; x < TN; ++x) acc[y][x] = 0.0f;
    if (DB == 0) {
      for (int t = 0; t < kTiles; ++t, ++g) {
        int s = g % ST;
        mbarWait(&full[s], (g / ST) & 1);
        const float* Ms = Mds + s * MSTAGE;
        const float* Ns = Nds + s * NSTAGE;
#pragma unroll
        for (int k0 = 0; k0 < BK; k0 += MV) {
          VecM a[TM];
          loadA(a, Ms, k0);
#pragma unroll
          for (int q = 0; q < MV; ++q) {
            float b[TN];
            loadB(b, Ns, k0 + q);
            if (ORDER == 1) {  // column-major: b[x] held in one operand slot for TM steps
#pragma unroll
              for (int x = 0; x < TN; ++x)
#pragma unroll
                for (int y = 0; y < TM; ++y) acc[y][x] += comp(a[y], q) * b[x];
            } else {  // row-major (ORDER 0) or serpentine (ORDER 2: odd rows walked backwards)
#pragma unroll
              for (int y = 0; y < TM; ++y) {
                const float m = comp(a[y], q);
#pragma unroll
                for (int i = 0; i < TN; ++i) {
                  const int x = ORDER == 2 && (y & 1) ? TN - 1 - i : i;
                  acc[y][x] += m * b[x];
                }
              }
            }
          }
        }
        mbarArrive(&empty[s]);
      }
    } else if (DB == 2) {  // only N's fragment double-buffered, within a k tile
      for (int t = 0; t < kTiles; ++t, ++g) {
        int s = g % ST;
        mbarWait(&full[s], (g / ST) & 1);
        const float* Ms = Mds + s * MSTAGE;
        const float* Ns = Nds + s * NSTAGE;
        float b[2][TN];
        loadB(b[0], Ns, 0);
#pragma unroll
        for (int k0 = 0; k0 < BK; k0 += MV) {
          VecM a[TM];
          loadA(a, Ms, k0);
#pragma unroll
          for (int q = 0; q < MV; ++q) {
            const int kk = k0 + q, bb = kk & 1;
            if (kk + 1 < BK) loadB(b[bb ^ 1], Ns, kk + 1);
#pragma unroll
            for (int y = 0; y < TM; ++y) {
              const float m = comp(a[y], q);
#pragma unroll
              for (int x = 0; x < TN; ++x) acc[y][x] += m * b[bb][x];
            }
          }
        }
        mbarArrive(&empty[s]);
      }
    } else {
      VecM a[2][TM];
      float b[2][TN];
      {
        const int s = g % ST;
        mbarWait(&full[s], (g / ST) & 1);
        loadA(a[0], Mds + s * MSTAGE, 0);
        loadB(b[0], Nds + s * NSTAGE, 0);
      }
      for (int t = 0; t < kTiles; ++t, ++g) {
        const int s = g % ST;
        const float* Ms = Mds + s * MSTAGE;
        const float* Ns = Nds + s * NSTAGE;
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
          const int ab = (kk / MV) & 1, bb = kk & 1;
          if (kk + 1 < BK) {  // the next step's fragments, from this stage
            loadB(b[bb ^ 1], Ns, kk + 1);
            if ((kk + 1) % MV == 0) loadA(a[ab ^ 1], Ms, kk + 1);
          } else if (t + 1 < kTiles) {  // the next k tile's first fragments, from the next stage
            const int sn = (g + 1) % ST;
            mbarWait(&full[sn], ((g + 1) / ST) & 1);
            loadB(b[bb ^ 1], Nds + sn * NSTAGE, 0);
            loadA(a[ab ^ 1], Mds + sn * MSTAGE, 0);
          }
#pragma unroll
          for (int y = 0; y < TM; ++y) {
            const float m = comp(a[ab][y], kk % MV);
#pragma unroll
            for (int x = 0; x < TN; ++x) acc[y][x] += m * b[bb][x];
          }
        }
        mbarArrive(&empty[s]);
      }
    }
    const bool aligned = l % 4 == 0;
#pragma unroll
    for (int y = 0; y < TM; ++y) {
      int row = rowBase + rowOff + y * LANES_M;
#pragma unroll
      for (int c = 0; c < TN / 4; ++c) {
        int col = colBase + c * NSPAN + nOff;
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
}

// The rung as it stands, compiled from its own file: the run command cuts the kernel (everything
// above "// ---- facts") out of kernels/ladder/tma_pipeline.cuh into a header and names it in
// REAL_KERNEL; copy_engine.h gives its PTX helpers. (Sweep 9 of 2026-11-25 measured it before
// and after the 128-byte swizzle of M's tile was adopted, through a copy kept here then.)
#ifdef REAL_KERNEL
#include "kernels/ladder/copy_engine.h"
namespace real {
#include REAL_KERNEL
}  // namespace real

#endif

namespace {
using namespace sweep;
PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
int gSMs = 132;
int gIndex = 0;  // the candidate's position in the list, counted per size
// TMA_ONLY=i,j,...: run only those candidates (positions in the list, from 0).
bool selected() {
  const int i = gIndex++;
  const char* only = std::getenv("TMA_ONLY");
  if (!only || !*only) return true;
  for (const char* p = only; *p;) {
    char* end;
    long v = std::strtol(p, &end, 10);
    if (end == p) break;
    if (v == i) return true;
    p = *end ? end + 1 : end;
  }
  return false;
}

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

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int ST, bool SWZ, int DB, int MV, bool PERSIST, int REGS = 232, int ORDER = 0>
void candidate(int j, int k, int l, double cublasMs) {
    if (!selected()) return;
  auto kernel = tmaKernel2<BM, BN, BK, WM, WN, TM, TN, ST, SWZ, DB, MV, PERSIST, REGS, ORDER>;
  const int threads = threadsOf<BM, BN, WM, WN>();
  const std::size_t shared = std::size_t(ST) * (BM * BK + BK * BN) * 4 + 2 * ST * 8 + 1024;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const int tilesX = (l + BN - 1) / BN, tilesY = (j + BM - 1) / BM;
  const dim3 grid = PERSIST ? dim3(std::min(tilesX * tilesY, gSMs)) : dim3(tilesX, tilesY);
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
  std::snprintf(name, sizeof name, "%dx%dx%d/%dx%d/%dx%d s%d%s db%d mv%d%s r%d o%d", BM, BN, BK, WM, WN, TM, TN,
                ST, SWZ ? " swz" : "", DB, MV, PERSIST ? " persist" : "", REGS, ORDER);
  if (!verified(j, k, l, 512)) {
    std::printf("tma2 %-42s %5dx%5dx%5d  FAILED verification\n", name, j, k, l);
    return;
  }
  const double ms = medianMs([&](int r) { kernel<<<grid, threads, shared>>>(gP, j, k, l, mm[r % kSets], nm[r % kSets]); });
  std::printf("tma2 %-42s %5dx%5dx%5d  regs %3d  spill %3d  %8.3f ms  %6.2f TFLOP/s  %5.1f %% of cuBLAS\n", name, j, k,
              l, fa.numRegs, int(fa.localSizeBytes), ms, 2.0 * j * k * l / ms / 1e9, 100.0 * cublasMs / ms);
  std::fflush(stdout);
}

#ifdef REAL_KERNEL
// The rung's kernel at its H100 tiling, M's tile swizzled as its facts ask (BK = 32).
void realCandidate(int j, int k, int l, double cublasMs) {
  constexpr bool SWZ = true;
  if (!selected()) return;
  constexpr int BM = 128, BN = 256, BK = 32, ST = 4;
  auto kernel = real::matrixMulKernel<BM, BN, BK, 64, 64, 8, 16, ST>;
  const int threads = 384;
  const std::size_t shared = std::size_t(ST) * (BM * BK + BK * BN) * 4 + (SWZ ? 1024 : 0);
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
  const dim3 grid((l + BN - 1) / BN, (j + BM - 1) / BM);
  CUtensorMap mm[kSets], nm[kSets];
  for (int s = 0; s < kSets; ++s) {
    mm[s] = makeMap(gM[s], j, k, BM, BK, SWZ);
    nm[s] = makeMap(gN[s], k, l, BK, BN, false);
  }
  CHECK(cudaMemset(gP, 0xff, std::size_t(j) * l * 4));
  kernel<<<grid, threads, shared>>>(gM[0], gN[0], gP, j, k, l, mm[0], nm[0]);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaFuncAttributes fa{};
  CHECK(cudaFuncGetAttributes(&fa, kernel));
  const char* name = "kernels/ladder/tma_pipeline.cuh";
  if (!verified(j, k, l, 512)) {
    std::printf("real %-42s %5dx%5dx%5d  FAILED verification\n", name, j, k, l);
    return;
  }
  const double ms = medianMs([&](int r) {
    kernel<<<grid, threads, shared>>>(gM[r % kSets], gN[r % kSets], gP, j, k, l, mm[r % kSets], nm[r % kSets]);
  });
  std::printf("real %-42s %5dx%5dx%5d  regs %3d  spill %3d  %8.3f ms  %6.2f TFLOP/s  %5.1f %% of cuBLAS\n", name, j, k,
              l, fa.numRegs, int(fa.localSizeBytes), ms, 2.0 * j * k * l / ms / 1e9, 100.0 * cublasMs / ms);
  std::fflush(stdout);
}
#endif

// The candidate list, run at every size (CANDIDATES picks a subset at compile time: -DSET=n).
#ifndef SET
#define SET 1
#endif
void candidates(int j, int k, int l, double c) {
  gIndex = 0;
#if SET == 1
  // 0: the first prototype's best (sweep 2: 86 %), as the reference of this run
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 4, false>(j, k, l, c);
  // 1-4: register double buffer; M as float4 (64 registers of M fragments) or float2
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1, 4, false>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1, 2, false>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, false, 1, 2, false>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 2, false>(j, k, l, c);
  // 5-6: lanes 4 x 8: a warp's N reads 128 contiguous bytes, its M reads 4 rows
  candidate<128, 256, 32, 32, 128, 8, 16, 4, true, 0, 4, false>(j, k, l, c);
  candidate<128, 256, 32, 32, 128, 8, 16, 4, true, 1, 2, false>(j, k, l, c);
  // 7-9: persistent grid
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 4, true>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1, 2, true>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1, 4, true>(j, k, l, c);
  // 10: 256 x 128 blocks (warps 4 x 2)
  candidate<256, 128, 32, 64, 64, 8, 16, 4, true, 1, 2, false>(j, k, l, c);
  // 11-15: consumers at 240 registers (producer 24); N alone double-buffered (db2)
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 4, false, 240>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 2, 4, false>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 2, 4, false, 240>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 1, 4, false, 240>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, false, 0, 4, false>(j, k, l, c);
  // 16-20: float2 reads of M at 240 registers, persistent, unswizzled; 256 x 128 blocks
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 2, false, 240>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 2, true>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, false, 0, 2, false>(j, k, l, c);
  candidate<256, 128, 32, 64, 64, 8, 16, 4, true, 0, 4, false>(j, k, l, c);
  candidate<256, 128, 32, 64, 64, 8, 16, 4, true, 0, 2, false>(j, k, l, c);
  // 21-26: the order of the multiply-adds (1: column-major, 2: serpentine); 3 stages
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 2, false, 232, 1>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 2, false, 232, 2>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 4, false, 232, 1>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 4, true, 0, 4, false, 232, 2>(j, k, l, c);
  candidate<128, 256, 32, 64, 64, 8, 16, 3, true, 0, 2, false>(j, k, l, c);
  candidate<256, 128, 32, 64, 64, 8, 16, 4, true, 0, 4, false, 232, 2>(j, k, l, c);
#ifdef REAL_KERNEL
  // 27: the rung's own kernel
  realCandidate(j, k, l, c);
#endif
#endif
}
}  // namespace

int main() {
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000,
                                         cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || !encode) return std::fprintf(stderr, "no cuTensorMapEncodeTiled\n"), 1;
  setUp();
  CHECK(cudaDeviceGetAttribute(&gSMs, cudaDevAttrMultiProcessorCount, 0));
  cublasHandle_t handle = pedanticCublas();
  // TMA_SIZES=n,...: square sizes instead of the default three (n a multiple of 4)
  std::vector<std::array<int, 3>> sizes = {{1000, 1004, 1012}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  if (const char* e = std::getenv("TMA_SIZES"); e && *e) {
    sizes.clear();
    for (const char* p = e; *p;) {
      char* end;
      long v = std::strtol(p, &end, 10);
      if (end == p) break;
      sizes.push_back({int(v), int(v), int(v)});
      p = *end ? end + 1 : end;
    }
  }
  for (const auto& d : sizes) {
    const int j = d[0], k = d[1], l = d[2];
    const double cublasMs = sweep::cublasMs(handle, j, k, l);
    if (cublasMs < 0) return 1;
    candidates(j, k, l, cublasMs);
  }
  return 0;
}
