// tiled-no-second-sync: fig. 5.9 with its SECOND barrier removed, a deliberate race for the
// hazard detector (app/core/analysis/races.h) to find. Everything else is the tiled kernel.
//
// Removed: the __syncthreads() at the end of each phase, after the k loop.
// Now unprotected: the write-after-read (false) dependence. A thread that finishes its
// k loop early goes on to load the next phase's tiles into slots that slower threads are
// still reading, so they may multiply the next phase's values. With one phase (k <= T)
// there is no next load and the result is right: the race needs at least two phases.
//   M is j x k, N is k x l, P is j x l; Mds[ty][tx] and Nds[ty][tx] are the tiles.

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
    // (no barrier here: the next phase's loads may overwrite slots still being read)
  }
  P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::TiledNoSecondSync,
      .name = "tiled-no-second-sync",
      .description = "tiled without the write-after-read barrier: a race once k > T (the hazards lesson)",
      .sourceFile = "bugs/tiled_no_second_sync.cuh",
      .tiled = true,
      .needsMultipleOfTile = true,
      .tileIsCompileTime = true,
      .fixedTwin = "tiled",  // the same lines with one barrier fewer: no faulty line, one missing
      .races = true,
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
