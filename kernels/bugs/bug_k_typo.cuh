// bug-k-typo: the tiled kernel of fig. 5.9 with the inner loop's indices typed as
// [ty][tx] on both tiles, a slip that appears in published study notes of chapter 5.
//
// WHAT IS WRONG: the k loop should walk a row of Mds and a column of Nds
// (Mds[ty][kk] * Nds[kk][tx]). Reading Mds[ty][tx] * Nds[ty][tx] instead multiplies the
// same two slots TILE_WIDTH times, so each phase adds TILE_WIDTH * M[Row][ph*T+tx] *
// N[ph*T+ty][Col]: one product, counted T times, in place of a dot product of T terms.
// The loads and barriers are right, so nothing crashes and no access is out of bounds;
// only the numbers are wrong. Fixed counterpart: tiled (tiled.cuh).
//   M is j x k, N is k x l, P is j x l; every dimension a multiple of TILE_WIDTH.

template <int TILE_WIDTH>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;

  // Identify the row and column of the P element to work on
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  // Loop over the M and N tiles required to compute the P element
  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, TILE_WIDTH); ++ph) {
    // Collaborative loading of M and N tiles into shared memory
    Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
    __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < TILE_WIDTH; ++kk) {
      // BUG: kk is never used as an index; both reads stay on this thread's own slot.
      Pvalue += Mds[ty][tx] * Nds[ty][tx];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::BugKTypo,
      .name = "bug-k-typo",
      .description = "bug gallery: tiled with Mds[ty][tx] * Nds[ty][tx] in the k loop (study notes)",
      .sourceFile = "bugs/bug_k_typo.cuh",
      .tiled = true,
      .needsMultipleOfTile = true,
      .tileIsCompileTime = true,
      .fixedTwin = "tiled",
      .faultyLines = {34},
      // Of the resource test's nine widths the GPU build has GpuTileWidths' 1, 2, 3, 4, 8, 16, 32.
      .gpuResourceLaunches = 7,
  };
  // T x T threads; Mds[T][T] and Nds[T][T] floats, static: 2 x T x T x 4 bytes.
  static HandResources handResources(const KernelLaunch& L) {
    return {.threads = L.tile * L.tile, .staticSharedBytes = 2 * L.tile * L.tile * 4};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return x.withTile(L.tile, [&](auto T) { x.launch(matrixMulKernel<decltype(T)::value>, L, a.M, a.N, a.P, L.j, L.k, L.l); });
  }
};
