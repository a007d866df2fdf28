// The decode in the slots' own storage (one core, a page) against the decode into a second
// buffer (every core): the same trace, event for event, for every correct kernel at shapes that
// are multiples of no tile (threads that record fewer events than their slots) and for the bug
// kernels (a block abandoned at a divergent barrier, reads of stale slots).
#include <gtest/gtest.h>

#include <cstring>

#include "correct_kernel_shapes.h"
#include "core/run/trace_decode.h"
#include "test_support.h"

namespace tilescope {
namespace {

class DecodeInPlace : public ::testing::TestWithParam<testing::KernelShape> {};

TEST_P(DecodeInPlace, GivesTheTraceTheSecondBufferGives) {
  LaunchConfig config = GetParam().config;
  config.seed = testing::freshSeed();
  auto plan = planLaunch(config, true);
  ASSERT_TRUE(plan) << plan.error().message;
  auto backend = makeEmulatorBackend();
  Matrix m = inputM(config), n = inputN(config), p(config.dims.j, config.dims.l);
  poison(p);
  EventVector slots;
  auto outcome = backend->launch(*plan, m, n, p, &slots);
  ASSERT_TRUE(outcome) << outcome.error().message;
  ASSERT_FALSE(outcome->slotsDecoded);
  auto apart = decodeTrace(*plan, slots, outcome->traceOverflowed);
  ASSERT_TRUE(apart) << apart.error().message;
  const Event* storage = slots.data();
  auto inPlace = decodeTraceInPlace(*plan, std::move(slots), outcome->traceOverflowed);
  ASSERT_TRUE(inPlace) << inPlace.error().message;
  EXPECT_EQ(inPlace->events.data(), storage) << "decoded in the slots' storage, not a copy";
  ASSERT_EQ(inPlace->events.size(), apart->events.size());
  EXPECT_GT(inPlace->events.size(), 0u);
  EXPECT_EQ(std::memcmp(inPlace->events.data(), apart->events.data(), apart->events.size() * sizeof(Event)), 0);
  EXPECT_EQ(inPlace->phases, apart->phases);
  EXPECT_TRUE(checkCanonicalOrder(*inPlace));
}

std::vector<testing::KernelShape> shapes() {
  std::vector<testing::KernelShape> all = testing::correctKernelShapes(false);
  for (KernelId bug : {KernelId::TiledNoFirstSync, KernelId::BugSyncInK, KernelId::BugKTypo}) {
    const LaunchConfig c = testing::launchConfig(bug, Dims{12, 12, 12}, 4, 1);
    all.push_back({c, testing::shapeLabel(c)});
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, DecodeInPlace, ::testing::ValuesIn(shapes()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace tilescope
