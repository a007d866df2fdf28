// tiled-bounds: fig. 5.13 generalised to a j x k times k x l product (the chapter's
// exercise). Each load checks its own indices: a thread whose M or N element lies outside
// the matrix writes 0.0 into its shared slot instead (harmless in the dot product), and
// only threads that own a real P element store it.
//   M is j x k, N is k x l, P is j x l; Mds[ty][tx] and Nds[ty][tx] are the tiles.

template <int TILE_WIDTH>
__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, TILE_WIDTH); ++ph) {
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
      .id = KernelId::TiledBounds,
      .name = "tiled-bounds",
      .description = "tiled with boundary checks, any j x k x l (fig. 5.13 generalised)",
      .sourceFile = "book/tiled_bounds.cuh",
      .tiled = true,
      .tileIsCompileTime = true,
      .liveSweep = true,
      .textbook = true,
      // Of the resource test's nine widths the GPU build has GpuTileWidths' 1, 2, 3, 4, 8, 16, 32.
      .gpuResourceLaunches = 7,
      .ncuLaunches = {{{50, 30, 70, 16}}},  // zero fills on every side
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
