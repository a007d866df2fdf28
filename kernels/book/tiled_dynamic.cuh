// tiled-dynamic: fig. 5.14. The same bounds-checked tiled kernel, but the tile width is a
// run-time argument and both tiles live in one dynamically sized shared array, sized by the
// launch (its third <<< >>> parameter). Mds_sz and Nds_sz count floats; the book's figure
// passes bytes and then adds them to a float pointer, which would overshoot by 4x.
//   M is j x k, N is k x l, P is j x l; Mds[ty*tileWidth + tx], Nds[ty*tileWidth + tx].

__global__ void matrixMulKernel(float* M, float* N, float* P, int j, int k, int l, int tileWidth,
                                unsigned Mds_sz, unsigned Nds_sz) {
  extern __shared__ float Mds_Nds[];
  float* Mds = Mds_Nds;
  float* Nds = Mds_Nds + Mds_sz;

  int bx = blockIdx.x;  int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * tileWidth + ty;
  int Col = bx * tileWidth + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < ceilDiv(k, tileWidth); ++ph) {
    if (Row < j && ph*tileWidth + tx < k)
      Mds[ty*tileWidth + tx] = M[Row*k + ph*tileWidth + tx];
    else Mds[ty*tileWidth + tx] = 0.0f;
    if (ph*tileWidth + ty < k && Col < l)
      Nds[ty*tileWidth + tx] = N[(ph*tileWidth + ty)*l + Col];
    else Nds[ty*tileWidth + tx] = 0.0f;
    __syncthreads();  // read-after-write: every slot is loaded before anyone reads it

    for (int kk = 0; kk < tileWidth; ++kk) {
      Pvalue += Mds[ty*tileWidth + kk] * Nds[kk*tileWidth + tx];
    }
    __syncthreads();  // write-after-read: everyone is done reading before the next load
  }
  if (Row < j && Col < l)
    P[Row*l + Col] = Pvalue;
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::TiledDynamic,
      .name = "tiled-dynamic",
      .description = "tiled-bounds with one dynamically sized extern __shared__ array (fig. 5.14)",
      .sourceFile = "book/tiled_dynamic.cuh",
      .tiled = true,
      .liveSweep = true,
      .textbook = true,
      // A run-time width: all nine of the resource test's.
      .gpuResourceLaunches = 9,
      .ncuLaunches = {{{64, 64, 64, 16}, {64, 64, 64, 8}}},
      .ncuShared = NcuShared::All,  // a run-time T: one 32-bit shared load per source read
  };
  // T x T threads; Mds and Nds of T x T floats in the one extern array: 2 x T x T x 4 bytes.
  static HandResources handResources(const KernelLaunch& L) {
    return {.threads = L.tile * L.tile, .dynamicSharedBytes = 2 * L.tile * L.tile * 4};
  }
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s = TileFamily::shape(L);
    s.dynamicSharedFloats = unsigned(2 * L.tile * L.tile);
    return s;
  }
  // Mds_Nds itself is never indexed; Mds and Nds are the tiles, rows of tileWidth.
  static SharedArrays arrays(const KernelLaunch& L) {
    return {{{}, {MatrixRole::M, L.tile, true}, {MatrixRole::N, L.tile, true}}};
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    const unsigned tileFloats = unsigned(L.tile * L.tile);
    x.launch(matrixMulKernel, L, a.M, a.N, a.P, L.j, L.k, L.l, L.tile, tileFloats, tileFloats);
    return true;
  }
};
