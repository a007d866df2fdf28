// Coalescing: warp-level requests, 32-byte sectors and 128-byte lines, counted by hand
// for the lecture's block shapes and the tiled kernels (matrix bases 256-byte aligned).
#include <gtest/gtest.h>

#include "analysis_support.h"
#include "core/analysis/coalescing.h"

namespace tilescope {
namespace {

using analysis_testing::config;
using analysis_testing::traced;

WarpRequest lanesAt(std::initializer_list<uint64_t> addresses) {
  WarpRequest r;
  uint8_t lane = 0;
  for (uint64_t a : addresses) r.lanes.push_back({lane++, 0, a});
  return r;
}

TEST(Coalescing, OneRequest_MisalignedRowOf32Floats_Spans5SectorsAnd2Lines) {
  WarpRequest r;
  for (uint8_t i = 0; i < 32; ++i) r.lanes.push_back({i, 0, 1024 + 16 + 4u * i});  // bytes 16..143 of a line pair
  const GlobalRequest g = measureGlobalRequest(r);
  EXPECT_EQ(g.sectors, 5);
  EXPECT_EQ(g.lines, 2);
  EXPECT_EQ(g.bytesUsed, 128);
}

TEST(Coalescing, OneRequest_WholeWarpOnOneWord_IsOneSectorAtOneEighthEfficiency) {
  WarpRequest r;
  for (uint8_t i = 0; i < 32; ++i) r.lanes.push_back({i, 0, 4096});
  const GlobalRequest g = measureGlobalRequest(r);
  EXPECT_EQ(g.sectors, 1);
  EXPECT_EQ(g.lines, 1);
  EXPECT_EQ(g.bytesUsed, 4);  // 4 of the sector's 32 bytes: 12.5%
}

TEST(Coalescing, OneRequest_StrideOf32Bytes_IsOneSectorPerLane) {
  const GlobalRequest g = measureGlobalRequest(lanesAt({0, 32, 64, 96, 128, 160, 192, 224}));
  EXPECT_EQ(g.sectors, 8);
  EXPECT_EQ(g.lines, 2);
  EXPECT_EQ(g.bytesUsed, 32);
}

// Lecture 18's best shape: a warp is one row of 32 threads. Its M read is one word for the
// whole warp (1 sector), its N read 32 consecutive floats (4 sectors, one 128-byte line).
TEST(Coalescing, Naive_Block32x8_dims_64x64x64) {
  const tilescope::Run run = traced(config(KernelId::Naive, {64, 64, 64}, 0, 32, 8));
  const CoalescingReport c = analyzeCoalescing(*run.trace);
  // 4096 threads = 128 warps; each does 64 k steps of one M and one N load.
  EXPECT_EQ(c.loadsM.requests, 128u * 64);
  EXPECT_EQ(c.loadsM.sectors, 128u * 64 * 1);
  EXPECT_EQ(c.loadsN.requests, 128u * 64);
  EXPECT_EQ(c.loadsN.sectors, 128u * 64 * 4);
  EXPECT_EQ(c.loads.requests, 16384u);
  EXPECT_EQ(c.loads.sectors, 40960u);
  EXPECT_EQ(c.loads.lines, 16384u);
  // (8192 x 4 + 8192 x 128 bytes used) / (40960 x 32 bytes fetched)
  EXPECT_DOUBLE_EQ(c.loads.efficiency(), (8192.0 * 4 + 8192.0 * 128) / (40960.0 * 32));
  EXPECT_EQ(c.stores.requests, 128u);
  EXPECT_EQ(c.stores.sectors, 512u);
  EXPECT_DOUBLE_EQ(c.stores.efficiency(), 1.0);
}

// (16, 16): a warp is two half rows. M: two words 256 bytes apart (2 sectors, 2 lines);
// N: the same 16 floats for both halves (64 bytes: 2 sectors, half a line, as the lecture says).
TEST(Coalescing, Naive_Block16x16_dims_64x64x64) {
  const tilescope::Run run = traced(config(KernelId::Naive, {64, 64, 64}, 0, 16, 16));
  const CoalescingReport c = analyzeCoalescing(*run.trace);
  EXPECT_EQ(c.loadsM.requests, 8192u);
  EXPECT_EQ(c.loadsM.sectors, 8192u * 2);
  EXPECT_EQ(c.loadsM.lines, 8192u * 2);
  EXPECT_EQ(c.loadsN.sectors, 8192u * 2);
  EXPECT_EQ(c.loadsN.lines, 8192u * 1);
  EXPECT_DOUBLE_EQ(c.loadsN.efficiency(), 1.0);
  EXPECT_DOUBLE_EQ(c.loadsM.efficiency(), 8.0 / 64.0);
  EXPECT_EQ(c.stores.requests, 128u);
  EXPECT_EQ(c.stores.sectors, 128u * 4);
}

// An odd shape and size, every address worked out by hand: block 7x3 = 21 threads, one
// partial warp; M is 3x2 (rows 8 bytes apart), N is 2x7, P is 3x7.
TEST(Coalescing, Naive_Block7x3_dims_3x2x7_PartialWarp) {
  const tilescope::Run run = traced(config(KernelId::Naive, {3, 2, 7}, 0, 7, 3));
  const CoalescingReport c = analyzeCoalescing(*run.trace);
  // k = 0: M bytes {0,8,16}, N bytes 0..27   -> 1 + 1 sectors
  // k = 1: M bytes {4,12,20}, N bytes 28..55 -> 1 + 2 sectors
  EXPECT_EQ(c.loads.requests, 4u);
  EXPECT_EQ(c.loadsM.sectors, 2u);
  EXPECT_EQ(c.loadsN.sectors, 3u);
  EXPECT_EQ(c.loads.bytesUsed, (3u + 7u) * 4 * 2);
  // P bytes 0..83: sectors 0, 1, 2 of one line.
  EXPECT_EQ(c.stores.requests, 1u);
  EXPECT_EQ(c.stores.sectors, 3u);
  EXPECT_EQ(c.stores.lines, 1u);
  ASSERT_EQ(c.requests.size(), 5u);
  EXPECT_EQ(c.requests.front().request.lanes.size(), 21u);
}

struct TiledCase {
  int tile;
  uint64_t loadRequests, loadSectors, storeRequests, storeSectors;
};

class CoalescingTiled : public ::testing::TestWithParam<TiledCase> {};

// 64x64x64: a warp covers 32/T rows of T floats (T >= 8 keeps each row segment inside
// whole sectors), so every load request is 32*4/32 = 4 sectors; there are
// (64/T)^2 blocks x 64/T phases x T*T/32 warps x 2 loads.
TEST_P(CoalescingTiled, Tiled_dims_64x64x64) {
  const TiledCase p = GetParam();
  const tilescope::Run run = traced(config(KernelId::Tiled, {64, 64, 64}, p.tile));
  const CoalescingReport c = analyzeCoalescing(*run.trace);
  EXPECT_EQ(c.loads.requests, p.loadRequests);
  EXPECT_EQ(c.loads.sectors, p.loadSectors);
  EXPECT_EQ(c.stores.requests, p.storeRequests);
  EXPECT_EQ(c.stores.sectors, p.storeSectors);
  EXPECT_DOUBLE_EQ(c.loads.efficiency(), 1.0);
  EXPECT_EQ(c.loadsM.requests, c.loadsN.requests);  // two load instructions, one each per warp and phase
}

INSTANTIATE_TEST_SUITE_P(T, CoalescingTiled,
                         ::testing::Values(TiledCase{8, 64 * 8 * 2 * 2, 64 * 8 * 2 * 2 * 4, 128, 512},
                                           TiledCase{16, 16 * 4 * 8 * 2, 16 * 4 * 8 * 2 * 4, 128, 512},
                                           TiledCase{32, 4 * 2 * 32 * 2, 4 * 2 * 32 * 2 * 4, 128, 512}),
                         [](const auto& info) { return "T" + std::to_string(info.param.tile); });

// Zero fills write shared memory only: they are no global access, and a warp whose lanes
// all zero-fill issues no global request.
TEST(Coalescing, TiledBounds_T4_dims_33x17x9_ZeroFillsAreNotGlobalAccesses) {
  const tilescope::Run run = traced(config(KernelId::TiledBounds, {33, 17, 9}, 4));
  const CoalescingReport c = analyzeCoalescing(*run.trace);
  uint64_t globalLoads = 0, zeroFills = 0;
  for (const Event& e : run.trace->events) {
    if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
    (zeroFilled(e) ? zeroFills : globalLoads) += 1;
  }
  ASSERT_GT(zeroFills, 0u);
  // Each element of M (33x17) is loaded once per block column (ceil(9/4) = 3), each of N
  // (17x9) once per block row (ceil(33/4) = 9).
  EXPECT_EQ(globalLoads, 33u * 17 * 3 + 17u * 9 * 9);
  uint64_t lanes = 0;
  for (const auto& g : c.requests) {
    if (g.request.write) continue;
    for (const auto& l : g.request.lanes) EXPECT_FALSE(zeroFilled(run.trace->events[l.event]));
    lanes += g.request.lanes.size();
  }
  EXPECT_EQ(lanes, globalLoads);
}

// Every request is one instruction instance of one warp: same block, warp, op, line,
// phase and k for all its lanes, each lane at most once.
TEST(Coalescing, RequestsAreSingleInstructionInstances) {
  const tilescope::Run run = traced(config(KernelId::TiledBounds, {20, 30, 10}, 6));
  uint64_t lanes = 0;
  for (const auto& g : analyzeCoalescing(*run.trace).requests) {
    lanes += g.request.lanes.size();
    uint32_t seen = 0;
    for (const auto& l : g.request.lanes) {
      const Event& e = run.trace->events[l.event];
      EXPECT_EQ(e.line, g.request.line);
      EXPECT_EQ(e.phase, g.request.phase);
      EXPECT_EQ(e.k, g.request.k);
      EXPECT_EQ(linearThread(e, run.plan.launch.blockX) / 32, g.request.warp);
      EXPECT_FALSE(seen >> l.lane & 1u);
      seen |= 1u << l.lane;
    }
  }
  // Every global access is a lane of some request: M (20x30) loaded once per block column
  // (ceil(10/6) = 2), N (30x10) once per block row (ceil(20/6) = 4), and P (20x10) stored once.
  EXPECT_EQ(lanes, 20u * 30 * 2 + 30u * 10 * 4 + 20u * 10);
}

}  // namespace
}  // namespace tilescope
