#include "core/run/device_profile.h"

#include <cstdio>
#include <vector>

namespace tilescope {

namespace {
// The built-in profiles, one row each, every field named.
std::vector<DeviceProfile> makeProfiles() {
  return {
      {.name = "textbook",
       .label = "the tutorial's SM: 1536 thread slots, 8 block slots, 16384 registers (reference 004)",
       .smCount = 1, .maxThreadsPerSm = 1536, .maxBlocksPerSm = 8,
       .registersPerSm = 16384, .registersPerBlock = 16384, .maxRegistersPerThread = 63,
       .registerAllocationUnit = 0,  // the tutorial multiplies registers by threads, nothing rounded
       .registerPartitions = 1,
       .sharedPerSm = 48 * 1024,  // not given by the tutorial: the 48 KB of its generation (assumed)
       .sharedPerBlock = 48 * 1024, .sharedAllocationUnit = 1, .reservedSharedPerBlock = 0,
       .bandwidthGBs = 1555.0, .peakGflops = 19500.0,  // no ceilings of its own: the chapter's A100 figures
       .ceilingsSource = "no device: the chapter's A100 figures"},
      {.name = "a100",
       .label = "NVIDIA A100 (sm_80): 108 SMs, 2048 threads and 32 blocks per SM, 64K registers, 164 KB shared",
       .smCount = 108, .maxThreadsPerSm = 2048, .maxBlocksPerSm = 32,
       .registersPerSm = 65536, .registersPerBlock = 65536, .maxRegistersPerThread = 255,
       .registerAllocationUnit = 256, .registerPartitions = 4,
       .sharedPerSm = 164 * 1024, .sharedPerBlock = 163 * 1024, .sharedAllocationUnit = 128, .reservedSharedPerBlock = 1024,
       .bandwidthGBs = 1555.0, .peakGflops = 19500.0,
       .ceilingsSource = "the chapter (PMPP 4th ed. 5.2): 1555 GB/s, 19,500 GFLOPS FP32"},
      {.name = "h100",
       .label = "NVIDIA H100 SXM5 (sm_90): 132 SMs, 2048 threads and 32 blocks per SM, 64K registers, 228 KB shared",
       .smCount = 132, .maxThreadsPerSm = 2048, .maxBlocksPerSm = 32,
       .registersPerSm = 65536, .registersPerBlock = 65536, .maxRegistersPerThread = 255,
       .registerAllocationUnit = 256, .registerPartitions = 4,
       .sharedPerSm = 228 * 1024, .sharedPerBlock = 227 * 1024, .sharedAllocationUnit = 128, .reservedSharedPerBlock = 1024,
       .bandwidthGBs = 3350.0, .peakGflops = 67000.0,
       .ceilingsSource = "NVIDIA H100 datasheet, SXM5 column: 3.35 TB/s HBM3, 67 TFLOPS FP32 (not measured)"},
  };
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
