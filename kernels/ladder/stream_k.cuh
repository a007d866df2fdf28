// stream-k: rung 9, the grid as a whole. Rung 8's copy engine, ring and producer warpgroup,
// in a persistent kernel: a fixed grid (the selector's choice, Facts::schedule below: the
// SMs x blocks per SM when the tiles alone cannot fill the device) whose blocks share the
// work by k iterations, not by tiles. The work is tiles x kTiles iterations (one iteration:
// one BK step of one tile), numbered tile by tile; block b takes iterations
// [b x total / G, (b + 1) x total / G), so every SM gets the same share even when there are
// fewer tiles than SMs (N = 1024 at 128 x 256: 32 tiles, 1024 iterations, 7.75 per SM of 132).
// With G = tiles each block takes exactly one tile: the data-parallel grid of rung 8, which
// runs this file's data-parallel build (SPLIT false, as cuBLAS picks a kernel per shape): rung
// 8's loop with no scheduler in it, no workspace, no fix-up, the store after the loop.
//   The k-step's inner loop (BK / 4 steps of four k) is unrolled whole in the data-parallel
// build, as in rung 8, and where a block's share is short; where each block runs 16 k-steps
// or more it is unrolled by 2 (KQ_UNROLL, chosen at launch): whole, the split build's loop is
// 4 times the code, and at 1536 and 3000 its warps waited for instruction fetch (30 % of the
// cycles between issues at 1536) and ran 84 to 87 % of cuBLAS against 98 to 108 % by 2
// (kernels/README.md, rung 9).
//   A tile whose iterations fall to several blocks is split. The block that owns its last
// iteration finishes it: it waits until the earlier blocks have left their partial sums in a
// global workspace (`partials`, one slot per block, at most one partial per block: only a
// block's last segment can end inside a tile), adds them in a fixed order (the nearest block
// first) and stores P. The sum is the same on every run: no atomics on P, no order that
// depends on timing. The wait is thread to thread: consumer thread t of block b, once it has
// written its part of b's slot, stores the launch's `generation` in `flags[b][t]` with
// release order; the finisher's thread t reads slot t of an earlier block b' only after it
// read flags[b'][t] at that generation with acquire order. No block barrier is needed (the
// producer warpgroup has left by then), and nothing is zeroed before a launch: each launch
// publishes a generation above every value the flags hold (kernels/cuda/stream_k_workspace.h).
// Until 2026-11-26 the blocks counted themselves in a per-tile arrival counter, which a memset
// queued before every split launch zeroed (and the launch's time included).
//   Why the finisher is the last block and not the first (CUTLASS's choice): the emulator runs
// blocks one after another in index order (kernels/emu/emulator.h). A block that waited for a
// later block would wait forever there; a block that waits only for earlier ones always finds
// them done. On the GPU every block of the persistent grid is resident, so the wait is short:
// each block does its finishing work last (its first segment, whose tile began in an earlier
// block, is walked after the others), by when the earlier block, which left that tile's
// partial at the end of its own share, is about done too.
//   Tiles are numbered in bands of GROUP_ROWS tile rows, column by column inside a band, so
// the blocks running at once share rows of M and columns of N in L2.
//   Needs sm_90, and k and l multiples of 4, as rung 8.

