// The kernel list: one line per kernel, X(KernelId, file under kernels/ without .cuh).
// A kernel is its file (the kernel as the book would print it, then its facts) plus its
// line here. The order gives each KernelId its value, which trace files store: append only.
// CMake reads this list too (kernels/CMakeLists.txt), to rewrite and embed the files.
#pragma once

// clang-format off
#define TILESCOPE_KERNELS(X)              \
  X(Naive, naive)                         \
  X(Tiled, tiled)                         \
  X(TiledBounds, tiled_bounds)            \
  X(TiledDynamic, tiled_dynamic)          \
  X(TiledNoFirstSync, tiled_no_first_sync) \
  X(TiledNoSecondSync, tiled_no_second_sync) \
  X(TiledTransposed, tiled_transposed)    \
  X(TiledRect, tiled_rect)                \
  X(BugKTypo, bug_k_typo)                 \
  X(BugSyncInK, bug_sync_in_k)            \
  X(BugRectIndex, bug_rect_index)         \
  X(BugSquareGrid, bug_square_grid)       \
  X(Coarsened, coarsened)                 \
  X(RegisterTile1d, register_tile_1d)     \
  X(RegisterTile2d, register_tile_2d)     \
  X(Vectorized, vectorized)               \
  X(WarpTile, warptile)                   \
  X(DoubleBuffered, double_buffered)      \
  X(TmaPipeline, tma_pipeline)            \
  X(StreamK, stream_k)
// clang-format on
