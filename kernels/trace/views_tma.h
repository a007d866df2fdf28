// Hopper's copy engine over views (rung 8): the names of kernels/ladder/copy_engine.h, taking the
// views' element addresses (`&Mds[i]`, `&full[s]`), recording what each does, then doing it:
// on the GPU by the same PTX, on the emulator by hand, with the hardware's rules.
//   a tensor-map copy   one event for the tile (Op::CopyM / CopyN: issuing thread, box,
//                       first slot, bytes); the emulator copies at once, zero-filling the
//                       box outside the matrix as TMA does, then delivers its bytes
//   mbarrier init / arrive(expect_tx) / wait   one event each (a wait once it returned)
// Part of views.h; include that. Not for NVRTC (the lab's kernels have no tensor maps).
#pragma once
#if !defined(__CUDACC_RTC__)
#if !defined(__CUDACC__)
#include "kernels/trace/mbarrier.h"
#endif
#include "kernels/ladder/tensor_map_rules.h"

namespace tilescope {

// What a traced kernel receives for a `const __grid_constant__ CUtensorMap` parameter
// (traced_surface.h names it so): on the GPU the real map first (its address is what the
// copy instruction takes), and on both executors the matrix it describes, so the copy can
// be recorded (and, on the emulator, done).
struct TensorMapView {  // 64-byte aligned on the GPU, as its CUtensorMap member is
#if defined(__CUDACC__)
  CUtensorMap map;
#endif
  const float* base = nullptr;
  int rows = 0, cols = 0, boxRows = 0, boxCols = 0;
  MatrixRole role = MatrixRole::Other;
  TileSwizzle swizzle = TileSwizzle::None;
};

// The map over a traced view of a whole matrix (rows x cols, row-major), boxes boxRows x boxCols.
inline TensorMapView tensorMapOf(const GlobalView<float>& matrix, int rows, int cols, int boxRows, int boxCols,
                                 TileSwizzle swizzle) {
  TensorMapView m{};
  m.base = matrix.data();
  m.rows = rows;
  m.cols = cols;
  m.boxRows = boxRows;
  m.boxCols = boxCols;
  m.role = matrix.role();
  m.swizzle = swizzle;
  return m;
}

// The view moved on to its first element at a shared address that is a multiple of 1024 bytes
// (where the 128-byte swizzle's pattern of eight 128-byte rows starts); the launch leaves room.
// The emulator takes the host address of its arena for the shared one, the model its swizzle
// uses too. Elements are numbered from the moved start, so the trace is the same either way.
template <class T>
HOST_DEVICE SharedView<T, 1> alignedTo1024(const SharedView<T, 1>& v) {
#if defined(__CUDA_ARCH__)
  const unsigned long long address = (unsigned long long)__cvta_generic_to_shared(v.first());
#else
  const unsigned long long address = reinterpret_cast<unsigned long long>(v.first());
#endif
  return v + (long long)((1024 - address % 1024) % 1024 / sizeof(T));
}

using BarrierAddress = ElementAddress<uint64_t, SharedSite<uint64_t>>;

HOST_DEVICE void mbarrierInit(const BarrierAddress& bar, unsigned count) {
  const SharedSite<uint64_t>& b = bar.site;
  if (b.recorder) b.recorder->mbarrier(Op::MbarrierInit, b.array, b.index, float(count), b.line);
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::mbarrierInit(b.address(true), count);
#endif
#else
  emu::mbarrierInit(b.address(true), count);
#endif
}

HOST_DEVICE void mbarrierArriveExpectTx(const BarrierAddress& bar, unsigned bytes) {
  const SharedSite<uint64_t>& b = bar.site;
  if (b.recorder) b.recorder->mbarrier(Op::MbarrierArrive, b.array, b.index, float(bytes), b.line);
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::mbarrierArriveExpectTx(b.address(true), bytes);
#endif
#else
  emu::mbarrierArrive(b.address(true), bytes);
  emu::asyncProgress();
#endif
}

HOST_DEVICE void mbarrierArrive(const BarrierAddress& bar) {
  const SharedSite<uint64_t>& b = bar.site;
  if (b.recorder) b.recorder->mbarrier(Op::MbarrierArrive, b.array, b.index, 0.0f, b.line);
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::mbarrierArrive(b.address(true));
#endif
#else
  emu::mbarrierArrive(b.address(true), 0);
  emu::asyncProgress();
#endif
}

HOST_DEVICE void mbarrierWait(const BarrierAddress& bar, unsigned parity) {
  const SharedSite<uint64_t>& b = bar.site;
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::mbarrierWait(b.address(false), parity);
#endif
#else
  while (!emu::mbarrierPhaseDone(b.address(false), parity)) emu::waitForAsync(b.line);
#endif
  if (b.recorder) b.recorder->mbarrier(Op::MbarrierWait, b.array, b.index, float(parity), b.line);
}

// The box at column x, row y of the map's matrix into the slots from `dst` on.
HOST_DEVICE void cpAsyncBulkTensor2d(const ElementAddress<float, SharedSite<float>>& dst, const TensorMapView* map,
                                     int x, int y, const BarrierAddress& bar) {
  const SharedSite<float>& d = dst.site;
  const bool inside = x >= 0 && y >= 0 && x + map->boxCols <= map->cols && y + map->boxRows <= map->rows;
  const unsigned bytes = unsigned(map->boxRows) * unsigned(map->boxCols) * 4u;
  if (d.recorder) d.recorder->copy(map->role, d.array, d.index, d.rowLength, y, x, inside, bytes, d.line);
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::cpAsyncBulkTensor2d(d.address(true), &map->map, x, y, bar.site.address(true));
#endif
#else
  // The box lies in shared memory as it lies in the matrix, boxRows rows of boxCols elements;
  // with the 128-byte swizzle each element's byte address a moves to a ^ (((a >> 7) & 7) << 4)
  // (its 16-byte chunk XOR the 128-byte row's number within 1024 bytes), as the hardware does.
  const unsigned long long start = reinterpret_cast<unsigned long long>(d.address(true));
  for (int r = 0; r < map->boxRows; ++r)
    for (int c = 0; c < map->boxCols; ++c) {
      const int row = y + r, col = x + c;
      const bool in = row >= 0 && row < map->rows && col >= 0 && col < map->cols;
      long long slot = (long long)r * map->boxCols + c;
      if (map->swizzle == TileSwizzle::Bytes128) {
        const unsigned long long a = start + (unsigned long long)slot * sizeof(float);
        slot = (long long)((a ^ (((a >> 7) & 7) << 4)) - start) / (long long)sizeof(float);
      }
      *d.shifted(slot).address(true) = in ? map->base[(long long)row * map->cols + col] : 0.0f;
    }
  emu::mbarrierCompleteTx(bar.site.address(true), bytes);
  emu::asyncProgress();
#endif
}

#if !defined(__CUDACC__)
// The emulator runs no other proxy and keeps every thread's registers.
inline void fenceMbarrierInit() {}
template <unsigned R>
void setmaxnregDec() {}
template <unsigned R>
void setmaxnregInc() {}
#endif

}  // namespace tilescope
#endif
