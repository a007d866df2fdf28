#include "device_profile.h"

#include <cstdio>
#include <vector>

namespace tilescope {

namespace {
std::vector<DeviceProfile> makeProfiles() {
  std::vector<DeviceProfile> p;

  DeviceProfile t;
  t.name = "textbook";
  t.label = "the tutorial's SM: 1536 thread slots, 8 block slots, 16384 registers (reference 004)";
  t.smCount = 1;
  t.maxThreadsPerSm = 1536;
  t.maxBlocksPerSm = 8;
  t.registersPerSm = 16384;
  t.registersPerBlock = 16384;
  t.maxRegistersPerThread = 63;
  t.registerAllocationUnit = 0;  // the tutorial multiplies registers by threads, nothing rounded
  t.registerPartitions = 1;
  t.sharedPerSm = 48 * 1024;     // not given by the tutorial: the 48 KB of its generation (assumed)
  t.sharedPerBlock = 48 * 1024;
  t.sharedAllocationUnit = 1;
  t.reservedSharedPerBlock = 0;
  t.bandwidthGBs = 1555.0;  // no ceilings of its own: the chapter's A100 figures
  t.peakGflops = 19500.0;
  t.ceilingsSource = "no device: the chapter's A100 figures";
  p.push_back(t);

  DeviceProfile a;
  a.name = "a100";
  a.label = "NVIDIA A100 (sm_80): 108 SMs, 2048 threads and 32 blocks per SM, 64K registers, 164 KB shared";
  a.smCount = 108;
  a.maxThreadsPerSm = 2048;
  a.maxBlocksPerSm = 32;
  a.registersPerSm = 65536;
  a.registersPerBlock = 65536;
  a.maxRegistersPerThread = 255;
  a.registerAllocationUnit = 256;
  a.registerPartitions = 4;
  a.sharedPerSm = 164 * 1024;
  a.sharedPerBlock = 163 * 1024;
  a.sharedAllocationUnit = 128;
  a.reservedSharedPerBlock = 1024;
  a.bandwidthGBs = 1555.0;
  a.peakGflops = 19500.0;
  a.ceilingsSource = "the chapter (PMPP 4th ed. 5.2): 1555 GB/s, 19,500 GFLOPS FP32";
  p.push_back(a);

  DeviceProfile h;
  h.name = "h100";
  h.label = "NVIDIA H100 SXM5 (sm_90): 132 SMs, 2048 threads and 32 blocks per SM, 64K registers, 228 KB shared";
  h.smCount = 132;
  h.maxThreadsPerSm = 2048;
  h.maxBlocksPerSm = 32;
  h.registersPerSm = 65536;
  h.registersPerBlock = 65536;
  h.maxRegistersPerThread = 255;
  h.registerAllocationUnit = 256;
  h.registerPartitions = 4;
  h.sharedPerSm = 228 * 1024;
  h.sharedPerBlock = 227 * 1024;
  h.sharedAllocationUnit = 128;
  h.reservedSharedPerBlock = 1024;
  h.bandwidthGBs = 3350.0;
  h.peakGflops = 67000.0;
  h.ceilingsSource = "NVIDIA H100 datasheet, SXM5 column: 3.35 TB/s HBM3, 67 TFLOPS FP32 (not measured)";
  p.push_back(h);
  return p;
}
}  // namespace

DeviceProfile profileFromProperties(const DeviceProperties& p) {
  DeviceProfile d;
  d.name = std::string(kDeviceProfileName);
  char label[256];
  std::snprintf(label, sizeof label,
                "%s (sm_%d%d, cudaGetDeviceProperties): %d SMs, %d threads and %d blocks per SM, %d registers, "
                "%zu KB shared",
                p.name.c_str(), p.major, p.minor, p.multiProcessorCount, p.maxThreadsPerMultiProcessor,
                p.maxBlocksPerMultiProcessor, p.regsPerMultiprocessor, p.sharedMemPerMultiprocessor / 1024);
  d.label = label;
  d.smCount = p.multiProcessorCount;
  d.maxThreadsPerSm = p.maxThreadsPerMultiProcessor;
  d.maxBlocksPerSm = p.maxBlocksPerMultiProcessor;
  d.maxThreadsPerBlock = p.maxThreadsPerBlock;
  d.registersPerSm = p.regsPerMultiprocessor;
  d.registersPerBlock = p.regsPerBlock;
  // ptxas gives a thread at most 255 registers on every architecture since Kepler.
  d.maxRegistersPerThread = 255;
  d.registerAllocationUnit = 256;
  d.registerPartitions = p.major == 6 && p.minor == 0 ? 2 : 4;
  d.sharedPerSm = int(p.sharedMemPerMultiprocessor);
  d.sharedPerBlock = int(p.sharedMemPerBlockOptin);
  d.sharedAllocationUnit = p.major >= 8 ? 128 : 256;
  d.reservedSharedPerBlock = int(p.reservedSharedMemPerBlock);
  d.ceilingsSource = "not measured";
  return d;
}

DeviceProfile withMeasuredCeilings(DeviceProfile profile, double copyGBs, double peakGflops,
                                   const std::string& peakDerivation) {
  profile.bandwidthGBs = copyGBs;
  profile.peakGflops = peakGflops;
  char source[320];
  std::snprintf(source, sizeof source, "measured: device-to-device copy %.0f GB/s; FP32 peak %s", copyGBs,
                peakDerivation.c_str());
  profile.ceilingsSource = source;
  return profile;
}

std::span<const DeviceProfile> builtinProfiles() {
  static const std::vector<DeviceProfile> profiles = makeProfiles();
  return profiles;
}

std::string profileNames() {
  std::string names;
  for (const auto& p : builtinProfiles()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

Result<DeviceProfile> profileByName(std::string_view name) {
  for (const auto& p : builtinProfiles())
    if (p.name == name) return p;
  return invalidInput("unknown profile '" + std::string(name) + "': the profiles are " + profileNames());
}

}  // namespace tilescope
