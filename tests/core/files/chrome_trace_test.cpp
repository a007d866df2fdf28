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


// A ring (rung 9, kernels/ladder/stream_k.cuh) at 64^3, tiling 32x64x8/16x32/4x4, on 3 blocks:
// 16 k-tile iterations, block b takes [16b/3, 16(b+1)/3), so blocks 0, 1, 2 walk 5, 5 and 6 k
// tiles, each a phase of every thread (kernels/trace/step_rules.h's ring rule), all between the
// set-up barrier and the end (barrier interval 1). Per k tile a consumer thread reads Mds 4
// times and Nds 4 times for each of BK / 4 = 2 kq steps (TM = 4 float4s of M, TN / 4 = 1 of N
// per kk): 16 shared reads, 512 a warp; the producer (tx = 128, warp 4) issues 2 copies. So
// interval 1 of each consumer warp is one "k loop" slice per phase with 512 shared reads, and
// warp 4's one "issue tile copies" slice per phase with 2 copies, one after another.
TEST(ChromeExport, ARingsIntervalShowsEachPhase) {
  LaunchConfig c = testing::launchConfig(KernelId::StreamK, {64, 64, 64}, 0, freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  c.persistentBlocks = 3;
  const tilescope::Run run = runEmulated(c, true);
  const Json doc = exportJson(run, ChromeTimebase::Logical);
  const int phasesOf[] = {5, 5, 6};
  std::map<std::pair<int, int>, std::vector<const Json*>> slices;  // (block, warp) -> interval 1's slices
  for (const Json& e : doc.find("traceEvents")->array)
    if (e.find("ph")->string == "X" && e.find("args")->find("interval")->number == 1)
      slices[{int(e.find("pid")->number), int(e.find("tid")->number)}].push_back(&e);
  for (int b = 0; b < 3; ++b)
    for (int w = 0; w < 5; ++w) {
      SCOPED_TRACE("block " + std::to_string(b) + ", warp " + std::to_string(w));
      const auto& mine = slices[{b, w}];
      ASSERT_EQ(int(mine.size()), phasesOf[b]);
      for (int p = 0; p < phasesOf[b]; ++p) {
        const Json& e = *mine[std::size_t(p)];
        EXPECT_EQ(e.find("args")->find("phase")->number, p);
        EXPECT_EQ(e.find("name")->string, "phase " + std::to_string(p) + (w < 4 ? ": k loop" : ": issue tile copies"));
        EXPECT_EQ(e.find("args")->find(w < 4 ? "shared_reads" : "tile_copies")->number, w < 4 ? 512 : 2);
        if (p > 0) {  // one after another, none overlapping
          const Json& before = *mine[std::size_t(p - 1)];
          EXPECT_EQ(before.find("ts")->number + before.find("dur")->number, e.find("ts")->number);
        }
      }
    }
}

}  // namespace
}  // namespace tilescope
