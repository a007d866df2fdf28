// The roofline of measured kernels (issue 10, item 4), the chart Nsight Compute draws: a
// kernel's arithmetic intensity on x, counted from a trace of the kernel as it was timed, its
// measured GFLOP/s on y, under a device's memory roof (bandwidth x OP/B) and compute roof
// (FP32 peak). GUI-free: the Roofline panel draws what this computes.
//
// Intensity is the chapter's (traffic.h): FLOPs per byte loaded from global memory, so the
// naive kernel sits at 0.25 OP/B and fig. 5.9 at T/4. The timings are taken at N = 256 and
// up, far beyond what a trace can hold, so the trace is of the same launch (kernel, tile
// width, block shape) on a product of whole block tiles: one block's rows and columns and a
// few of its phases of k. The kernels here load each block's tiles afresh, so that ratio is
// the one of any size made of whole tiles. The bytes come from the trace's loads
// (measureTraffic); the FLOPs are 2 j k l, what the GFLOP/s on y counts too.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "core/run/device_profile.h"
#include "core/analysis/traffic.h"
#include "core/run/launch_config.h"

namespace tilescope {

// Where a measured point sits under the roofs of `device`.
struct RooflinePlacement {
  double intensity = 0.0;  // OP/B
  double gflops = 0.0;     // measured
  double roofGflops = 0.0; // min(peak, bandwidth x intensity): the most the device allows there
  double ridge = 0.0;      // peak / bandwidth: left of it a kernel is memory-bound
  bool memoryBound = true;
  double fractionOfRoof = 0.0;  // gflops / roofGflops
};
RooflinePlacement placeOnRoofline(const DeviceProfile& device, double intensity, double gflops);

// Two or three sentences: which roof is above the point and why, and how far below it the
// point is ("memory-bound: left of the ridge at 22.6 OP/B ... 39 % of the roof").
std::string explainPlacement(const DeviceProfile& device, const RooflinePlacement& p);

// The roofs of a timing report's device: measured copy bandwidth and FP32 peak (timing.h's
// Ceilings), as a profile named `label`.
DeviceProfile profileFromCeilings(const std::string& label, double copyGBps, double fp32PeakGflops,
                                  const std::string& peakDerivation);

struct KernelIntensity {
  double intensity = 0.0;  // OP/B: 2 j k l / bytes loaded
  LaunchConfig traced;     // the launch whose trace was counted
  Traffic traffic;
};
// Traces `timed`'s launch on the emulator on whole block tiles (see above), verifies it and
// counts its loads. An Error when the launch cannot be traced or does not verify.
Result<KernelIntensity> tracedIntensity(const LaunchConfig& timed);

// tracedIntensity, once per launch (kernel, tile, block, pad); safe from several threads.
class IntensityCache {
 public:
  Result<KernelIntensity> get(const LaunchConfig& timed);

 private:
  using Key = std::tuple<int, int, int, int, int>;
  std::mutex mutex_;
  std::map<Key, Result<KernelIntensity>> done_;
};

}  // namespace tilescope
