// What the device is and what it can do at most: the name shown next to every timing and
// the FP32 ceiling drawn on the plots.
#pragma once
#include <cstddef>
#include <string>

#include "kernels/device_properties.h"
#include "kernels/result.h"

namespace tilescope::cuda {

struct GpuInfo {
  int device = 0;
  std::string name;
  int major = 0, minor = 0;    // compute capability
  int smCount = 0;
  int clockKHz = 0;            // peak SM clock the driver reports (cudaDevAttrClockRate)
  int fp32LanesPerSm = 0;      // FP32 FMA units per SM for this architecture
  std::size_t l2Bytes = 0;
  std::size_t globalBytes = 0;
  DeviceProperties properties;  // the SM limits, for profileFromProperties (occupancy model)

  // SMs x clock x FP32 lanes x 2 (an FMA counts as two operations), in GFLOP/s.
  double fp32PeakGflops() const;
  // "132 SMs x 1980 MHz x 128 FP32 lanes x 2 FLOP/FMA = 66.9 TFLOP/s"
  std::string peakDerivation() const;
};

// Number of devices; Unavailable ("No NVIDIA GPU here: ...") when there is none or the driver
// cannot be reached, so callers fall back to the emulator or to recorded results.
Result<int> deviceCount();

// Properties of `device` (device 0 is the one every tilescope launch uses).
Result<GpuInfo> queryGpu(int device = 0);

// The memory ceiling of a roofline: a 512 MiB device-to-device cudaMemcpy on the current
// device, median of 10 after 2 warm-ups, counting the bytes read plus the bytes written.
// Shared by the timing engine and the backend's device profile, so both draw the same line.
Result<double> measureCopyBandwidth();

// FP32 lanes per SM by compute capability (CUDA C Programming Guide, "Arithmetic
// Instructions" throughput table): 64 on 6.0, 7.x and 8.0; 128 on 6.1/6.2, 8.6, 8.7, 8.9,
// 9.0 and later; 0 when unknown (the ceiling is then not drawn).
int fp32LanesPerSm(int major, int minor);

}  // namespace tilescope::cuda
