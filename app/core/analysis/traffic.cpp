#include "traffic.h"

#include <algorithm>

#include "memory_layout.h"

namespace tilescope {

Traffic measureTraffic(const Trace& trace, const CoalescingReport& coalescing) {
  Traffic t;
  const bool readsShared = sharedLayout(trace.launch).bytes > 0;
  uint64_t pairs = 0;
  for (const Event& e : trace.events) {
    switch (e.op) {
      case Op::LoadM:
        if (!zeroFilled(e)) t.loadBytes += kElementBytes;
        if (!readsShared) ++pairs;  // naive: each k step loads its M element directly
        break;
      case Op::LoadN:
        if (!zeroFilled(e)) t.loadBytes += kElementBytes;
        break;
      case Op::ReadM:
        ++pairs;  // tiled: each k-loop step reads one M and one N element
        break;
      case Op::StoreP:
        t.storeBytes += kElementBytes;
        break;
      default:
        break;
    }
  }
  t.flops = 2 * pairs;
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
