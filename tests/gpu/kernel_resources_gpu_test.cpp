// What the compiled kernels ask of an SM, from the device, and the occupancy model fed with
// it: for every kernel and every width the GPU build has, the model's blocks per SM on the
// profile built from cudaGetDeviceProperties equal cudaOccupancyMaxActiveBlocksPerMultiprocessor.
// The query goes through the same launchKernel() as the launches (run_on_gpu.h), and the
// resources through the backend, as `tilescope-cli analyze` takes them. Label `gpu`.
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "cli_runner.h"
#include "core/run/occupancy.h"
#include "gpu_support.h"
#include "gpu_test_launches.h"
#include "kernels/cuda/gpu_info.h"
#include "kernels/cuda/run_on_gpu.h"

namespace tilescope::testing {
namespace {

// Every configuration the GPU build may launch (gpu_test_launches.h), each kernel's in turn.
std::vector<LaunchConfig> everyKernelAndWidth() {
  std::vector<LaunchConfig> configs;
  for (const KernelInfo& info : kKernels)
    for (const LaunchConfig& c : resourceTestLaunches(info)) configs.push_back(c);
  return configs;
}

// What a launch asks of an SM, counted by hand in each kernel's file from its declarations
// (Facts::handResources, never from the code under test): its threads, its static __shared__
// arrays, and exactly the dynamic bytes it asks for. ptxas may round the static arrays up to
// 16-byte units: with CUDA 13.0 for sm_90a, T = 1's 8 B of tiles took 16 B and T = 3's 72 B took
// 80 B when every kernel was compiled in one translation unit, and exactly 8 B and 72 B with a
// unit per kernel. Either lies between the declared bytes and those rounded up to 16.
int static16(int bytes) { return (bytes + 15) / 16 * 16; }
void expectStaticShared(int reported, int declared) {
  EXPECT_GE(reported, declared);
  EXPECT_LE(reported, static16(declared));
}

// The GPU build's launches of the list, summed from each kernel's facts.
int gpuBuildLaunches() {
  int n = 0;
  for (const KernelInfo& info : kKernels) n += info.gpuResourceLaunches;
  return n;
}

// The CUDA C Programming Guide's limit on every compute capability since 3.5: at most 255
// 32-bit registers per thread.
constexpr int kMaxRegistersPerThread = 255;

TEST(KernelResourcesGpu, ModelEqualsCudaOccupancyApi_EveryKernelAndWidth) {
  REQUIRE_CUDA_BACKEND(backend);
  auto gpu = cuda::queryGpu(0);
  ASSERT_TRUE(gpu.ok()) << gpu.error().message;
  const DeviceProfile device = profileFromProperties(gpu->properties);
  int compared = 0;
  for (const LaunchConfig& c : everyKernelAndWidth()) {
    auto plan = planLaunch(c, false);
    if (!plan || !backend->supports(*plan)) continue;  // a width the GPU build does not have
    SCOPED_TRACE(describe(c));
    auto attr = gpuKernelAttributes(plan->launch, false);
    ASSERT_TRUE(attr.ok()) << attr.error().message;
    auto resources = backend->compiledResources(*plan);
    ASSERT_TRUE(resources.ok()) << resources.error().message;
    // What the backend hands the model, held to facts that do not come from the backend:
    // the kernels' hand counts, and the guide's register limit (the registers themselves are
    // ptxas's choice; that they are the ones the runtime uses is what the comparison with
    // cudaOccupancyMaxActiveBlocksPerMultiprocessor below shows).
    const HandResources hand = kernelHandResources(plan->launch);
    EXPECT_EQ(resources->threadsPerBlock, hand.threads);
    expectStaticShared(resources->sharedBytesPerBlock - hand.dynamicSharedBytes, hand.staticSharedBytes);
    EXPECT_GE(resources->registersPerThread, 1);
    EXPECT_LE(resources->registersPerThread, kMaxRegistersPerThread);
    EXPECT_EQ(resources->registersSource, "cudaFuncGetAttributes on " + gpu->name);
    const Occupancy o = computeOccupancy(device, *resources);
    EXPECT_EQ(o.blocksPerSm, attr->activeBlocksPerSm)
        << resources->threadsPerBlock << " threads, " << resources->registersPerThread << " registers, "
        << resources->sharedBytesPerBlock << " B shared: limited by " << limiterName(o.limiter);
    EXPECT_GT(o.blocksPerSm, 0);
    ++compared;
  }
  // The GPU build's instantiations, as each kernel's file counts them (108 for the list of
  // 2026-11-26: 7 compile-time tiled kernels at 7 widths, tiled-dynamic at 9, tiled-transposed
  // at 9 with 2 pads, 3 free-block kernels at 5 shapes, 7 rungs at 2 tilings, stream-k at 3).
  EXPECT_EQ(compared, gpuBuildLaunches());
}

// A dot-product kernel's registers: ptxas gave 31-32 for every plain kernel (CUDA 13.0,
// sm_90), the traced ones carry the probe's state as well. Nothing spills in the plain ones but
// where a kernel's facts allow it (rung 11's 192 x 128, its fastest at 8192).
// The compile-time tiles' static shared memory is the two T x T float tiles the model
// assumes without a device, rounded up to 16 bytes: on the H100 (CUDA 13.0) T = 1 declared
// 16 B for 8 B of tiles and T = 3 80 B for 72; the even widths exactly their tiles. The
// occupancy model allocates in 128-byte units, so its answer is the same either way.
TEST(KernelResourcesGpu, RegistersInASaneRange_StaticSharedIsTwoTiles) {
  REQUIRE_CUDA_BACKEND(backend);
  int checked = 0;
  for (const LaunchConfig& c : everyKernelAndWidth()) {
    auto plan = planLaunch(c, false);
    if (!plan || !backend->supports(*plan)) continue;
    SCOPED_TRACE(describe(c));
    ++checked;
    auto plain = gpuKernelAttributes(plan->launch, false);
    auto traced = gpuKernelAttributes(plan->launch, true);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    ASSERT_TRUE(traced.ok()) << traced.error().message;
    const bool ladder = !kernelTilings(c.kernel).empty();
    EXPECT_GE(plain->registersPerThread, 8);
    // The ladder's register tiles are the point: up to 255 (its top rung is tuned to ~220).
    EXPECT_LE(plain->registersPerThread, ladder ? kMaxRegistersPerThread : 64);
    EXPECT_GE(traced->registersPerThread, 8);
    EXPECT_LE(traced->registersPerThread, kMaxRegistersPerThread);
    EXPECT_LE(plain->localBytesPerThread, kernelInfo(c.kernel).plainLocalBytesAllowed);  // 0 but where its facts say
    EXPECT_GE(plain->maxThreadsPerBlock, int(plan->launch.blockX * plan->launch.blockY));
    // The static arrays are what cudaFuncGetAttributes reports as static (perhaps in 16-byte
    // units); the occupancy model without a device takes the bytes as declared.
    const HandResources hand = kernelHandResources(plan->launch);
    expectStaticShared(plain->staticSharedBytes, hand.staticSharedBytes);
    EXPECT_EQ(kernelResources(plan->launch).sharedBytesPerBlock, hand.staticSharedBytes + hand.dynamicSharedBytes);
  }
  EXPECT_EQ(checked, gpuBuildLaunches());  // as above
}

// The device profile: SM limits from the query, ceilings measured (copy bandwidth) and
// derived (SMs x clock x lanes x 2), both positive and named as measured.
TEST(KernelResourcesGpu, DeviceProfileHasMeasuredCeilings) {
  REQUIRE_CUDA_BACKEND(backend);
  auto profile = backend->deviceProfile();
  ASSERT_TRUE(profile.ok()) << profile.error().message;
  EXPECT_EQ(profile->name, "device");
  EXPECT_GE(profile->smCount, 1);
  EXPECT_GT(profile->bandwidthGBs, 0.0);
  EXPECT_GT(profile->peakGflops, 0.0);
  EXPECT_EQ(profile->ceilingsSource.rfind("measured: device-to-device copy ", 0), 0u) << profile->ceilingsSource;
  std::printf("device profile: %s\nceilings: %s\n", profile->label.c_str(), profile->ceilingsSource.c_str());
}

// tilescope-cli analyze on the GPU, as a user runs it: the profile is the device's and the
// registers come from cudaFuncGetAttributes, unless --registers overrides them.
TEST(KernelResourcesGpu, AnalyzeCli_DeviceProfileAndQueriedRegisters) {
  REQUIRE_CUDA_BACKEND(backend);
  const CliResult json = runCli("analyze --backend cuda --kernel tiled --size 64 --tile 16 --json");
  ASSERT_EQ(json.exitCode, 0) << json.all();
  const std::string& out = json.out;
  EXPECT_NE(out.find("\"profile\":\"device\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"registers_source\":\"cudaFuncGetAttributes on " + backend->deviceName() + "\""),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\"source\":\"measured: device-to-device copy"), std::string::npos) << out;
  const CliResult text =
      runCli("analyze --backend cuda --kernel tiled --size 64 --tile 16 --profile textbook --registers 12");
  ASSERT_EQ(text.exitCode, 0) << text.all();
  const std::string& out2 = text.out;
  EXPECT_NE(out2.find("limited by registers"), std::string::npos) << out2;  // the tutorial's cliff, 5 blocks
  EXPECT_NE(out2.find("12 registers/thread (--registers)"), std::string::npos) << out2;
}

}  // namespace
}  // namespace tilescope::testing
