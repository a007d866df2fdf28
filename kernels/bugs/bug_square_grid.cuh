// bug-square-grid: tiled-bounds with its phase count taken from the grid, as one lecture's
// kernel does (its comment says it assumes gridDim.x equals gridDim.y).
//
// WHAT IS WRONG: a block must walk every tile of the shared dimension k, ceil(k / T)
// phases. gridDim.x is ceil(l / T), the number of tile columns of P. The two agree only
// when k and l round to the same tile count, e.g. for square matrices. When k is longer,
// the last phases are skipped and every element of P misses the terms with k index
// >= gridDim.x * T; when k is shorter, the extra phases load only zeros (the bounds checks
// save it) and merely waste time. Fixed counterpart: tiled-bounds (tiled_bounds.cuh),
// whose only difference is the loop bound.
//   M is j x k, N is k x l, P is j x l; any size.

template <int TILE_WIDTH>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  // BUG: should be ceilDiv(k, TILE_WIDTH); the grid's width only counts tiles of l.
  for (int ph = 0; ph < int(gridDim.x); ++ph) {
    // Collaborative loading, with one boundary test for M and another for N
    if (Row < j && ph*TILE_WIDTH + tx < k)
      Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
    else Mds[ty][tx] = 0.0f;
    if (ph*TILE_WIDTH + ty < k && Col < l)
      Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
    else Nds[ty][tx] = 0.0f;
    __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < TILE_WIDTH; ++kk) {
      Pvalue += Mds[ty][kk] * Nds[kk][tx];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  if (Row < j && Col < l)
    P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::BugSquareGrid,
      .name = "bug-square-grid",
      .description = "bug gallery: tiled-bounds walking gridDim.x phases instead of ceil(k / T) (lecture)",
      .sourceFile = "bugs/bug_square_grid.cuh",
      .tiled = true,
      .tileIsCompileTime = true,
      .fixedTwin = "tiled-bounds",
      .faultyLines = {25},
      // Of the resource test's nine widths the GPU build has GpuTileWidths' 1, 2, 3, 4, 8, 16, 32.
      .gpuResourceLaunches = 7,
  };
  // T x T threads; Mds[T][T] and Nds[T][T] floats, static: 2 x T x T x 4 bytes.
  static HandResources handResources(const KernelLaunch& L) {
    return {.threads = L.tile * L.tile, .staticSharedBytes = 2 * L.tile * L.tile * 4};
  }
  // The bug walks gridDim.x phases, not ceil(k / T).
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s = TileFamily::shape(L);
    s.phases = ceilDiv(L.l, L.tile);
    s.eventsPerThread = unsigned(s.phases) * unsigned(4 + 2 * L.tile) + 1;
    return s;
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return x.withTile(L.tile, [&](auto T) { x.launch(matrixMulKernel<decltype(T)::value>, L, a.M, a.N, a.P, L.j, L.k, L.l); });
  }
};
