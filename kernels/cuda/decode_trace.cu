#include <cuda_runtime.h>

#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/decode_trace.h"
#include "kernels/trace/step_rules.h"

namespace tilescope::cuda {

namespace {

constexpr unsigned kMaxThreads = 1024;

// A thread's slots are filled from the front, so its event count is the index of its first
// unused slot: a binary search over the run.
__device__ unsigned usedSlots(const Event* thread, unsigned slotsPerThread) {
  unsigned lo = 0, hi = slotsPerThread;  // answer in [lo, hi]
  while (lo < hi) {
    const unsigned mid = (lo + hi) / 2;
    if (thread[mid].op != Op::None) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Exclusive prefix sum of `value` over the CUDA block; returns it and stores the block total.
// Warps scan with shuffles, then warp 0 scans the warp totals.
// A shuffle's mask must name exactly the lanes that take part: the last warp of a block
// whose size is not a multiple of 32 is partial.
__device__ unsigned lanesOfWarp(unsigned warp) {
  const unsigned present = min(32u, blockDim.x - warp * 32);
  return present == 32 ? 0xffffffffu : (1u << present) - 1;
}

__device__ unsigned blockExclusiveScan(unsigned value, unsigned* warpTotals, unsigned* total) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned mask = lanesOfWarp(warp);
  unsigned inclusive = value;
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned other = __shfl_up_sync(mask, inclusive, d);
    if (lane >= d) inclusive += other;
  }
  if (lane == 31 || threadIdx.x == blockDim.x - 1) warpTotals[warp] = inclusive;
  __syncthreads();  // read-after-write: every warp's total is stored before warp 0 scans them
  if (warp == 0) {
    const unsigned warps = (blockDim.x + 31) / 32;
    unsigned w = lane < warps ? warpTotals[lane] : 0;
    for (unsigned d = 1; d < 32; d *= 2) {
      const unsigned other = __shfl_up_sync(mask, w, d);
      if (lane >= d) w += other;
    }
    if (lane < warps) warpTotals[lane] = w;  // now inclusive over warps
    if (lane == warps - 1) *total = w;
  }
  __syncthreads();  // read-after-write: the scanned warp totals are ready for every thread
  const unsigned before = warp == 0 ? 0 : warpTotals[warp - 1];
  const unsigned result = before + inclusive - value;
  __syncthreads();  // write-after-read: warpTotals is reused by the next call
  return result;
}

// One CUDA block per trace block, one CUDA thread per traced thread.
__global__ void countKernel(const Event* slots, unsigned slotsPerThread, unsigned long long* blockCounts) {
  __shared__ unsigned warpTotals[kMaxThreads / 32];
  __shared__ unsigned total;
  const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned used = usedSlots(slots + thread * slotsPerThread, slotsPerThread);
  blockExclusiveScan(used, warpTotals, &total);
  if (threadIdx.x == 0) blockCounts[blockIdx.x] = total;
}

// Also derives each event's phase and k step, with the same rules as the host decoder
// (kernels/trace/step_rules.h): the block-wide facts of an interval come from __syncthreads_or;
// the ring rule (a thread's next phase at an mbarrier wait after its work) is per thread, inside
// ThreadSteps::derive, so it needs nothing block-wide here.
__global__ void reorderKernel(const Event* slots, unsigned slotsPerThread, const unsigned long long* blockOffsets,
                              Event* out) {
  __shared__ unsigned warpTotals[kMaxThreads / 32];
  __shared__ unsigned total;
  const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const Event* mine = slots + thread * slotsPerThread;
  const unsigned used = usedSlots(mine, slotsPerThread);
  Event* blockOut = out + blockOffsets[blockIdx.x];
  unsigned cursor = 0;
  unsigned long long written = 0;
  BlockPhase block;
  ThreadSteps steps;
  for (;;) {
    // This thread's events of the current barrier interval: up to and including its arrival.
    unsigned n = 0;
    IntervalScan scan;
    while (cursor + n < used) {
      const Event& e = mine[cursor + n];
      scan.add(e, n);
      ++n;
      if (e.op == Op::Barrier) break;
    }
    const unsigned offset = blockExclusiveScan(n, warpTotals, &total);
    const unsigned intervalTotal = total;
    if (intervalTotal == 0) break;  // the same value in every thread: all leave together
    const bool anyWrites = __syncthreads_or(scan.writes()) != 0;
    const bool anyWritesAfterCompute = __syncthreads_or(scan.writesAfterCompute()) != 0;
    const bool newPhase = block.beginInterval(anyWrites, anyWritesAfterCompute);
    steps.beginInterval(scan, block, newPhase);
    bool computedInPhase = false;
    for (unsigned i = 0; i < n; ++i) {
      Event e = mine[cursor + i];
      computedInPhase = steps.derive(e, i, block) || computedInPhase;
      blockOut[written + offset + i] = e;
    }
    block.endInterval(__syncthreads_or(computedInPhase) != 0);
    cursor += n;
    written += intervalTotal;
  }
}

}  // namespace

Result<std::size_t> countTraceEvents(const Event* slots, const SlotLayout& layout, unsigned long long* blockOffsets) {
  if (layout.blocks == 0) return std::size_t(0);
  if (layout.threadsPerBlock == 0 || layout.threadsPerBlock > kMaxThreads)
    return invalidInput("trace decode: " + std::to_string(layout.threadsPerBlock) +
                        " threads per block is outside 1..1024");
  countKernel<<<layout.blocks, layout.threadsPerBlock>>>(slots, layout.slotsPerThread, blockOffsets + 1);
  CUDA_TRY(cudaGetLastError());
  // The prefix over blocks is small (one entry per block): done on the host.
  std::vector<unsigned long long> offsets(std::size_t(layout.blocks) + 1, 0);
  CUDA_TRY(cudaMemcpy(offsets.data() + 1, blockOffsets + 1, layout.blocks * sizeof(unsigned long long),
                      cudaMemcpyDeviceToHost));
  for (std::size_t b = 1; b < offsets.size(); ++b) offsets[b] += offsets[b - 1];
  CUDA_TRY(cudaMemcpy(blockOffsets, offsets.data(), offsets.size() * sizeof(unsigned long long),
                      cudaMemcpyHostToDevice));
  return std::size_t(offsets.back());
}

Status decodeTraceOnGpu(const Event* slots, const SlotLayout& layout, const unsigned long long* blockOffsets,
                        Event* out) {
  if (layout.blocks == 0) return Ok{};
  reorderKernel<<<layout.blocks, layout.threadsPerBlock>>>(slots, layout.slotsPerThread, blockOffsets, out);
  CUDA_TRY(cudaGetLastError());
  return Ok{};
}

}  // namespace tilescope::cuda
