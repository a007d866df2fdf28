// What the trace guarantees, checked on fresh random inputs for many shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "test_support.h"

namespace tilescope {
namespace {

struct TiledCase {
  KernelId kernel;
  Dims dims;
  int tile;
};

std::string caseName(const ::testing::TestParamInfo<TiledCase>& info) {
  std::string name(kernelInfo(info.param.kernel).name);
  for (char& c : name)
    if (c == '-') c = '_';
  const Dims& d = info.param.dims;
  return name + "_T" + std::to_string(info.param.tile) + "_dims_" + std::to_string(d.j) + "x" + std::to_string(d.k) +
         "x" + std::to_string(d.l);
}

class TiledTrace : public ::testing::TestWithParam<TiledCase> {
 protected:
  void SetUp() override {
    run_ = testing::runEmulated(
        testing::tiledConfig(GetParam().kernel, GetParam().dims, GetParam().tile, testing::freshSeed()), true);
    ASSERT_TRUE(run_.trace);
  }
  tilescope::Run run_;
};

TEST_P(TiledTrace, EachThreadLoadsOneMAndOneNElementPerPhase) {
  // (block, thread, phase) -> loads of M, loads of N (zero fills count: they fill the slot).
  std::map<std::tuple<int, int, int, int, int>, std::pair<int, int>> loads;
  for (const Event& e : run_.trace->events) {
    auto key = std::tuple{int(e.blockX), int(e.blockY), int(e.threadX), int(e.threadY), int(e.phase)};
    if (e.op == Op::LoadM) ++loads[key].first;
    if (e.op == Op::LoadN) ++loads[key].second;
  }
  const KernelLaunch& L = run_.plan.launch;
  EXPECT_EQ(loads.size(), std::size_t(L.gridX) * L.gridY * L.blockX * L.blockY * std::size_t(run_.plan.phases));
  for (const auto& [key, count] : loads) {
    EXPECT_EQ(count.first, 1);
    EXPECT_EQ(count.second, 1);
  }
}

TEST_P(TiledTrace, EachSharedSlotIsWrittenOncePerPhasePerBlock) {
  std::map<std::tuple<int, int, int, char, int, int>, int> writes;
  for (const Event& e : run_.trace->events)
    if (e.op == Op::LoadM || e.op == Op::LoadN)
      ++writes[{e.blockX, e.blockY, e.phase, e.op == Op::LoadM ? 'M' : 'N', e.sharedRow, e.sharedCol}];
  const int T = GetParam().tile;
  const KernelLaunch& L = run_.plan.launch;
  EXPECT_EQ(writes.size(), std::size_t(L.gridX) * L.gridY * std::size_t(run_.plan.phases) * 2 * T * T);
  for (const auto& [slot, n] : writes) EXPECT_EQ(n, 1);
}

TEST_P(TiledTrace, EveryBarrierIntervalEndsWithAllThreadsArriving) {
  // In canonical order the events of a block come interval by interval; inside one, every
  // thread appears once, in linear order, and ends with its barrier arrival.
  const KernelLaunch& L = run_.plan.launch;
  const int threads = int(L.blockX * L.blockY);
  const auto& ev = run_.trace->events;
  std::size_t i = 0;
  int blocksSeen = 0;
  while (i < ev.size()) {
    const int bx = ev[i].blockX, by = ev[i].blockY;
    EXPECT_EQ(by * int(L.gridX) + bx, blocksSeen) << "blocks in y-major order";
    int barriers = 0, lastThread = -1;
    for (; i < ev.size() && ev[i].blockX == bx && ev[i].blockY == by; ++i) {
      const int t = linearThread(ev[i], L.blockX);
      EXPECT_GE(t, lastThread) << "threads in linear order inside an interval";
      lastThread = t;
      if (ev[i].op == Op::Barrier) {
        ++barriers;
        if (t == threads - 1) lastThread = -1;  // the interval closes: the next one starts at thread 0
      }
    }
    EXPECT_EQ(barriers, threads * 2 * run_.plan.phases);
    ++blocksSeen;
  }
  EXPECT_EQ(blocksSeen, int(L.gridX * L.gridY));
}

TEST_P(TiledTrace, PassesTheCanonicalOrderCheckThatAShuffledTraceFails) {
  EXPECT_TRUE(checkCanonicalOrder(*run_.trace).ok());
  Trace shuffled = *run_.trace;
  ASSERT_GT(shuffled.events.size(), 3u);
  // The first barrier arrival of the block moved to the front: thread 0's next interval
  // would then begin before the other threads' loads of this one.
  auto firstBarrier = std::find_if(shuffled.events.begin(), shuffled.events.end(),
                                   [](const Event& e) { return e.op == Op::Barrier; });
  ASSERT_NE(firstBarrier, shuffled.events.end());
  std::rotate(shuffled.events.begin(), firstBarrier, firstBarrier + 1);
  EXPECT_FALSE(checkCanonicalOrder(shuffled).ok());
}

TEST_P(TiledTrace, TwoRunsOfTheSameConfigGiveIdenticalTraces) {
  const tilescope::Run again = testing::runEmulated(run_.config, true);
  ASSERT_TRUE(again.trace);
  ASSERT_FALSE(run_.trace->events.empty());
  ASSERT_EQ(again.trace->events.size(), run_.trace->events.size());
  for (std::size_t i = 0; i < run_.trace->events.size(); ++i) {
    const Event &a = run_.trace->events[i], &b = again.trace->events[i];
    EXPECT_EQ(std::memcmp(&a, &b, sizeof(Event)), 0) << "event " << i;
    if (std::memcmp(&a, &b, sizeof(Event)) != 0) break;
  }
}

// Every kernel of these shapes checks its bounds or divides them evenly, so each element of
// M (j x k) is loaded once per block column (ceil(l / T) of them), each of N (k x l) once per
// block row (ceil(j / T)), and each of P stored once.
TEST_P(TiledTrace, LoadedValuesAreTheInputElements) {
  uint64_t mLoads = 0, nLoads = 0, stores = 0;
  for (const Event& e : run_.trace->events) {
    if (e.op == Op::LoadM && !zeroFilled(e) && inBounds(e)) {
      ++mLoads;
      EXPECT_EQ(e.value, run_.m.at(e.globalRow, e.globalCol));
    }
    if (e.op == Op::LoadN && !zeroFilled(e) && inBounds(e)) {
      ++nLoads;
      EXPECT_EQ(e.value, run_.n.at(e.globalRow, e.globalCol));
    }
    if (e.op == Op::StoreP) {
      ++stores;
      EXPECT_EQ(e.value, run_.p.at(e.globalRow, e.globalCol));
    }
  }
  const Dims d = GetParam().dims;
  const int T = GetParam().tile;
  const uint64_t blockColumns = uint64_t((d.l + T - 1) / T), blockRows = uint64_t((d.j + T - 1) / T);
  EXPECT_EQ(mLoads, uint64_t(d.j) * d.k * blockColumns);
  EXPECT_EQ(nLoads, uint64_t(d.k) * d.l * blockRows);
  EXPECT_EQ(stores, uint64_t(d.j) * d.l);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, TiledTrace,
    ::testing::Values(TiledCase{KernelId::Tiled, {4, 4, 4}, 2}, TiledCase{KernelId::Tiled, {32, 16, 48}, 8},
                      TiledCase{KernelId::Tiled, {64, 64, 64}, 16}, TiledCase{KernelId::TiledBounds, {3, 3, 3}, 2},
                      TiledCase{KernelId::TiledBounds, {33, 17, 9}, 4}, TiledCase{KernelId::TiledDynamic, {33, 17, 9}, 5},
                      TiledCase{KernelId::TiledDynamic, {20, 20, 20}, 32}),
    caseName);

// The same launch twice in one process gives the same trace and the same P, bit for bit,
// for every kernel, the races included: each block starts from fresh shared memory, so no
// block or earlier launch leaves values behind (with `__shared__` as thread_local, running
// tiled-no-first-sync 8x8x8 T=4 twice gave different values in 15 of 64 elements).
TEST(Determinism, EveryKernelTwiceInOneProcessGivesTheSameTraceAndResult) {
  int kernels = 0;
  for (const KernelInfo& k : kKernels) {
    SCOPED_TRACE(std::string(k.name));
    const LaunchConfig c = k.tiled ? testing::tiledConfig(k.id, {8, 8, 8}, 4, 11)
                                   : testing::launchConfig(k.id, {8, 8, 8}, 0, 11, 4, 2);
    const tilescope::Run first = testing::runEmulated(c, true), second = testing::runEmulated(c, true);
    ASSERT_TRUE(first.trace && second.trace);
    ASSERT_EQ(first.p.values.size(), second.p.values.size());
    EXPECT_EQ(std::memcmp(first.p.values.data(), second.p.values.data(), first.p.values.size() * sizeof(float)), 0);
    ASSERT_EQ(first.trace->events.size(), second.trace->events.size());
    EXPECT_EQ(std::memcmp(first.trace->events.data(), second.trace->events.data(),
                          first.trace->events.size() * sizeof(Event)),
              0);
    ++kernels;
  }
  EXPECT_EQ(kernels, kKernelCount);
}

class GlobalLoadsShrinkByT : public ::testing::TestWithParam<int> {};

TEST_P(GlobalLoadsShrinkByT, TiledLoadsAreNaiveLoadsDividedByT) {
  const int T = GetParam();
  const Dims dims{64, 64, 64};
  const uint64_t seed = testing::freshSeed();
  const tilescope::Run tiled = testing::runEmulated(testing::tiledConfig(KernelId::Tiled, dims, T, seed), true);
  const tilescope::Run naive = testing::runEmulated(testing::naiveConfig(dims, 16, 16, seed), true);
  auto globalLoads = [](const tilescope::Run& r) {
    long n = 0;
    for (const Event& e : r.trace->events) n += (e.op == Op::LoadM || e.op == Op::LoadN) && !zeroFilled(e);
    return n;
  };
  const long naiveLoads = globalLoads(naive);
  EXPECT_EQ(naiveLoads, 2L * 64 * 64 * 64);  // every thread reads k elements of M and of N
  EXPECT_EQ(globalLoads(tiled) * T, naiveLoads);
}

INSTANTIATE_TEST_SUITE_P(TileWidths, GlobalLoadsShrinkByT, ::testing::Values(1, 2, 4, 8, 16, 32),
                         [](const auto& info) { return "T" + std::to_string(info.param); });

}  // namespace
}  // namespace tilescope
