// The launch path every traced GPU run shares (gpu_launch.h).
//
// Allocations are padded: a kernel that indexes past the end of a matrix (the unchecked
// tiled kernel on other sizes, the bug gallery) lands in padding that belongs to the same
// allocation, never in another buffer such as the trace. M's and N's padding holds NaN, so
// a value read from outside the matrix shows up as NaN, as a garbage read should.
#include "core/gpu/gpu_launch.h"

#include <algorithm>

#include "kernels/cuda/decode_trace.h"

namespace tilescope {

namespace {
using cuda::DeviceBuffer;

// Elements to allocate for a matrix so that every index a kernel of this launch can form
// stays inside the allocation. Kernels index row * width + col with row and col below the
// largest extent the launch covers (matrix sides, grid coverage, phases rounded up to T),
// so extent * (extent + 1) bounds every such index.
std::size_t paddedElements(const LaunchPlan& plan) {
  const KernelLaunch& L = plan.launch;
  const std::size_t tile = std::size_t(std::max(L.tile, 1));
  const std::size_t kCovered = (std::size_t(L.k) + tile - 1) / tile * tile + tile;
  const std::size_t extent = std::max({std::size_t(L.j), std::size_t(L.k), std::size_t(L.l), kCovered,
                                       std::size_t(L.gridX) * L.blockX, std::size_t(L.gridY) * L.blockY});
  return extent * (extent + 1);
}

// A float whose bits are all ones is a NaN; cudaMemset writes bytes, so 0xff fills with it.
constexpr int kNaNByte = 0xff;

template <class T>
Status reserve(DeviceBuffer<T>& buffer, std::size_t count, const char* what) {
  if (buffer.size() >= count) return Ok{};
  buffer = DeviceBuffer<T>();  // free the old one first: the two never need to coexist
  auto fresh = DeviceBuffer<T>::allocate(count, what);
  if (!fresh) return fresh.error();
  buffer = std::move(*fresh);
  return Ok{};
}

}  // namespace

Result<LaunchOutcome> GpuLaunchSession::launch(const LaunchPlan& plan, const Matrix& M, const Matrix& N, Matrix& P,
                                             EventVector* slots, const GpuLauncher& launcher) {
  // planLaunch refuses these already; checked again because this is where the memory
  // would be taken, and a caller may have built the plan by hand.
  if (slots && plan.traceSlots > kMaxTraceEvents)
    return invalidInput("trace of " + std::to_string(plan.traceSlots) + " events is over the cap of " +
                        std::to_string(kMaxTraceEvents) + " events (kMaxTraceEvents)");

  const std::size_t elements = paddedElements(plan);
  auto dM = DeviceBuffer<float>::allocate(elements, "M");
  if (!dM) return dM.error();
  auto dN = DeviceBuffer<float>::allocate(elements, "N");
  if (!dN) return dN.error();
  auto dP = DeviceBuffer<float>::allocate(elements, "P");
  if (!dP) return dP.error();
  CUDA_TRY(cudaMemset(dM->data(), kNaNByte, dM->bytes()));
  CUDA_TRY(cudaMemset(dN->data(), kNaNByte, dN->bytes()));
  CUDA_TRY(cudaMemset(dP->data(), kNaNByte, dP->bytes()));  // poison: an unwritten element comes back NaN
  CUDA_TRY(cudaMemcpy(dM->data(), M.values.data(), M.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_TRY(cudaMemcpy(dN->data(), N.values.data(), N.size() * sizeof(float), cudaMemcpyHostToDevice));

  DeviceBuffer<unsigned> dOverflow;
  GpuTraceBuffers trace;
  if (slots) {
    if (auto s = reserve(slotCache_, plan.traceSlots, "trace slots"); !s) return s.error();
    Event* const dSlotData = slotCache_.data();
    auto o = DeviceBuffer<unsigned>::allocate(1, "trace overflow flag");
    if (!o) return o.error();
    dOverflow = std::move(*o);
    CUDA_TRY(cudaMemset(dSlotData, 0, plan.traceSlots * sizeof(Event)));  // every slot starts as Op::None
    CUDA_TRY(cudaMemset(dOverflow.data(), 0, sizeof(unsigned)));
    trace = GpuTraceBuffers{dSlotData, plan.slotsPerThread, dOverflow.data()};
  }

  if (auto s = launcher(dM->data(), dN->data(), dP->data(), slots ? &trace : nullptr); !s) return s.error();
  CUDA_TRY(cudaDeviceSynchronize());  // errors raised while the kernel ran surface here

  CUDA_TRY(cudaMemcpy(P.values.data(), dP->data(), P.size() * sizeof(float), cudaMemcpyDeviceToHost));
  LaunchOutcome outcome;
  if (slots) {
    unsigned overflow = 0;
    CUDA_TRY(cudaMemcpy(&overflow, dOverflow.data(), sizeof overflow, cudaMemcpyDeviceToHost));
    outcome.traceOverflowed = overflow != 0;
    // Decode on the device and bring back only the canonical trace: one copy of what was
    // recorded instead of every slot followed by a host-side reorder.
    const cuda::SlotLayout layout{plan.launch.gridX * plan.launch.gridY, plan.launch.blockX * plan.launch.blockY,
                                  plan.slotsPerThread};
    auto offsets = DeviceBuffer<unsigned long long>::allocate(std::size_t(layout.blocks) + 1, "trace block offsets");
    if (!offsets) return offsets.error();
    auto count = cuda::countTraceEvents(slotCache_.data(), layout, offsets->data());
    if (!count) return count.error();
    if (auto s = reserve(decodedCache_, *count, "decoded trace"); !s) return s.error();
    if (auto s = cuda::decodeTraceOnGpu(slotCache_.data(), layout, offsets->data(), decodedCache_.data()); !s)
      return s.error();
    slots->resize(*count);  // EventAllocator: no zero fill before the copy overwrites it
    if (auto s = copier_.toHost(slots->data(), decodedCache_.data(), *count * sizeof(Event)); !s) return s.error();
    outcome.slotsDecoded = true;
  }
  return outcome;
}

}  // namespace tilescope
