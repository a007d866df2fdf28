// Global traffic and arithmetic intensity, counted from the trace (ch. 5.1-5.4).
//
// FLOPs: the dot product does one multiply and one add per (M element, N element) pair.
// In the tiled kernels a pair is one k-loop step, a (readM, readN) pair of events; in
// naive it is one k step, a (loadM, loadN) pair. Each pair is 2 FLOPs.
// Bytes: 4 per global load of M or N (zero fills load nothing) and 4 per store of P.
// Intensity follows the chapter's definition, FLOPs per byte LOADED from global memory:
// naive does 2 FLOPs per 8 loaded bytes = 0.25 OP/B; tiled loads each element once per
// T threads that use it, T/4 OP/B (4 OP/B at T = 16). global_bytes adds the stores, which
// the chapter leaves out (they are j*l*4 bytes against 2*j*k*l*4 / T of loads).
// sectorIntensity divides by the bytes of the 32-byte sectors fetched instead, what the
// memory system moves when accesses are not fully coalesced.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coalescing.h"
#include "core/run/device_profile.h"

namespace tilescope {

struct Traffic {
  uint64_t flops = 0;
  uint64_t loadBytes = 0, storeBytes = 0;
  uint64_t sectorBytes = 0;  // loads and stores, whole sectors
  uint64_t globalBytes() const { return loadBytes + storeBytes; }
  double intensity() const { return loadBytes ? double(flops) / double(loadBytes) : 0.0; }
  double sectorIntensity() const { return sectorBytes ? double(flops) / double(sectorBytes) : 0.0; }
};


// `coalescing` supplies the sector counts; the rest is counted from the events.
Traffic measureTraffic(const Trace& trace, const CoalescingReport& coalescing);

// The roofline (ch. 5.1): attainable GFLOPS = min(peak, bandwidth x intensity).
struct RooflinePoint {
  std::string label;
  double intensity = 0.0;   // OP/B
  double attainableGflops = 0.0;
  bool memoryBound = true;  // left of the ridge point
};
double ridgeIntensity(const DeviceProfile& device);  // peak / bandwidth, OP/B
RooflinePoint rooflinePoint(const DeviceProfile& device, std::string label, double intensity);

}  // namespace tilescope
