// naive: the lectures' gemm_simple. One thread computes one element of P = M x N,
// reading a row of M and a column of N straight from global memory (2k loads per thread,
// 0.25 FLOP per byte). Any block shape bx x by; the grid covers P with ceil-divided blocks.
//   M is j x k, N is k x l, P is j x l, all row-major.

__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < j && col < l) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) {
      sum += M[row*k + i] * N[i*l + col];
    }
    P[row*l + col] = sum;
  }
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : FreeBlockFamily {
  static constexpr KernelInfo info{
      .id = KernelId::Naive,
      .name = "naive",
      .description = "one thread per P element, reads straight from global memory (lecture gemm_simple)",
      .sourceFile = "book/naive.cuh",
      .liveSweep = true,
      .textbook = true,
      // Blocks 16x16, 32x8, 64x4, 32x32 and 7x3: every one launches.
      .gpuResourceLaunches = 5,
      // The lecture's block shapes, a block that divides nothing (7x3) and a tall one.
      .ncuLaunches = {{{64, 64, 64, 0, 32, 8}, {64, 64, 64, 0, 16, 16}, {64, 64, 64, 0, 64, 4}, {64, 64, 64, 0, 8, 32},
                       {64, 64, 64, 0, 32, 32}, {50, 30, 70, 0, 7, 3}, {128, 128, 128, 0, 16, 64}}},
  };
  // bx x by threads, no shared memory.
  static HandResources handResources(const KernelLaunch& L) { return {.threads = int(L.blockX * L.blockY)}; }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    x.launch(matrixMulKernel, L, a.M, a.N, a.P, L.j, L.k, L.l);
    return true;
  }
};
