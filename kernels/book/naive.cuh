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
  };
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    x.launch(matrixMulKernel, L, a.M, a.N, a.P, L.j, L.k, L.l);
    return true;
  }
};
