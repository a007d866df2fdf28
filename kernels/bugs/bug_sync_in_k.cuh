// bug-sync-in-k: a tiled kernel as one tutorial writes it: the barrier sits inside the k
// loop, and P is stored at the end of every phase instead of once after the last one.
//
// WHAT IS WRONG: nothing a test of P can see, which is the lesson. The barrier after each
// k step also happens to protect the next phase's loads (the last step's barrier orders
// every read before them), so the result is correct. The cost is synchronisation: each
// phase waits at 1 + TILE_WIDTH barriers instead of 2, and each thread writes its P
// element once per phase (partial sums that are overwritten) instead of once.
// Fixed counterpart: tiled (tiled.cuh): one barrier after the loads (read-after-write),
// one after the k loop (write-after-read), one store after the phase loop.
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
      Pvalue += Mds[ty][kk] * Nds[kk][tx];
      // BUG (a costly one): only the last of these barriers does useful work.
      __syncthreads();  // write-after-read, but only at the last k: no dependence links k steps
    }
    // BUG (wasteful): a partial sum is stored every phase and overwritten by the next.
    P[Row*l + Col] = Pvalue;
  }
}

// ---- facts ---------------------------------------------------------------------------
struct Facts : TileFamily {
  static constexpr KernelInfo info{
      .id = KernelId::BugSyncInK,
      .name = "bug-sync-in-k",
      .description = "bug gallery: tiled with a barrier inside the k loop and P stored every phase (tutorial)",
      .sourceFile = "bugs/bug_sync_in_k.cuh",
      .tiled = true,
      .needsMultipleOfTile = true,
      .tileIsCompileTime = true,
      .fixedTwin = "tiled",
      .faultyLines = {36, 39},
      // Of the resource test's nine widths the GPU build has GpuTileWidths' 1, 2, 3, 4, 8, 16, 32.
      .gpuResourceLaunches = 7,
  };
  // T x T threads; Mds[T][T] and Nds[T][T] floats, static: 2 x T x T x 4 bytes.
  static HandResources handResources(const KernelLaunch& L) {
    return {.threads = L.tile * L.tile, .staticSharedBytes = 2 * L.tile * L.tile * 4};
  }
  // 1 + T barriers and one store per phase, no final store
  static LaunchShape shape(const KernelLaunch& L) {
    LaunchShape s = TileFamily::shape(L);
    s.eventsPerThread = unsigned(s.phases) * unsigned(4 + 3 * L.tile);
    return s;
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return x.withTile(L.tile, [&](auto T) { x.launch(matrixMulKernel<decltype(T)::value>, L, a.M, a.N, a.P, L.j, L.k, L.l); });
  }
};