template <int BM, int BN, int BK, int WM, int WN, int TM, int TN, int STAGES, bool SPLIT, int KQ_UNROLL>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32 + 128, 1)
matrixMulKernel(float* M, float* N, float* P, int j, int k, int l, const __grid_constant__ CUtensorMap mTiles,
                const __grid_constant__ CUtensorMap nTiles, float* partials, int* flags, int generation) {
  constexpr int CONSUMERS = (BM / WM) * (BN / WN) * 32;
  constexpr int LANES_N = WN / TN, LANES_M = 32 / LANES_N;
  constexpr int NSPAN = WN / (TN / 4);
  constexpr int STAGE_BYTES = (BM * BK + BK * BN) * 4;
  constexpr bool REALLOCATE = CONSUMERS == 256;
  constexpr bool SWIZZLE = BK * 4 == 128;
  constexpr int GROUP_ROWS = 8;  // tile rows per band of the L2-friendly tile order
  static_assert(STAGES <= 8, "the mbarrier arrays hold 8");
  extern __shared__ float tiles[];
  float* Mds = alignedTo1024(tiles);    // [STAGES][BM][BK]
  float* Nds = Mds + STAGES * BM * BK;  // [STAGES][BK][BN]
  __shared__ uint64_t full[8];
  __shared__ uint64_t empty[8];
  int tilesX = (l + BN - 1) / BN, tilesY = (j + BM - 1) / BM;
  int kTiles = (k + BK - 1) / BK;
  long long total = (long long)tilesX * tilesY * kTiles;
  // This block's share of the iterations, walked from its second segment on and its first
  // segment (the end of a tile begun by earlier blocks) last: iteration n is begin + rotated(n).
  // Without SPLIT (the data-parallel grid, one block per tile) block b's share is tile b, in
  // order: rung 8's loop, with no scheduler in it and no workspace.
  int begin = SPLIT ? int(blockIdx.x * total / gridDim.x) : int(blockIdx.x) * kTiles;
  int end = SPLIT ? int((blockIdx.x + 1) * total / gridDim.x) : begin + kTiles;
  int count = end - begin;
  int firstEnd = (begin / kTiles + 1) * kTiles;  // where the tile of `begin` ends
  int firstLength = SPLIT ? (firstEnd < end ? firstEnd : end) - begin : 0;

  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; ++s) {
      mbarrierInit(&full[s], 1);
      mbarrierInit(&empty[s], CONSUMERS);
    }
    fenceMbarrierInit();
  }
  __syncthreads();  // read-after-write: the mbarriers are initialised before any thread uses them

  if (threadIdx.x >= CONSUMERS) {  // the producer warpgroup: one thread issues every copy
    if (REALLOCATE) setmaxnregDec<40>();
    if (threadIdx.x == CONSUMERS) {
      for (int n = 0; n < count; ++n) {
        int it = SPLIT ? begin + (firstLength + n) % count : begin + n;
        int tile = SPLIT ? it / kTiles : int(blockIdx.x), t = SPLIT ? it % kTiles : n, s = n % STAGES;
        int band = tile / (GROUP_ROWS * tilesX), rows = tilesY - band * GROUP_ROWS < GROUP_ROWS ? tilesY - band * GROUP_ROWS : GROUP_ROWS;
        int tileRow = band * GROUP_ROWS + tile % (GROUP_ROWS * tilesX) % rows;
        int tileCol = tile % (GROUP_ROWS * tilesX) / rows;
        mbarrierWait(&empty[s], (n / STAGES + 1) % 2);  // write-after-read, as in rung 8
        mbarrierArriveExpectTx(&full[s], STAGE_BYTES);
        cpAsyncBulkTensor2d(&Mds[s * BM * BK], &mTiles, t * BK, tileRow * BM, &full[s]);
        cpAsyncBulkTensor2d(&Nds[s * BK * BN], &nTiles, tileCol * BN, t * BK, &full[s]);
      }
    }
    return;
  }
  if (REALLOCATE) setmaxnregInc<232>();

  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int warpRow = warp / (BN / WN), warpCol = warp % (BN / WN);
  int laneRow = lane / LANES_N, laneCol = lane % LANES_N;
  float Pvalue[TM][TN];
#pragma unroll
  for (int y = 0; y < TM; ++y)
