// The Chrome trace-event export: valid JSON in the shape Perfetto reads, one process per
// block and one track per warp, one instant per barrier a warp passes, and slices whose
// args add up to the trace's own counts.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "core/files/chrome_trace.h"
#include "json_check.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::Json;
using testing::JsonParser;
using testing::runEmulated;

Json exportJson(const tilescope::Run& run, ChromeTimebase timebase) {
  std::ostringstream out;
  writeChromeTrace(out, run, timebase);
  Json doc;
  EXPECT_TRUE(JsonParser(out.str()).parse(doc)) << "not valid JSON";
  return doc;
}

struct Shape {
  KernelId kernel;
  Dims dims;
  int tile, blockX, blockY;
};

class ChromeExport : public ::testing::TestWithParam<Shape> {};

TEST_P(ChromeExport, OneTrackPerWarpAndOneInstantPerBarrierPassed) {
  const Shape s = GetParam();
  LaunchConfig c;
  c.kernel = s.kernel;
  c.dims = s.dims;
  c.tile = s.tile;
  c.blockX = s.blockX;
  c.blockY = s.blockY;
  c.seed = freshSeed();
  SCOPED_TRACE(describe(c));
  const tilescope::Run run = runEmulated(c, true);
  ASSERT_EQ(defaultChromeTimebase(run), ChromeTimebase::Logical);
  const Json doc = exportJson(run, ChromeTimebase::Logical);
  ASSERT_EQ(doc.kind, Json::Object);
  ASSERT_NE(doc.find("traceEvents"), nullptr);
  EXPECT_EQ(doc.find("otherData")->find("timebase")->string, "logical");

  const KernelLaunch& L = run.plan.launch;
  const int blocks = int(L.gridX * L.gridY), threads = int(L.blockX * L.blockY), warps = (threads + 31) / 32;
  uint64_t expectedLoads = 0, expectedBarriers = 0;
  std::map<std::pair<int, int>, int> barriersOfWarp;  // (block, warp) -> barriers of each thread
  for (const Event& e : run.trace->events) {
    if ((e.op == Op::LoadM || e.op == Op::LoadN) && !zeroFilled(e)) ++expectedLoads;
    if (e.op == Op::Barrier && linearThread(e, L.blockX) % 32 == 0) ++expectedBarriers;  // one per warp
  }

  uint64_t loads = 0, instants = 0, processes = 0;
  std::map<std::pair<int, int>, double> trackEnd;  // slices on one track never overlap
  for (const Json& e : doc.find("traceEvents")->array) {
    const std::string& ph = e.find("ph")->string;
    const int pid = int(e.find("pid")->number);
    EXPECT_GE(pid, 0);
    EXPECT_LT(pid, blocks);
    if (ph == "M") {
      if (e.find("name")->string == "process_name") ++processes;
      continue;
    }
    const int tid = int(e.find("tid")->number);
    EXPECT_GE(tid, 0);
    EXPECT_LT(tid, warps);
    if (ph == "X") {
      const double ts = e.find("ts")->number, dur = e.find("dur")->number;
      EXPECT_GE(dur, 1.0);
      auto& end = trackEnd[{pid, tid}];
      EXPECT_GE(ts, end) << "slices of one warp overlap";
      end = ts + dur;
      loads += uint64_t(e.find("args")->find("global_loads")->number);
    } else if (ph == "i") {
      EXPECT_EQ(e.find("s")->string, "t");
      EXPECT_EQ(e.find("cat")->string, "barrier");
      ++instants;
    } else {
      ADD_FAILURE() << "unexpected phase type " << ph;
    }
  }
  EXPECT_EQ(processes, uint64_t(blocks));
  EXPECT_EQ(loads, expectedLoads);
  EXPECT_EQ(instants, expectedBarriers);
}

INSTANTIATE_TEST_SUITE_P(Kernels, ChromeExport,
                         ::testing::Values(Shape{KernelId::Tiled, {8, 8, 8}, 4, 0, 0},
                                           Shape{KernelId::TiledBounds, {9, 13, 7}, 8, 0, 0},  // 64 threads: 2 warps
                                           Shape{KernelId::TiledRect, {6, 6, 70}, 0, 64, 2},  // 128 threads: 4 warps
                                           Shape{KernelId::Naive, {5, 3, 4}, 0, 4, 2}));      // no barriers

// A GPU trace carries clock64() at each barrier: the export then uses those clocks,
// relative to the block's first arrival. Simulated here by writing clocks into the events.
TEST(ChromeExport, GpuTracesUseTheBarrierClocks) {
  LaunchConfig c;
  c.kernel = KernelId::Tiled;
  c.dims = {4, 4, 4};
  c.tile = 2;
  c.seed = freshSeed();
  tilescope::Run run = runEmulated(c, true);
  run.backend = "cuda";
  uint64_t clock = 5000;
  std::map<int, uint64_t> firstClockOfBlock;
  for (Event& e : run.trace->events)
    if (e.op == Op::Barrier) {
      clock += 7;
      e.globalRow = int32_t(clock >> 32);
      e.globalCol = int32_t(uint32_t(clock));
      firstClockOfBlock.emplace(e.blockY * 2 + e.blockX, clock);
    }
  ASSERT_EQ(defaultChromeTimebase(run), ChromeTimebase::GpuClock);
  const Json doc = exportJson(run, ChromeTimebase::GpuClock);
  EXPECT_EQ(doc.find("otherData")->find("timebase")->string, "gpu-clock");
  std::map<int, double> earliestInstant;
  for (const Json& e : doc.find("traceEvents")->array)
    if (e.find("ph")->string == "i") {
      const int pid = int(e.find("pid")->number);
      auto [it, fresh] = earliestInstant.emplace(pid, e.find("ts")->number);
      if (!fresh) it->second = std::min(it->second, e.find("ts")->number);
    }
  ASSERT_EQ(earliestInstant.size(), 4u);
  // A warp's instant is its LAST thread's arrival; block (0,0) has one warp of 4 threads,
  // so its first instant is 3 arrivals (21 cycles) after the block's first arrival.
  for (const auto& [pid, ts] : earliestInstant) EXPECT_EQ(ts, 21.0) << "block " << pid;
}

}  // namespace
}  // namespace tilescope
