// The kernel list: one line per kernel, X(KernelId, room, file): the kernel is
// kernels/room/file.cuh (rooms: book, the chapter's kernels; bugs, the bug gallery; ladder,
// the rungs after the chapter).
// A kernel is its file (the kernel as the book would print it, then its facts) plus its
// line here. The order gives each KernelId its value, which trace files store: append only.
// CMake reads this list too (kernels/CMakeLists.txt), to rewrite and embed the files.
#pragma once

// clang-format off
#define TILESCOPE_KERNELS(X)              \
  X(Naive, book, naive)                         \
  X(Tiled, book, tiled)                         \
  X(TiledBounds, book, tiled_bounds)            \
  X(TiledDynamic, book, tiled_dynamic)          \
  X(TiledNoFirstSync, bugs, tiled_no_first_sync) \
  X(TiledNoSecondSync, bugs, tiled_no_second_sync) \
  X(TiledTransposed, book, tiled_transposed)    \
  X(TiledRect, book, tiled_rect)                \
  X(BugKTypo, bugs, bug_k_typo)                 \
  X(BugSyncInK, bugs, bug_sync_in_k)            \
  X(BugRectIndex, bugs, bug_rect_index)         \
  X(BugSquareGrid, bugs, bug_square_grid)       \
  X(Coarsened, book, coarsened)                 \
  X(RegisterTile1d, ladder, register_tile_1d)     \
  X(RegisterTile2d, ladder, register_tile_2d)     \
  X(Vectorized, ladder, vectorized)               \
  X(WarpTile, ladder, warptile)                   \
  X(DoubleBuffered, ladder, double_buffered)      \
  X(TmaPipeline, ladder, tma_pipeline)            \
  X(StreamK, ladder, stream_k)                   \
  X(MmaTf32, ladder, mma_tf32)                   \
  X(WgmmaTf32, ladder, wgmma_tf32)
// clang-format on