#pragma unroll
    for (int x = 0; x < TN; ++x) Pvalue[y][x] = 0.0f;
  float4 mFragment[TM];
  float nFragment[TN];
  int segmentStart = begin + firstLength;  // the first iteration of the segment being summed
  if (segmentStart == end) segmentStart = begin;

  // The whole tile summed in Pvalue: store it, as rung 8 does.
  auto storeTile = [&](int tile) {
    int band = tile / (GROUP_ROWS * tilesX), rows = tilesY - band * GROUP_ROWS < GROUP_ROWS ? tilesY - band * GROUP_ROWS : GROUP_ROWS;
    int rowBase = (band * GROUP_ROWS + tile % (GROUP_ROWS * tilesX) % rows) * BM;
    int colBase = tile % (GROUP_ROWS * tilesX) / rows * BN;
    bool nRowsAligned = l % 4 == 0;
#pragma unroll
    for (int y = 0; y < TM; ++y) {
      int row = rowBase + warpRow*WM + y*LANES_M + laneRow;
#pragma unroll
      for (int c = 0; c < TN / 4; ++c) {
        int col = colBase + warpCol*WN + c*NSPAN + laneCol*4;
        if (nRowsAligned && row < j && col + 3 < l) {
          *reinterpret_cast<float4*>(&P[row*l + col]) =
              make_float4(Pvalue[y][c*4 + 0], Pvalue[y][c*4 + 1], Pvalue[y][c*4 + 2], Pvalue[y][c*4 + 3]);
        } else {
          for (int e = 0; e < 4; ++e)
            if (row < j && col + e < l) P[row*l + col + e] = Pvalue[y][c*4 + e];
        }
      }
    }
  };
  for (int n = 0; n < count; ++n) {
    int it = SPLIT ? begin + (firstLength + n) % count : begin + n;
    int s = n % STAGES;
    mbarrierWait(&full[s], (n / STAGES) % 2);  // read-after-write: both tiles of this stage arrived
#pragma unroll KQ_UNROLL
    for (int kq = 0; kq < BK; kq += 4) {
#pragma unroll
      for (int y = 0; y < TM; ++y) {
        int r = s*BM + warpRow*WM + y*LANES_M + laneRow;
        int chunk = SWIZZLE ? (kq / 4) ^ (r % 8) : kq / 4;
        mFragment[y] = *reinterpret_cast<float4*>(&Mds[r*BK + chunk*4]);
      }
#pragma unroll
      for (int kk = 0; kk < 4; ++kk) {
#pragma unroll
        for (int c = 0; c < TN / 4; ++c) {
          float4 n4 = *reinterpret_cast<float4*>(&Nds[(s*BK + kq + kk)*BN + warpCol*WN + c*NSPAN + laneCol*4]);
          nFragment[c*4 + 0] = n4.x; nFragment[c*4 + 1] = n4.y; nFragment[c*4 + 2] = n4.z; nFragment[c*4 + 3] = n4.w;
        }
#pragma unroll
        for (int y = 0; y < TM; ++y) {
          float m = kk == 0 ? mFragment[y].x : kk == 1 ? mFragment[y].y : kk == 2 ? mFragment[y].z : mFragment[y].w;
#pragma unroll
          for (int x = 0; x < TN; ++x) Pvalue[y][x] += m * nFragment[x];
        }
      }
    }
    mbarrierArrive(&empty[s]);  // this thread has read stage s: the producer may refill it
    // Data-parallel: the k-steps only, the store after the loop, as rung 8. With the store
    // inside the loop the consumers spilled (a 112-byte stack) and ran 79 % of cuBLAS at 4096
    // where rung 8 ran 95 % (bench/results/2026-11-26-h200-rung9b).
    if (!SPLIT) continue;
    bool tileEnds = (it + 1) % kTiles == 0;
    if (!tileEnds && it + 1 != end && n + 1 != count) continue;  // the segment goes on

    // The segment [segmentStart, it] of tile `tile` is summed in Pvalue.
    int tile = it / kTiles;
    int slotBase = threadIdx.x * 4;  // a thread's float4 q of slot b: ((b*TM*TN/4 + q)*CONSUMERS)*4 + slotBase
    if (!tileEnds) {  // a later block finishes this tile: leave the partial, then say so
#pragma unroll
      for (int q = 0; q < TM * TN / 4; ++q)
        *reinterpret_cast<float4*>(&partials[((long long)blockIdx.x * (TM*TN/4) + q) * CONSUMERS * 4 + slotBase]) =
            make_float4(Pvalue[q / (TN/4)][q % (TN/4) * 4 + 0], Pvalue[q / (TN/4)][q % (TN/4) * 4 + 1],
                        Pvalue[q / (TN/4)][q % (TN/4) * 4 + 2], Pvalue[q / (TN/4)][q % (TN/4) * 4 + 3]);
      publishRelease(&flags[blockIdx.x * CONSUMERS + threadIdx.x], generation);
    } else if (segmentStart % kTiles != 0) {  // earlier blocks began this tile: add their partials
      long long tileFirst = (long long)tile * kTiles;
      int firstBlock = int(((tileFirst + 1) * gridDim.x - 1) / total);
      // Every flag first, then the reads: no read waits behind another block's flag.
      for (int b = int(blockIdx.x) - 1; b >= firstBlock; --b)
        waitAcquire(&flags[b * CONSUMERS + threadIdx.x], generation);
      for (int b = int(blockIdx.x) - 1; b >= firstBlock; --b) {
#pragma unroll
        for (int q = 0; q < TM * TN / 4; ++q) {
          float4 v = *reinterpret_cast<float4*>(&partials[((long long)b * (TM*TN/4) + q) * CONSUMERS * 4 + slotBase]);
          Pvalue[q / (TN/4)][q % (TN/4) * 4 + 0] += v.x; Pvalue[q / (TN/4)][q % (TN/4) * 4 + 1] += v.y;
          Pvalue[q / (TN/4)][q % (TN/4) * 4 + 2] += v.z; Pvalue[q / (TN/4)][q % (TN/4) * 4 + 3] += v.w;
        }
      }
    }
    if (tileEnds) storeTile(tile);
#pragma unroll
    for (int y = 0; y < TM; ++y)
#pragma unroll
      for (int x = 0; x < TN; ++x) Pvalue[y][x] = 0.0f;
    segmentStart = it + 1 == end ? begin : it + 1;
  }
  if (!SPLIT) storeTile(blockIdx.x);
}

