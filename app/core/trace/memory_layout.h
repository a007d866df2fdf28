// Where each traced access lands in memory, in bytes: the one place that knows the layout
// the analyses assume.
//
// Global memory: M, N and P are three cudaMalloc allocations, made in that order. The
// analyses need only their alignment, never real pointers: cudaMalloc returns addresses
// aligned to at least 256 bytes, so each matrix starts a fresh 128-byte line and 32-byte
// sector, and how one warp's addresses fall into sectors and lines is exactly what the GPU
// sees. Element (row, col) of a rows x cols matrix is at base + 4 * (row * cols + col):
// the kernels' own index expression (also for the out-of-bounds rows that wrap around).
//
// Shared memory: where each kernel keeps its tiles is one of its facts (tiles() in its file
// under kernels/): the tiled kernels' static arrays Mds[T][T] and Nds[T][T] are laid out as
// declared, Mds at byte 0 and Nds right after it at 4*T*T (nvcc places a kernel's static
// __shared__ arrays in declaration order, each aligned to its element size; a T*T float
// array needs no padding). The dynamic kernels carve Mds and Nds out of one extern array
// the same way (fig. 5.14). Slot (r, c) of a tile is at base + 4 * (r * stride + c), with
// (r, c) the slot the view recorded.
#pragma once
#include <cstdint>
#include <optional>

#include "core/trace/trace.h"

namespace tilescope {

inline constexpr uint64_t kAllocationAlignment = 256;  // cudaMalloc's guaranteed alignment
inline constexpr unsigned kElementBytes = 4;          // every matrix holds float

// The global bytes a tensor-map copy (Op::CopyM / CopyN, rung 8) reads: its box (bm x bk of M,
// bk x bn of N) less what lies outside the matrix, which the copy engine fills with zeros
// without reading. 0 for any other event. Loads counted anywhere (traffic, the timeline's
// counters) count a copy's bytes here, once.
uint64_t copiedBytes(const Event& e, const KernelLaunch& L);

struct GlobalLayout {
  uint64_t baseM = 0, baseN = 0, baseP = 0;
  int j = 0, k = 0, l = 0;  // M is j x k, N is k x l, P is j x l
};

using SharedLayout = SharedTileLayout;  // kernels/catalog.h

GlobalLayout globalLayout(const KernelLaunch& launch);
SharedLayout sharedLayout(const KernelLaunch& launch);  // all zero for naive
// Whether a 128-bit read of M's tile holds four k steps of one row (rung 8: Mds keeps M's rows
// as its rows, so a float4 runs along k) rather than four rows at one k (the transposed tiles
// of the vectorized rungs). The multiply-adds of a k step count such a read once per k.
bool wideReadOfMSpansK(const KernelLaunch& launch);

// The global byte address of a load of M or N or a store of P; none for zero fills (a
// boundary check wrote 0 to shared memory and touched no global memory) and other ops.
std::optional<uint64_t> globalAddress(const Event& e, const GlobalLayout& layout);

// Shared-memory side of an event: tile loads and zero fills write a slot, the k loop's
// reads read one. None for events that touch no shared memory (naive's loads, stores).
bool writesShared(const Event& e);
bool readsShared(const Event& e);
std::optional<uint32_t> sharedAddress(const Event& e, const SharedLayout& layout);

// 'M' or 'N': which tile (or matrix) an event touches; 'P' for stores, '-' for barriers.
char matrixOf(const Event& e);

}  // namespace tilescope
