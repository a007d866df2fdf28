// GPU = emulator: for every kernel and a spread of shapes, the trace the GPU records equals
// the emulator's event for event in canonical order, and the GPU's P verifies exactly when
// the emulator's does. This is the proof behind "the picture is the GPU's".
//
// What may differ, and why the comparison allows it:
//  - barrier events carry the arrival clock (clock64 on the GPU, a logical clock on the
//    emulator): their clock fields are not compared;
//  - the GPU contracts a * b + sum into one FMA, the emulator's host build does not: the
//    stored sums agree within a float tolerance, loads and shared reads exactly;
//  - a read past the end of an allocation is undefined on a GPU (our backend pads with NaN)
//    and a scratch cell on the emulator; so is a shared slot no thread of the block wrote
//    yet, a slot two threads wrote between the same two barriers, and a slot read between
//    the same two barriers in which another thread wrote it (the bug gallery's wrong
//    indexing does all three): such values, and every value computed from them, are not
//    compared;
//  - the race kernels (a barrier removed on purpose) also read slots that another thread
//    overwrites later in the same interval, which the canonical order cannot see: all their
//    shared reads count as undefined, so only the events themselves (which access, where,
//    by whom, in which order) are compared.
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "gpu_support.h"
#include "gpu_test_launches.h"
#include "test_support.h"
#include "trace_comparison.h"

namespace tilescope::testing {
namespace {

bool isRace(KernelId id) { return kernelInfo(id).races; }

bool isMultipleOf(const Dims& d, int t) { return d.j % t == 0 && d.k % t == 0 && d.l % t == 0; }

class GpuEqualsEmulator : public ::testing::TestWithParam<KernelId> {};

TEST_P(GpuEqualsEmulator, TraceEventForEventAndSameVerdict) {
  REQUIRE_CUDA_BACKEND(gpu);
  auto emulator = makeEmulatorBackend();
  const KernelInfo& info = kernelInfo(GetParam());
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  int compared = 0;
  for (const LaunchConfig& config : gpuComparisonShapes(info, seed)) {
    SCOPED_TRACE(describe(config));
    auto plan = planLaunch(config, true);
    if (!plan || !gpu->supports(*plan)) continue;  // a shape this kernel does not take
    auto e = executeRun(*emulator, config, true);
    ASSERT_TRUE(e.ok()) << e.error().message;
    // A barrier some threads never reach hangs or is undefined on a GPU: not launched there.
    if (!e->outcome.divergences.empty()) continue;
    auto g = executeRun(*gpu, config, true);
    ASSERT_TRUE(g.ok()) << g.error().message;
    ASSERT_TRUE(e->trace && g->trace);
    ASSERT_EQ(e->trace->events.size(), g->trace->events.size());
    const Comparison cmp = compareTraces(*e->trace, *g->trace, isRace(config.kernel));
    EXPECT_EQ(cmp.differences, 0) << cmp.first;
    // The kernel's facts say whether it reads only defined values (fig. 5.9 on multiples of T).
    const bool textbook = info.textbook && (!info.needsMultipleOfTile || isMultipleOf(config.dims, config.tile));
    if (textbook) {
      EXPECT_EQ(cmp.undefinedValues, 0) << "a correct kernel has no undefined values to skip";
    }

    // P is defined when no stored sum took in an undefined value and no thread stored
    // outside its element (the unchecked kernel on other sizes wraps into other rows).
    const bool defined =
        cmp.undefinedValues == 0 && (!info.needsMultipleOfTile || isMultipleOf(config.dims, config.tile));
    if (defined) {
      EXPECT_EQ(g->verification.passed, e->verification.passed)
          << "gpu: " << g->verification.summary() << "\nemulator: " << e->verification.summary();
    }
    ++compared;
  }
  EXPECT_GT(compared, 0) << "no shape of " << info.name << " ran on both executors";
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, GpuEqualsEmulator,
                         ::testing::ValuesIn([] {
                           std::vector<KernelId> ids;
                           for (const auto& k : kKernels) ids.push_back(k.id);
                           return ids;
                         }()),
                         [](const ::testing::TestParamInfo<KernelId>& p) {
                           std::string name(kernelInfo(p.param).name);
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// The correct kernels give a verified P on the GPU at sizes past one block, including the
// tile widths the emulator would take too long for.
TEST(GpuResult, CorrectKernelsVerifyAtLargerSizes) {
  REQUIRE_CUDA_BACKEND(gpu);
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const LaunchConfig configs[] = {
      naiveConfig({300, 257, 129}, 32, 8, seed),
      naiveConfig({512, 512, 512}, 64, 16, seed + 1),
      tiledConfig(KernelId::Tiled, {512, 256, 1024}, 32, seed + 2),
      tiledConfig(KernelId::TiledBounds, {333, 517, 129}, 16, seed + 3),
      tiledConfig(KernelId::TiledDynamic, {333, 517, 129}, 24, seed + 4),
      tiledConfig(KernelId::TiledDynamic, {1000, 999, 1001}, 32, seed + 5),
  };
  for (const LaunchConfig& c : configs) {
    SCOPED_TRACE(describe(c));
    auto run = executeRun(*gpu, c, false);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_TRUE(run->verification.passed) << run->verification.summary();
    EXPECT_EQ(run->verification.nonFinite, 0);
  }
}

TEST(GpuBackend, RefusesTileWidthsItWasNotBuiltFor) {
  REQUIRE_CUDA_BACKEND(gpu);
  auto plan = planLaunch(tiledConfig(KernelId::Tiled, {20, 20, 20}, 5, 1), true);
  ASSERT_TRUE(plan.ok());
  auto s = gpu->supports(*plan);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("tile width 5"), std::string::npos) << s.error().message;
}

// A trace larger than one staging chunk (64 MiB) takes the whole fast path: decoded on the
// device, copied through the pinned buffers in several chunks. It must still be the
// emulator's trace, event for event.
TEST(GpuTracePath, TraceOverSeveralStagingChunksEqualsEmulator) {
  REQUIRE_CUDA_BACKEND(gpu);
  const uint64_t seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  LaunchConfig config;
  config.kernel = KernelId::Tiled;
  config.dims = {128, 128, 128};  // 4.7 M events, 144 MiB: three chunks, the last one partial
  config.tile = 16;
  config.seed = seed;
  auto emulator = makeEmulatorBackend();
  auto e = executeRun(*emulator, config, true);
  auto g = executeRun(*gpu, config, true);
  ASSERT_TRUE(e.ok() && g.ok());
  ASSERT_GT(g->trace->events.size() * sizeof(Event), std::size_t(2) * (64 << 20));
  ASSERT_EQ(e->trace->events.size(), g->trace->events.size());
  const Comparison cmp = compareTraces(*e->trace, *g->trace, isRace(config.kernel));
  EXPECT_EQ(cmp.differences, 0) << cmp.first;
  EXPECT_TRUE(g->verification.passed) << g->verification.summary();
}

}  // namespace
}  // namespace tilescope::testing