// ---- facts ---------------------------------------------------------------------------
// matrixMulKernel is longer than 80 lines: lesson 19 reads a block's share of k steps, the
// partial it leaves and the fix-up that finishes a tile as one walk through the kernel.
// Rung 8's facts (its ring, its shared memory, its limits) with a persistent grid.
struct Facts : tma_pipeline::Facts {
  static constexpr KernelInfo info{
      .id = KernelId::StreamK,
      .name = "stream-k",
      .description = "rung 8 in a persistent grid: every block an equal share of the k iterations, split tiles fixed up in order",
      .sourceFile = "ladder/stream_k.cuh",
      .ladderRung = 9,
      .rowsMultipleOf = 4,
      .persistentGrid = true,
      .textbook = true,
      // Its three built tilings.
      .gpuResourceLaunches = 3,
      // Rung 8's shapes at the teaching tiling on persistent grids that split tiles 2, 3 and many
      // ways (and none); the H100's tilings, 4 tiles of 3 k-steps, on one block per tile (both)
      // and on 7 (the half); at 128 x 256, 4 tiles of 12 k-steps on 3 blocks (16 each, tiles 1
      // and 2 split: the build whose inner loop is unrolled by 2); 12 teaching tiles on 5 blocks.
      .gpuTestLaunches = {{{40, 20, 68, 2, 0}, {40, 20, 68, 2, 5}, {70, 132, 36, 2, 3}, {70, 132, 36, 2, 7},
                           {33, 28, 100, 2, 60}, {131, 68, 260, 0, 0}, {131, 372, 260, 0, 3}, {131, 68, 260, 1, 0},
                           {131, 68, 260, 1, 7}, {97, 20, 132, 2, 5}}},
      // 37 x 32 x 24 at 32 x 64 tiles is 2 tiles of 4 k-steps, 8 iterations: 3 blocks split
      // both tiles (3, 3, 2 iterations), 8 blocks take one each.
      .testGrids = {3, 8},
      // Profiled as rung 8 is (one tile, the H100 tiling: the data-parallel build). The sizes
      // that split tiles were profiled by hand (kernels/README.md, rung 9).
      .ncuLaunches = {{{128, 64, 256}}},
      .ncuShared = NcuShared::Conflicts,  // 0 on both sides, M's tile swizzled, as rung 8
  };
  // Rung 8's: (bm / wm) x (bn / wn) consumer warps and 128 producer threads; full[8] and
  // empty[8] mbarriers, 128 bytes static; the ring (4 stages at bm = 128, else 3, of
  // Mds[bm][bk] and Nds[bk][bn]) and 1024 bytes of alignment, dynamic.
  static HandResources handResources(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    const int ring = (t.bm >= 128 ? 4 : 3) * (t.bm * t.bk + t.bk * t.bn) * 4;
    return {.threads = (t.bm / t.wm) * (t.bn / t.wn) * 32 + 128, .staticSharedBytes = 2 * 8 * 8,
            .dynamicSharedBytes = ring + 1024};
  }
  // The H100's, its half for sizes with fewer tiles than SMs (the selector's), a teaching size.
  static constexpr std::array<Tiling, 3> kTilings{
      {{128, 256, 32, 64, 64, 8, 16}, {128, 128, 32, 64, 64, 8, 16}, {32, 64, 8, 16, 32, 4, 4}}};
  static int tileCount(const KernelLaunch& L) {
    return ceilDiv(L.j, L.tiling.bm) * ceilDiv(L.l, L.tiling.bn);
  }
  // The persistent grid: the launch's blocks, or one block per tile (data-parallel).
  // (Never more blocks than iterations: each block then has at least one.)
  static int gridBlocks(const KernelLaunch& L) {
    const long long total = (long long)tileCount(L) * ceilDiv(L.k, L.tiling.bk);
    return L.persistentBlocks > 0 ? int(std::min<long long>(L.persistentBlocks, total)) : tileCount(L);
  }
  // Whether a tile is shared by several blocks: not on one block per tile, which then runs
  // the kernel's data-parallel build (SPLIT false: no scheduler, no workspace, no fix-up).
  static bool splits(const KernelLaunch& L) { return gridBlocks(L) != tileCount(L); }
  // One partial slot per block: TM x TN floats per consumer thread (none without a split).
  static long long partialFloats(const KernelLaunch& L) {
    return splits(L) ? (long long)gridBlocks(L) * consumers(L.tiling) * L.tiling.tm * L.tiling.tn : 0;
  }
  // One flag per consumer thread per block (none without a split).
  static long long flagCount(const KernelLaunch& L) {
    return splits(L) ? (long long)gridBlocks(L) * consumers(L.tiling) : 0;
  }
  static LaunchShape shape(const KernelLaunch& L) {
    const Tiling& t = L.tiling;
    LaunchShape s = tma_pipeline::Facts::shape(L);
    const long long kTiles = ceilDiv(L.k, t.bk), total = tileCount(L) * kTiles, grid = gridBlocks(L);
    s.gridX = unsigned(grid);
    s.gridY = 1;
    const long long most = (total + grid - 1) / grid, least = total / grid;  // iterations per block
    // A block's phases are the k tiles of its share (kernels/trace/step_rules.h, the ring's
    // rule): the longest share can hold more of them than one tile has.
    s.phases = int(most);
    // A block's segments: at most one per tile it touches; a split tile's blocks: its
    // iterations over the fewest any block has, and one more at each end (the finisher reads
    // each earlier one's partial and waits once for its flag).
    const long long segments = std::min(most, most / kTiles + 2);
    const long long sharers = least > 0 ? std::min(grid, kTiles / least + 2) : grid;
    const int perTile = 2 + (t.bk / 4) * t.tm + t.bk * (t.tn / 4);
    const long long events = 1 + 2 * stages(t) + most * perTile + segments * (t.tm * t.tn + 2) +
                              sharers * (t.tm * t.tn / 4 + 1);
    s.eventsPerThread = unsigned(events);
    return s;
  }
  // The k-step's inner loop: by 2 where each block runs at least kLongShare k-steps (the
  // split build), else whole. Measured: 7.8 k-steps a block (N = 1024) ran 79 to 85 % of
  // cuBLAS whole and 76 to 78 % by 2 or rolled; 26.2 (1536) 84 to 87 % whole, 105 to 108 % by 2;
  // 205 (3000) 85 to 87 % whole, 98 to 99.6 % by 2; 951 (5000) 94 % whole, 93 to 94 % by 2
  // (bench/results/2026-11-26-h100-rung9c, -h200-rung9c).
  static constexpr int kLongShare = 16;
  static bool longShare(const KernelLaunch& L) {
    const long long iterations = (long long)tileCount(L) * ceilDiv(L.k, L.tiling.bk);
    return splits(L) && iterations / gridBlocks(L) >= kLongShare;
  }
  // Rung 9's selector, as cuBLAS has one: which tiling and which grid stream-k runs at a shape,
  // from the device's SMs and the kernel's occupancy (blocks per SM), with the reason in words.
  // It reasons in waves (app/core/run/waves.h): a grid of one block per tile runs in
  // tiles / (SMs x blocks per SM) waves, and the last, partial wave decides the run's end.
  //   1. The H100 tiling (128 x 256) always (the half tiling, 128 x 128, only where the large
  //      one's ring does not fit an SM).
  //   2. One block per tile (data-parallel, rung 8's grid) when its waves are at least
  //      kBusyEnough busy on average (blocks / slots of the waves started). N = 4096: 512
  //      tiles, 3.88 of 4 waves, 97 %.
  //   3. Under one wave, s blocks to every tile (s = the slots / the tiles, s >= 2) when those
  //      s x tiles blocks keep the wave at least kBusyEnough busy: every tile split s ways
  //      alike. N = 1024: 32 tiles for 132 slots (24 %), 4 to a tile: 128 blocks (97 %) of 8
  //      k-iterations each, no block spanning two tiles.
  //   4. Else stream-K: a persistent grid of one wave (SMs x blocks per SM), every block an
  //      equal share of the tiles x k-steps iterations. N = 1536: 72 tiles for 132 slots (55 %):
  //      132 blocks of 26.2 k-iterations each. No block gets fewer than kMinShare (the ring's 4
  //      stages); when that leaves no more blocks than tiles, one block per tile after all.
  // The measurements behind each number follow.
  // The rule and the measurements behind it: one run of `bench --preset sizes` on an H200 (132
  // SMs, 1 block per SM at both tilings), 2026-11-25 (bench/results/2026-11-25-h200-rung9), % of
  // cuBLAS SGEMM at the same shape. Rung 8 is the large tiling, one block per tile.
  //
  //   shape   tiles (128x256)   waves busy   rung 8   rung 9 as then chosen
  //   1024       32              24 %       37.5     54.0  128x128, stream-K over 132
  //   1536       72              55 %       71.0     51.5  128x128, stream-K over 132
  //   2048      128              97 %       95.0     89.3  one block per tile
  //   3000      288 (2.18 w.)    73 %       80.6     85.1  128x256, stream-K over 132
  //   4096      512 (3.88 w.)    97 %       95.9     89.6  one block per tile
  //   5000      800 (6.06 w.)    87 %       90.3     91.9  128x256, stream-K over 132
  //   6144     1152 (8.73 w.)    97 %       96.8     91.3  one block per tile
  //   8192     2048 (15.5 w.)    97 %       96.7     91.9  one block per tile
  //
  // * The large tiling always. The half tiling's two runs, stream-K on all 132 SMs, reached
  //   16.6 and 18.7 TFLOP/s at 1024 and 1536: 126 and 142 GFLOP/s per SM. Rung 8's large tiles
  //   on the SMs they fill reached 11.5 TFLOP/s on 32 SMs and 25.8 on 72: 360 and 358 GFLOP/s
  //   per busy SM. A 128 x 128 block (4 consumer warps) computes at 0.35 to 0.40 of a
  //   128 x 256 block's rate, slower per tile though its tile is half: so 1536's 72 large tiles
  //   on 72 SMs beat the half tiles on 132 (71.0 against 51.5). The half tiling stays for
  //   devices whose SMs cannot hold the large one's ring (192 KiB: the A100's 164 KiB).
  // * kBusyEnough = 0.9, between the measured sides: at 73 % and 87 % busy stream-K beat one
  //   block per tile (+4.5 and +1.6 points, its own fix-up and persistent loop included); at
  //   97 % one block per tile is rung 8's grid at 95 to 97 %. The gain fell 0.21 points per
  //   point of busy from 73 % to 87 %, which puts the break-even near 94 %; from 90 % to 94 % the
  //   two lie within a point (one run's noise), and there the grid with no workspace and no
  //   fix-up is kept. Rechecked 2026-11-26 (bench/results/2026-11-26-h200-rung9b), one block per
  //   tile now rung 8's own loop (stream_k.cuh's data-parallel build, 94 to 96.5 % of cuBLAS):
  //   stream-K still wins at 73 % busy (3000: 84.6 against 80.5) and at 87 % (5000: 91.5 against
  //   90.9, +0.6 in both runs), so the threshold stands.
  // * Stream-K at the large tiling where the tiles leave the waves less busy: at 3000 and 5000
  //   measured (above); at 1024 and 1536 not yet timed (7.8 and 26.2 k-iterations per block).
  //   At rung 8's per-SM rate a block there runs 7.8 and 26.2 k-steps where rung 8's longest
  //   runs 32 and 48, plus one partial written and at most a few read: the fix-up would have to
  //   cost more than the k-steps saved to lose to rung 8, as it did not at 3000 and 5000.
  // * Rechecked 2026-11-26 (bench/results/2026-11-26-h100-rung9c and -h200-rung9c), with the
  //   split build's inner k loop unrolled by 2 where a block's share is 16 k-steps or more
  //   (stream_k.cuh: unrolled whole, its warps waited on instruction fetch), % of cuBLAS on an
  //   H100, two runs: 1536 106.5 / 108.1 (stream-K) against rung 8's 70.0 / 71.4; 3000 99.6 /
  //   99.4 against 80.7 / 80.6; 5000 94.0 / 94.0 against 90.2 / 90.2. The threshold stands.
  //   Tried and not kept: CUTLASS's data-parallel waves before the shared tiles (3000: one
  //   round of 132 whole tiles, then 156 shared; 5000: five, then 140): with the loop by 2, 98.3
  //   and 92.0 to 93.1 % against 98.4 to 98.7 and 93.3 to 93.6 without (H100); whole, 84.4 to
  //   85.1 and 89.9 to 90.7 % against 85.1 to 86.6 and 94.2 to 94.3 (H200): no shape gained.
  // * Under one wave, s blocks to every tile where that fills the wave as well as kBusyEnough
  //   asks (rule 3 above). Measured 2026-11-26 on an H100 (bench/results/
  //   2026-11-26-h100-rung9d, one machine, three rounds each, every case verified first): at
  //   N = 1024, 128 blocks (4 to each of the 32 tiles, 8 k-steps each, no block spanning two
  //   tiles) ran 0.065 ms, 105.9 to 106.9 % of cuBLAS SGEMM, against 0.076 to 0.077 ms, 89.8 to
  //   91.1 %, on 132 blocks (7.8 k-steps each: blocks spanning two tiles, tiles shared by 4 or 5,
  //   each block that spans two both leaving a partial and finishing a tile). No other shape of
  //   the sweep has s >= 2 at 90 % (1536: 72 tiles, s = 1).
  //   At 4096, 6144 and 8192 (97 % busy, one block per tile) stream-K over 132 blocks ran 2.810
  //   against 3.075 ms, 9.416 against 10.305 and 22.274 against 24.380 ms (264 blocks, two rounds of
  //   132: 3.087, 10.322, 24.412): one block per tile stays there. Nor did CUTLASS's data-parallel
  //   rounds then stream-K on the flags (bench/results/2026-11-26-h100-rung9e, three rounds):
  //   2.83 against 3.11 to 3.23 ms, 9.42 against 10.40 to 10.46, 22.29 to 22.32 against 24.22
  //   to 24.76.
  // * kMinShare = 4, the ring's depth: a block with fewer k-iterations than stages never fills
  //   the pipeline before its fix-up. Not measured: the shortest shares timed are 7.8 and 8
  //   (1024 at 128 x 256, 132 and 128 blocks), and no shape of the sweep comes near 4.

