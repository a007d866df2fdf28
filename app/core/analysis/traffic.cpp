#include "traffic.h"

#include <algorithm>

#include "core/trace/memory_layout.h"

namespace tilescope {

// Multiply-adds are counted from the k steps: in one step a thread multiplies every M value
// it read by every N value it read (1 x 1 for the chapter's kernels, TM x TN for a register
// tile's outer product; rung 8's float4 of M holds four k steps of a row, counted once per k).
// Loads count their bytes once: at the global read (a tensor-map copy's at the copy), not again at a
// staged write into shared memory.

Traffic measureTraffic(const Trace& trace, const CoalescingReport& coalescing) {
  Traffic t;
  uint64_t multiplyAdds = 0;
  KStepProducts products(wideReadOfMSpansK(trace.launch));
  for (const Event& e : trace.events) {
    const uint64_t width = uint64_t(eventWidth(e.flags));
    if (readsGlobal(e)) t.loadBytes += kElementBytes * width;
    if (e.op == Op::CopyM || e.op == Op::CopyN) t.loadBytes += copiedBytes(e, trace.launch);
    if (e.op == Op::StoreP) t.storeBytes += kElementBytes * width;
    multiplyAdds += products.add(e);
  }
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
