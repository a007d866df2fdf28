#include "traffic.h"

#include <algorithm>

#include "kernels/step_rules.h"
#include "memory_layout.h"

namespace tilescope {

// Multiply-adds are counted from the k steps: in one step a thread multiplies every M value
// it read by every N value it read (1 x 1 for the chapter's kernels, TM x TN for a register
// tile's outer product). Loads count their bytes once: at the global read, not again at a
// staged write into shared memory.
Traffic measureTraffic(const Trace& trace, const CoalescingReport& coalescing) {
  Traffic t;
  uint64_t multiplyAdds = 0;
  uint64_t mValues = 0, nValues = 0;
  const Event* step = nullptr;  // the first compute read of the current step
  auto closeStep = [&] {
    multiplyAdds += mValues * nValues;
    mValues = nValues = 0;
    step = nullptr;
  };
  for (const Event& e : trace.events) {
    const uint64_t width = uint64_t(eventWidth(e.flags));
    if ((e.op == Op::LoadM || e.op == Op::LoadN) && !zeroFilled(e) && !(e.flags & kStagedWrite))
      t.loadBytes += kElementBytes * width;
    if (e.op == Op::StoreP) t.storeBytes += kElementBytes * width;
    if (!isComputeRead(e) || e.k < 0) continue;
    if (step && (step->blockX != e.blockX || step->blockY != e.blockY || step->threadX != e.threadX ||
                 step->threadY != e.threadY || step->phase != e.phase || step->k != e.k))
      closeStep();
    if (!step) step = &e;
    ((e.op == Op::ReadN || e.op == Op::LoadN) ? nValues : mValues) += width;
  }
  closeStep();
  t.flops = 2 * multiplyAdds;
  t.sectorBytes = (coalescing.loads.sectors + coalescing.stores.sectors) * kSectorBytes;
  return t;
}

double ridgeIntensity(const DeviceProfile& d) { return d.peakGflops / d.bandwidthGBs; }

RooflinePoint rooflinePoint(const DeviceProfile& d, std::string label, double intensity) {
  RooflinePoint p;
  p.label = std::move(label);
  p.intensity = intensity;
  p.attainableGflops = std::min(d.peakGflops, d.bandwidthGBs * intensity);
  p.memoryBound = intensity < ridgeIntensity(d);
  return p;
}

}  // namespace tilescope
