// The tensor cores as rung 10 calls them under nvcc: each a small named wrapper around the one
// PTX instruction it stands for. The traced build and the emulator provide the same names over
// views (kernels/trace/views_mma.h). Part of the kernels' CUDA surface (portable.h); not for NVRTC.
//   toTf32(x)                    cvt.rna.tf32.f32: x rounded to TF32 (10 mantissa bits), to the
//                                nearest, ties away from zero; the 13 low bits of the float are 0
//   mmaSyncTf32(acc, a, b)       mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32: the warp's
//                                16 x 8 tile acc += A (16 x 8) x B (8 x 8); each lane passes its
//                                fragment (a: 4 elements of A, b: 2 of B, acc: 4 of the tile) as
//                                the PTX ISA's fragment tables place them (kernels/trace/mma_fragments.h).
//                                All 32 lanes of the warp execute it together.
// Below sm_80 there are no TF32 tensor cores: the wrappers trap, so every architecture builds.
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TILESCOPE_TENSOR_CORES 1
#else
#define TILESCOPE_TENSOR_CORES 0
#endif

__device__ __forceinline__ float toTf32(float x) {
#if TILESCOPE_TENSOR_CORES
  unsigned bits;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
  return __uint_as_float(bits);
#else
  __trap();
  return x;
#endif
}

__device__ __forceinline__ void mmaSyncTf32(float (&acc)[4], const float (&a)[4], const float (&b)[2]) {
#if TILESCOPE_TENSOR_CORES
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
      : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])),
        "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
#else
  (void)acc;
  (void)a;
  (void)b;
  __trap();
#endif
}
