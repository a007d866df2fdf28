// tiled: fig. 5.9 for a j x k times k x l product. A TILE_WIDTH x TILE_WIDTH block computes
// a tile of P; in each phase its threads load one tile of M and one of N into shared memory
// (one element each), then every thread walks the two tiles. Global loads drop by a factor
// of TILE_WIDTH. Like the book's kernel it has no boundary checks: every dimension must be
// a multiple of TILE_WIDTH. The phase count is rounded up (as in fig. 5.13) so that on
// other sizes it shows exactly the wrong accesses of figs. 5.11 and 5.12.
//   M is j x k, N is k x l, P is j x l; Width of the book is k for M's rows, l for N's.

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
      Pvalue += Mds[ty][kk] * Nds[kk][tx];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::Tiled,
      .name = "tiled",
      .description = "T x T shared-memory tiles, no boundary checks (fig. 5.9)",
      .sourceFile = "book/tiled.cuh",
      .tiled = true,
      .needsMultipleOfTile = true,
      .tileIsCompileTime = true,
      .ladderRung = 1,
      .ladderLaunch = {.tile = 32},
      .liveSweep = true,
      .textbook = true,
      // Of the resource test's nine widths the GPU build has GpuTileWidths' 1, 2, 3, 4, 8, 16, 32.
      .gpuResourceLaunches = 7,
      .ncuLaunches = {{{64, 64, 64, 8}, {64, 64, 64, 16}, {64, 64, 64, 32}, {128, 128, 128, 16}}},
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
