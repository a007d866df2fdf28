// tiled-no-first-sync: fig. 5.9 with its FIRST barrier removed, a deliberate race for the
// hazard detector (app/core/analysis/races.h) to find. Everything else is the tiled kernel.
//
// Removed: the __syncthreads() between the collaborative tile loads and the k loop.
// Now unprotected: the read-after-write (true) dependence. Thread (ty, tx) reads
// Mds[ty][kk] and Nds[kk][tx], slots written by other threads of the block in the same
// phase, and nothing makes it wait for those writes: it may read the previous phase's tile
// (or whatever the shared memory held before). Only dimensions that are multiples of
// TILE_WIDTH are meant to be used, as for tiled.
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
    // Collaborative loading of M and N tiles into shared memory, and no barrier after it
    Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];

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
      .id = KernelId::TiledNoFirstSync,
      .name = "tiled-no-first-sync",
      .description = "tiled without the read-after-write barrier: a race (the hazards lesson)",
      .sourceFile = "bugs/tiled_no_first_sync.cuh",
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