  static constexpr double kBusyEnough = 0.9;
  static constexpr int kMinShare = 4;  // k-iterations a stream-K block gets at least

  // One block per tile at a tiling, dealt onto the device's SMs in waves.
  struct Candidate {
    Tiling tiling;
    long long tiles = 0, iterations = 0;  // iterations: tiles x k-steps
    int blocksPerSm = 0;                  // 0: no block fits an SM
    long long slots = 0;                  // per wave: SMs x blocks per SM
    long long waveCount() const { return slots == 0 ? 0 : (tiles + slots - 1) / slots; }
    double busy() const { return waveCount() == 0 ? 0.0 : double(tiles) / double(waveCount() * slots); }
  };
  static Candidate candidate(const KernelLaunch& asked, const Tiling& t, const ScheduleDevice& device) {
    KernelLaunch L = asked;
    L.tiling = t;
    L.persistentBlocks = 0;
    Candidate c{t, (long long)ceilDiv(L.j, t.bm) * ceilDiv(L.l, t.bn), 0, device.blocksPerSm(L), 0};
    c.iterations = c.tiles * ceilDiv(L.k, t.bk);
    c.slots = (long long)device.smCount * c.blocksPerSm;
    return c;
  }
  // "8.0", "26.2", "15.52": v (not negative) to `places` decimals.
  static std::string decimals(double v, int places) {
    long long scale = 1;
    for (int i = 0; i < places; ++i) scale *= 10;
    const long long r = (long long)(v * double(scale) + 0.5);
    std::string frac = std::to_string(r % scale);
    return std::to_string(r / scale) + "." + std::string(std::size_t(places) - frac.size(), '0') + frac;
  }
  static std::string percent(double f) { return std::to_string(int(100.0 * f + 0.5)) + " %"; }
  static std::string wavesText(const Candidate& c) {
    if (c.waveCount() <= 1)
      return std::to_string(c.tiles) + (c.tiles == 1 ? " tile fills " : " tiles fill ") + percent(c.busy()) +
             " of one wave of " + std::to_string(c.slots);
    return std::to_string(c.tiles) + " tiles make " + decimals(double(c.tiles) / double(c.slots), 2) + " waves of " +
           std::to_string(c.slots) + ", " + percent(c.busy()) + " busy";
  }
  static KernelSchedule dataParallel(const Candidate& c, const std::string& why) {
    return {c.tiling, 0, tilingText(c.tiling) + ", data-parallel (one block per tile): " + why};
  }
  static KernelSchedule splitOver(const Candidate& c, long long blocks, const std::string& rest) {
    return {c.tiling, unsigned(blocks),
            tilingText(c.tiling) + ", stream-K over " + std::to_string(blocks) + " blocks (" +
                decimals(double(c.iterations) / double(blocks), 1) + " k-iterations each of " +
                std::to_string(c.iterations) + ")" + rest};
  }
  // Rule 3: under one wave, s = the slots / the tiles blocks to every tile (at most its k-steps
  // / kMinShare), when those s x tiles blocks keep at least kBusyEnough of the wave busy.
  static std::optional<KernelSchedule> evenSplit(const Candidate& c, const std::string& why) {
    if (c.tiles == 0 || c.tiles >= c.slots) return std::nullopt;
    const long long s = std::min<long long>(c.slots / c.tiles, c.iterations / c.tiles / kMinShare);
    if (s < 2 || double(s * c.tiles) < kBusyEnough * double(c.slots)) return std::nullopt;
    const std::string n = std::to_string(s);
    return splitOver(c, s * c.tiles, ", " + n + " to a tile: " + why + "; " + n + " blocks to a tile fill " +
                                         percent(double(s * c.tiles) / double(c.slots)) + " of it");
  }
  // Rule 4: a persistent grid of one wave, every block an equal share (at least kMinShare).
  static KernelSchedule streamK(const Candidate& c, const std::string& why) {
    const long long most = c.iterations / kMinShare, blocks = std::min(c.slots, most);
    if (blocks < c.slots && blocks <= c.tiles)  // too few iterations: fewer blocks than tiles
      return dataParallel(c, why.substr(0, why.find(':')) + ", but " + std::to_string(c.iterations) +
                                 " k-iterations are too few to share in runs of " + std::to_string(kMinShare));
    return splitOver(c, blocks, ": " + why);
  }
  static std::optional<KernelSchedule> schedule(const KernelLaunch& asked, const ScheduleDevice& device) {
    Candidate c = candidate(asked, kTilings[0], device);  // the H100's, its half, a teaching size
    std::string why;
    if (c.blocksPerSm == 0) {  // the large ring does not fit this device's SMs
      const Candidate half = candidate(asked, kTilings[1], device);
      if (half.blocksPerSm == 0) return dataParallel(c, "no block of either tiling fits an SM of this device");
      why = tilingText(c.tiling) + " does not fit an SM of this device; ";
      c = half;
    }
    why += wavesText(c);
    if (c.busy() >= kBusyEnough) return dataParallel(c, why);
    if (std::optional<KernelSchedule> even = evenSplit(c, why)) return even;
    return streamK(c, why + ": the blocks share the k-iterations equally instead");
  }
  template <class Exec>
  static bool launch(Exec& x, const KernelLaunch& L, const typename Exec::Args& a) {
    return withTiling(kTilings, L.tiling, [&](auto I) {
      constexpr Tiling t = kTilings[decltype(I)::value];
      constexpr int whole = t.bk / 4, byTwo = whole < 2 ? whole : 2;
      const bool split = splits(L);
      auto w = x.workspace(a, std::size_t(partialFloats(L)), std::size_t(flagCount(L)));
      auto mTiles = x.tensorMap(a.M, L.j, L.k, t.bm, t.bk, swizzleM(t));
      auto nTiles = x.tensorMap(a.N, L.k, L.l, t.bk, t.bn, TileSwizzle::None);
      if (!split)
        x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn, stages(t), false, whole>, L, a.M, a.N, a.P,
                 L.j, L.k, L.l, mTiles, nTiles, w.partials, w.flags, w.generation);
      else if (longShare(L))
        x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn, stages(t), true, byTwo>, L, a.M, a.N, a.P,
                 L.j, L.k, L.l, mTiles, nTiles, w.partials, w.flags, w.generation);
      else
        x.launch(matrixMulKernel<t.bm, t.bn, t.bk, t.wm, t.wn, t.tm, t.tn, stages(t), true, whole>, L, a.M, a.N, a.P,
                 L.j, L.k, L.l, mTiles, nTiles, w.partials, w.flags, w.generation);
    });
  }
};
