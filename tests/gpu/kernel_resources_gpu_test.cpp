// What the compiled kernels ask of an SM, from the device, and the occupancy model fed with
// it: for every kernel and every width the GPU build has, the model's blocks per SM on the
// profile built from cudaGetDeviceProperties equal cudaOccupancyMaxActiveBlocksPerMultiprocessor.
// The query goes through the same launchKernel() as the launches (run_on_gpu.cu), and the
// resources through the backend, as `tilescope-cli analyze` takes them. Label `gpu`.
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "cli_runner.h"
#include "core/analysis/occupancy.h"
#include "gpu_support.h"
#include "kernels/cuda/gpu_info.h"
#include "kernels/cuda/run_on_gpu.h"

namespace tilescope::testing {
namespace {

// Every configuration the GPU build can launch: compile-time widths of the tiled kernels
// (and 12, 24 for the run-time ones, which take any), a spread of block shapes for the
// kernels that take one.
std::vector<LaunchConfig> everyKernelAndWidth() {
  std::vector<LaunchConfig> configs;
  for (const KernelInfo& info : kKernels) {
    LaunchConfig c;
    c.kernel = info.id;
    c.dims = {64, 64, 64};
    if (!kernelTilings(info.id).empty()) {  // the ladder: every tiling it is built for
      for (const Tiling& t : kernelTilings(info.id)) {
        c.tiling = t;
        configs.push_back(c);
      }
    } else if (info.tiled) {
      for (int t : {1, 2, 3, 4, 8, 12, 16, 24, 32}) {
        c.tile = t;
        if (info.id == KernelId::TiledTransposed) {
          for (int pad : {0, 1}) {
            c.pad = pad;
            configs.push_back(c);
          }
        } else {
          configs.push_back(c);
        }
      }
    } else {
      for (auto [bx, by] : {std::pair{16, 16}, {32, 8}, {64, 4}, {32, 32}, {7, 3}}) {
        c.blockX = bx;
        c.blockY = by;
        configs.push_back(c);
      }
    }
  }
  return configs;
}

// Hand counts of what a launch asks of an SM, from the kernels' declarations, never from the
// code under test: T x T threads for the tiled kernels (bx x by for the others); shared
// memory of two T x T float tiles for the static kernels, which ptxas lays out in 16-byte
// units (on the H100 with CUDA 13.0, T = 1 declared 16 B for its 8 B of tiles and T = 3 80 B
// for 72), and exactly the bytes asked for at launch for the dynamic ones: Mds and Nds of
// T x T for tiled-dynamic, rows of T + pad for tiled-transposed, bh x TK and TK x bw with
// TK = min(bw, bh) for the rectangular kernels, none for naive.
// The ladder's kernels: (bm/tm) x (bn/tn) threads (coarsened's T x T block computes 1 x tn
// each), and the tiles their declarations give: static Mds[bm][bk] and Nds[bk][bn] (regtile),
// Mds[bk][bm+4] and Nds[bk][bn] (vectorized, warptile), twice that, dynamic (double-buffered).
// tma-pipeline: Mds and Nds of every stage (dynamic) after its mbarriers (static).
constexpr int kTmaMbarrierBytes = 2 * 8 * 8;

int handThreads(const LaunchConfig& c) {
  const Tiling& t = c.tiling;
  if (c.kernel == KernelId::Coarsened) return t.bm * t.bm;
  if (c.kernel == KernelId::TmaPipeline || c.kernel == KernelId::StreamK) return (t.bm / t.wm) * (t.bn / t.wn) * 32 + 128;  // + the producer warpgroup
  if (!t.empty()) return (t.bm / t.tm) * (t.bn / t.tn);
  return kernelInfo(c.kernel).tiled ? c.tile * c.tile : c.blockX * c.blockY;
}

int handSharedBytes(const LaunchConfig& c) {
  const int T = c.tile, floatBytes = 4;
  const Tiling& t = c.tiling;
  auto static16 = [](int bytes) { return (bytes + 15) / 16 * 16; };
  switch (c.kernel) {
    case KernelId::Coarsened:
      return static16(2 * t.bm * t.bm * floatBytes);
    case KernelId::RegisterTile1d:
    case KernelId::RegisterTile2d:
      return static16((t.bm * t.bk + t.bk * t.bn) * floatBytes);
    case KernelId::Vectorized:
    case KernelId::WarpTile:
      return static16((t.bk * (t.bm + 4) + t.bk * t.bn) * floatBytes);
    case KernelId::DoubleBuffered:
      return 2 * t.bk * (t.bm + 4 + t.bn) * floatBytes;
    case KernelId::StreamK:      // rung 8's ring and mbarriers
    case KernelId::TmaPipeline:  // two static arrays of 8 mbarriers, then the ring: 4 stages at bm 128, else 3,
                                 // and 1 KiB to start it at a multiple of 1024 bytes (the swizzle's)
      return kTmaMbarrierBytes + (t.bm >= 128 ? 4 : 3) * (t.bm * t.bk + t.bk * t.bn) * floatBytes + 1024;
    case KernelId::Naive:
      return 0;
    case KernelId::TiledDynamic:
      return 2 * T * T * floatBytes;
    case KernelId::TiledTransposed:
      return 2 * T * (T + c.pad) * floatBytes;
    case KernelId::TiledRect:
    case KernelId::BugRectIndex: {
      const int tk = std::min(c.blockX, c.blockY);
      return (c.blockY * tk + tk * c.blockX) * floatBytes;
    }
    case KernelId::Tiled:
    case KernelId::TiledBounds:
    case KernelId::TiledNoFirstSync:
    case KernelId::TiledNoSecondSync:
    case KernelId::BugKTypo:
    case KernelId::BugSyncInK:
    case KernelId::BugSquareGrid:
      return static16(2 * T * T * floatBytes);  // the static Mds[T][T] and Nds[T][T]
    default:
      break;
  }
  // A kernel added to the list needs its own count from its declarations: none is assumed.
  ADD_FAILURE() << "no hand count of the shared memory of " << kernelInfo(c.kernel).name
                << ": add one to handSharedBytes from its declarations";
  return -1;
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
    // the hand counts above, and the guide's register limit (the registers themselves are
    // ptxas's choice; that they are the ones the runtime uses is what the comparison with
    // cudaOccupancyMaxActiveBlocksPerMultiprocessor below shows).
    EXPECT_EQ(resources->threadsPerBlock, handThreads(c));
    EXPECT_EQ(resources->sharedBytesPerBlock, handSharedBytes(c));
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
  // The GPU build's instantiations: 7 compile-time tiled kernels at the 7 widths it has of the
  // 9 listed (1, 2, 3, 4, 8, 16, 32), tiled-dynamic at all 9, tiled-transposed at all 9 with
  // 2 pads, and naive, tiled-rect and bug-rect-index with 5 block shapes each: 49 + 9 + 18 + 15;
  // the ladder's first seven kernels at their two built tilings each: 14; stream-k at its three
  // (the H100's 128x256, 128x128 for shapes under a wave, the 32x64 teaching tiling): 3.
  EXPECT_EQ(compared, 108);
}

// A dot-product kernel's registers: ptxas gave 31-32 for every plain kernel (CUDA 13.0,
// sm_90), the traced ones carry the probe's state as well. Nothing spills in the plain ones.
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
    EXPECT_EQ(plain->localBytesPerThread, 0);
    EXPECT_GE(plain->maxThreadsPerBlock, int(plan->launch.blockX * plan->launch.blockY));
    if (ladder) {
      const bool tma = c.kernel == KernelId::TmaPipeline || c.kernel == KernelId::StreamK;
      const bool dynamic = c.kernel == KernelId::DoubleBuffered || tma;
      const int staticBytes = tma ? kTmaMbarrierBytes : 0;
      EXPECT_EQ(plain->staticSharedBytes, dynamic ? staticBytes : handSharedBytes(c));
      EXPECT_EQ(kernelResources(plan->launch).sharedBytesPerBlock,
                dynamic ? handSharedBytes(c) : kernelSharedTiles(plan->launch).bytes);
    } else if (kernelInfo(c.kernel).tileIsCompileTime) {
      const int tiles = 2 * c.tile * c.tile * 4;
      EXPECT_EQ(kernelResources(plan->launch).sharedBytesPerBlock, tiles);
      EXPECT_EQ(plain->staticSharedBytes, handSharedBytes(c));
    } else {
      EXPECT_EQ(plain->staticSharedBytes, 0);  // extern __shared__ only
    }
  }
  EXPECT_EQ(checked, 108);  // as above
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
