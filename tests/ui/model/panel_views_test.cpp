// The panels' views (app/ui/model/*_view.h), built without a window from the book's 4 x 4
// example (fig. 5.7 .. 5.8: M, N and P 4 x 4, TILE_WIDTH 2, four blocks of 2 x 2 threads).
// The facts are the book's, counted by hand from its indexing: in phase ph, thread (tx,ty) of
// block (bx,by) loads Mds[ty][tx] = M(by*2+ty, ph*2+tx) and Nds[ty][tx] = N(ph*2+ty, bx*2+tx).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "book_example.h"
#include "core/run/backend.h"
#include "core/run/device_profile.h"
#include "ui/model/banks_view.h"
#include "ui/model/coalescing_view.h"
#include "ui/model/matrices_view.h"
#include "ui/model/occupancy_view.h"
#include "ui/model/source_view.h"
#include "ui/model/thread_block_view.h"
#include "ui/model/timeline_view.h"

namespace tilescope::ui {
namespace {

int ringed(const std::vector<gfx::CellStyle>& cells) {
  return int(std::count_if(cells.begin(), cells.end(), [](const gfx::CellStyle& c) { return c.highlight != 0; }));
}

TEST(MatricesView, PhaseOneRingsTheSecondTilesEachElementInItsLoadersColour) {
  const BookExample book;
  const MatricesView v = matricesView(*book.run, *book.block, book.stepOf(1, StepKind::Load), book.theme, {});
  ASSERT_EQ(v.m.rows, 4);
  ASSERT_EQ(v.m.cols, 4);
  // Block (0,0), phase 1: M(0..1, 2..3) and N(2..3, 0..1), four elements each.
  EXPECT_EQ(ringed(v.mCells), 4);
  EXPECT_EQ(ringed(v.nCells), 4);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) {
      const gfx::CellStyle& m = v.mCells[std::size_t(r * 4 + 2 + c)];
      const gfx::CellStyle& n = v.nCells[std::size_t((2 + r) * 4 + c)];
      EXPECT_NE(m.highlight, 0u) << "M(" << r << "," << 2 + c << ")";
      EXPECT_NE(n.highlight, 0u) << "N(" << 2 + r << "," << c << ")";
      // Loaded by thread (tx=c, ty=r), linear r * 2 + c.
      EXPECT_EQ(m.fill, book.theme.threadColour(r * 2 + c));
      EXPECT_EQ(n.fill, book.theme.threadColour(r * 2 + c));
    }
  // P: nothing stored before the last phase; block (0,0)'s 2 x 2 tile ringed; every P element
  // has its running sum after phase 0: M(r,0) N(0,c) + M(r,1) N(1,c).
  EXPECT_EQ(ringed(v.pCells), 4);
  for (int i : {0, 1, 4, 5}) EXPECT_NE(v.pCells[std::size_t(i)].highlight, 0u);
  ASSERT_EQ(v.sums.size(), 16u);
  const Matrix& M = book.run->run.m;
  const Matrix& N = book.run->run.n;
  for (const RunningSum& s : v.sums) {
    const float expected = M.at(s.row, 0) * N.at(0, s.col) + M.at(s.row, 1) * N.at(1, s.col);
    EXPECT_NEAR(s.sum, expected, 1e-5f * (1.0f + std::abs(expected))) << "P(" << s.row << "," << s.col << ")";
    EXPECT_EQ(s.fill, book.theme.pPending);
  }
  EXPECT_TRUE(v.marks.empty()) << "in bounds, right, no race";
}

// A 4x4 tile (16 threads, 8 colours): rows 0 and 2 of a tile share their hues, so each
// thread-coloured cell carries its thread's number. At 8x8 with T = 4, block (0,0)'s phase 0
// loads M(r, c) into Mds[r][c] by thread ty=r, tx=c, linear 4r + c: 16 labels of M, 16 of N.
// The book's 2x2 block has 4 threads, fewer than the palette: no numbers.
TEST(MatricesView, ThreadColoursRepeatingInATileCarryTheThreadsNumber) {
  const BookExample big(testing::tiledConfig(KernelId::Tiled, {8, 8, 8}, 4, testing::freshSeed()));
  const MatricesView v = matricesView(*big.run, *big.block, big.stepOf(0, StepKind::Load), big.theme, {});
  int m = 0, n = 0;
  for (const ThreadLabel& t : v.threadLabels) {
    (t.isN ? n : m) += 1;
    if (!t.isN) {
      EXPECT_EQ(t.thread, t.row * 4 + t.col) << "M(" << t.row << "," << t.col << ")";
    }
    EXPECT_EQ(t.fill, big.theme.threadColour(t.thread));
  }
  EXPECT_EQ(m, 16);
  EXPECT_EQ(n, 16);
  EXPECT_EQ(big.theme.threadColour(0), big.theme.threadColour(8));  // why: the hue of row 0 is row 2's
  const BookExample book;
  EXPECT_TRUE(matricesView(*book.run, *book.block, book.stepOf(0, StepKind::Load), book.theme, {}).threadLabels.empty());
}

TEST(MatricesView, FollowedThreadOneZeroHasLoadedTwoElementsOfEachMatrixByPhaseOne) {
  const BookExample book;
  // Thread (1,0) is linear 1: M(0,1) and N(0,1) in phase 0, M(0,3) and N(2,1) in phase 1; it computes P(0,1).
  const MatricesView v = matricesView(*book.run, *book.block, book.stepOf(1, StepKind::Load), book.theme, {false, 1});
  ASSERT_TRUE(v.following);
  auto has = [](const std::vector<CellIndex>& cells, int r, int c) {
    return std::any_of(cells.begin(), cells.end(), [&](CellIndex x) { return x.row == r && x.col == c; });
  };
  EXPECT_EQ(v.footprint.mLoads.size(), 2u);
  EXPECT_TRUE(has(v.footprint.mLoads, 0, 1));
  EXPECT_TRUE(has(v.footprint.mLoads, 0, 3));
  EXPECT_EQ(v.footprint.nLoads.size(), 2u);
  EXPECT_TRUE(has(v.footprint.nLoads, 0, 1));
  EXPECT_TRUE(has(v.footprint.nLoads, 2, 1));
  EXPECT_EQ(v.footprint.p.row, 0);
  EXPECT_EQ(v.footprint.p.col, 1);
  EXPECT_FALSE(v.footprint.stored);
  // The arrows of this phase: M(0,3) into Mds[ty][tx] = Mds[0][1], N(2,1) into Nds[0][1].
  ASSERT_EQ(v.links.size(), 2u);
  for (const FollowLink& link : v.links) {
    EXPECT_EQ(link.element.row, link.isN ? 2 : 0);
    EXPECT_EQ(link.element.col, link.isN ? 1 : 3);
    EXPECT_EQ(link.slot.row, 0);
    EXPECT_EQ(link.slot.col, 1);
  }
}

TEST(MatricesView, AfterTheStoreEveryPElementIsStoredAndRight) {
  const BookExample book;
  const Timeline& t = book.run->timeline;
  const MatricesView v = matricesView(*book.run, *book.block, {t.steps() - 1, t.threadsPerBlock()}, book.theme, {});
  for (const gfx::CellStyle& c : v.pCells) EXPECT_EQ(c.fill, book.theme.pStored);
  for (const RunningSum& s : v.sums) EXPECT_EQ(s.fill, book.theme.pStored);
}

TEST(ThreadBlockView, HalfTheBlockArrivedAtTheBarrierAfterPhaseOnesLoads) {
  const BookExample book;
  Cursor c = book.stepOf(1, StepKind::Barrier);
  c.threads = 2;
  const ThreadBlockView v = threadBlockView(*book.run, *book.block, c, book.theme);
  EXPECT_EQ(v.rows, 2);
  EXPECT_EQ(v.cols, 2);
  EXPECT_EQ(v.threads, 4);
  EXPECT_EQ(v.warps, 1);
  EXPECT_EQ(v.arrivals, 2);
  EXPECT_FALSE(v.released());
  EXPECT_EQ(v.counts[std::size_t(ThreadState::Waiting)], 2);
  int total = 0;
  for (int n : v.counts) total += n;
  EXPECT_EQ(total, 4);
  EXPECT_EQ(v.cells.size(), 4u);
  c.threads = 4;
  EXPECT_TRUE(threadBlockView(*book.run, *book.block, c, book.theme).released());
}

TEST(TimelineView, TwoPhasesAndThreadOneZerosStoryOfPhaseOne) {
  const BookExample book;
  const TimelineView v = timelineView(*book.run, book.block.get(), book.stepOf(1, StepKind::Load), book.theme, {1});
  ASSERT_EQ(v.phases.size(), 2u);
  EXPECT_EQ(v.phases[0].phase, 0);
  EXPECT_EQ(v.phases[1].phase, 1);
  EXPECT_EQ(v.phases[1].first, v.phases[0].end);
  EXPECT_EQ(int(v.steps.size()), book.run->timeline.steps());
  EXPECT_EQ(v.phaseCount, 2);
  EXPECT_TRUE(v.steps[std::size_t(v.phases[1].first)].phaseStart);
  EXPECT_TRUE(v.steps[std::size_t(v.step)].done);
  EXPECT_FALSE(v.steps.back().done) << "the store is still ahead";
  ASSERT_TRUE(v.hasCaption);
  EXPECT_NE(v.caption.find("thread tx=1, ty=0"), std::string::npos) << v.caption;
  EXPECT_NE(v.caption.find("M(0,3) into Mds[0][1]"), std::string::npos) << v.caption;
  EXPECT_NE(v.caption.find("N(2,1) into Nds[0][1]"), std::string::npos) << v.caption;
}

TEST(SourceView, PhaseOnesLoadsMarkTheLinesThatFillMdsAndNds) {
  const BookExample book;
  const SourceView v = sourceView(*book.run, *book.block, book.stepOf(1, StepKind::Load));
  ASSERT_TRUE(v.embedded);
  EXPECT_EQ(v.path.rfind("kernels/", 0), 0u) << v.path;
  // The two statements of fig. 5.9 that load the tiles: Mds[ty][tx] = ... and Nds[ty][tx] = ...
  ASSERT_EQ(v.stepLines.size(), 2u);
  std::vector<std::string> lines{""};
  for (char ch : v.text) {
    if (ch == '\n') lines.emplace_back();
    else lines.back() += ch;
  }
  bool mds = false, nds = false;
  for (int line : v.stepLines) {
    ASSERT_TRUE(line >= 1 && std::size_t(line) <= lines.size()) << line;
    const std::string& text = lines[std::size_t(line - 1)];
    mds |= text.find("Mds[") != std::string::npos;
    nds |= text.find("Nds[") != std::string::npos;
  }
  EXPECT_TRUE(mds && nds);
  EXPECT_TRUE(v.stepLines.count(v.currentLine));
}

TEST(BanksView, AKStepOfTheBookReadsTwoWordsOfEachTileEachABroadcastToTwoLanes) {
  const BookExample book;
  const AnalysisReport analysis = analyzeRun(*book.run, *profileByName("h100"));
  // Phase 0, k = 0: lanes (tx,ty) read Mds[ty][0] (lanes 0,1 one word, lanes 2,3 another) and
  // Nds[0][tx] (lanes 0,2 one word, lanes 1,3 another): two words per request, no bank twice.
  Cursor c{};
  for (int s = 0; s < book.run->timeline.steps(); ++s)
    if (book.run->timeline.step(s).phase == 0 && book.run->timeline.step(s).k == 0) c = {s, 4};
  const BanksView v = banksView(*book.run, analysis, 0, 0, c, 0);
  EXPECT_FALSE(v.noShared);
  ASSERT_EQ(v.requests.size(), 2u);
  for (const BankRequestView& r : v.requests) {
    EXPECT_NE(r.heading.find("4 lanes -> 1 wavefront (0 conflicts)"), std::string::npos) << r.heading;
    ASSERT_EQ(r.passes.size(), 1u);
    int words = 0;
    for (const auto& bank : r.passes[0].words)
      for (const auto& entry : bank) {
        ++words;
        EXPECT_EQ(entry.second.size(), 2u) << "word " << entry.first;
      }
    EXPECT_EQ(words, 2);
    EXPECT_EQ(r.passes[0].text, "no bank holds two different words: one pass; broadcasts: 2 words each served to several lanes at once");
  }
  EXPECT_TRUE(v.none.empty());
  // Warp 1 does not exist in a block of four threads: nothing at this step, said in words.
  EXPECT_FALSE(banksView(*book.run, analysis, 0, 0, c, 1).none.empty());
}

TEST(CoalescingView, PhaseZerosLoadsOfBlockZeroTouchOneSectorOfEachMatrix) {
  const BookExample book;
  const AnalysisReport analysis = analyzeRun(*book.run, *profileByName("h100"));
  // Phase 0 of block (0,0): lane (tx,ty) loads M(ty,tx) and N(ty,tx), elements 0, 1, 4, 5 of a
  // 4 x 4 row-major matrix: bytes 0-7 and 16-23, 16 bytes used of one 32-byte sector.
  const CoalescingView v = coalescingView(*book.run, analysis, 0, 0, book.stepOf(0, StepKind::Load), 0);
  EXPECT_TRUE(v.warpAccesses);
  ASSERT_EQ(v.requests.size(), 2u);
  for (const CoalescingRequestView& r : v.requests) {
    EXPECT_FALSE(r.picture.write);
    EXPECT_EQ(r.picture.lanes.size(), 4u);
    EXPECT_EQ(r.picture.sectors.size(), 1u) << r.picture.array;
    EXPECT_EQ(r.picture.bytesUsed, 16);
    EXPECT_EQ(r.picture.bytesMoved, 32);
  }
  EXPECT_TRUE(v.none.empty());
  // A k step reads shared memory only: no global access, said in words.
  EXPECT_FALSE(coalescingView(*book.run, analysis, 0, 0, book.stepOf(0, StepKind::Compute), 0).none.empty());
}

// Issue 28: a size too large to run here has no run and no trace, yet the Occupancy view of its
// plan holds its grid: rung 9 at N = 1024 on the H100 profile (132 SMs, one block of 384 threads
// and a 192 KiB ring per SM) is the selector's 4 blocks to each of 8 x 4 = 32 tiles, 128 blocks,
// one wave 97 % busy; 1024^3 = 2^30 multiply-adds is over the emulator's 2^28.
TEST(OccupancyView, ThePlanOfASizeNotRunHere) {
  LaunchConfig c;
  c.kernel = KernelId::StreamK;
  c.dims = {1024, 1024, 1024};
  const std::string why = refusedForSize(c, runsOnEmulator(BackendChoice::Auto, false));
  EXPECT_EQ(why.rfind("1024^3 = 1 Gi multiply-adds is over the emulator's limit of 256 Mi", 0), 0u) << why;
  auto h100 = profileByName("h100");
  ASSERT_TRUE(h100.ok());
  const auto v = plannedOccupancyView(c, why, *h100, {"h100", 0});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->plan.rfind("Not run here: " + why + ". No trace exists;", 0), 0u) << v->plan;
  EXPECT_NE(v->plan.find("onto the 132 SMs of the h100 profile, a plan, not a measurement"), std::string::npos) << v->plan;
  EXPECT_EQ(v->waves.blocks, 128);
  EXPECT_EQ(v->waves.blocksPerSm, 1);
  EXPECT_EQ(v->waves.idleSmsInLastWave, 4);
  EXPECT_TRUE(v->hasSelector);
  EXPECT_EQ(v->thisRun, "would run: 128x256x32/64x64/8x16, a persistent grid of 128 blocks: the selector's choice");
  // A size the emulator runs is no refusal; on a GPU only the trace cap counts.
  c.dims = {64, 64, 64};
  EXPECT_EQ(refusedForSize(c, true), "");
  EXPECT_TRUE(runsOnEmulator(BackendChoice::Cuda, false));
  EXPECT_FALSE(runsOnEmulator(BackendChoice::Auto, true));
}


// Rung 9 on a persistent grid (kernels/ladder/stream_k.cuh), 64^3 at 32x64x8/16x32/4x4 on 3
// blocks, counted by hand: P is 2 tiles of 32 x 64 (ceil(64/32) x ceil(64/64)), 8 k tiles each,
// 16 iterations; block b takes [16b/3, 16(b+1)/3): block 0 iterations 0..4 (tile 0), block 1
// 5..9 (tile 0's k tiles 5..7, tile 1's 0..1), block 2 10..15 (tile 1). Tiles are numbered in
// a band of min(2, 8) tile rows, column by column: tile 1 is tile row 1, column 0 (P rows
// 32..63). So nothing is padded (64 is whole tiles every way), block 0 rings P rows 0..31,
// block 1 all 64 rows, block 2 rows 32..63; never columns 64.. of a third tile that is not there.
LaunchConfig streamKOnThreeBlocks() {
  LaunchConfig c = testing::launchConfig(KernelId::StreamK, {64, 64, 64}, 0, testing::freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  c.persistentBlocks = 3;
  return c;
}

TEST(MatricesView, APersistentBlockRingsTheTilesItWorksOnAndPadsToTheTileGrid) {
  const BookExample run(streamKOnThreeBlocks());
  const Timeline& t = run.run->timeline;
  ASSERT_EQ(t.blocks(), 3);
  const int firstRow[] = {0, 0, 32}, lastRow[] = {31, 63, 63};
  for (int b = 0; b < 3; ++b) {
    SCOPED_TRACE("block " + std::to_string(b));
    const BlockTimeline block = BlockTimeline::build(t, b, 0);
    const MatricesView v = matricesView(*run.run, block, t.end(), run.theme, {});
    EXPECT_EQ(v.m.rows, 64);
    EXPECT_EQ(v.m.cols, 64);
    EXPECT_EQ(v.n.rows, 64);
    EXPECT_EQ(v.n.cols, 64);
    ASSERT_EQ(v.p.rows, 64);
    ASSERT_EQ(v.p.cols, 64);
    EXPECT_EQ(ringed(v.pCells), (lastRow[b] - firstRow[b] + 1) * 64);
    for (int r = 0; r < 64; ++r) {
      const bool mine = r >= firstRow[b] && r <= lastRow[b];
      EXPECT_EQ(v.pCells[std::size_t(r) * 64].highlight != 0, mine) << "P(" << r << ",0)";
      EXPECT_EQ(v.pCells[std::size_t(r) * 64 + 63].highlight != 0, mine) << "P(" << r << ",63)";
    }
  }
}

// Block 2's first load step (the timeline's step 2, tests/core/timeline/copy_ring_test.cpp): its
// share begins at iteration 10, tile 1's k tile 2, so its producer copies M(32..63,16..23) and
// N(16..23,0..63): those boxes are the current tiles, ringed, 256 and 512 elements.
TEST(MatricesView, APersistentBlocksCopiedBoxesAreItsCurrentTiles) {
  const BookExample run(streamKOnThreeBlocks());
  const Timeline& t = run.run->timeline;
  const BlockTimeline block = BlockTimeline::build(t, 2, 0);
  const MatricesView v = matricesView(*run.run, block, {2, t.threadsPerBlock()}, run.theme, {});
  EXPECT_EQ(ringed(v.mCells), 32 * 8);
  EXPECT_EQ(ringed(v.nCells), 8 * 64);
  EXPECT_NE(v.mCells[std::size_t(32) * 64 + 16].highlight, 0u);
  EXPECT_NE(v.mCells[std::size_t(63) * 64 + 23].highlight, 0u);
  EXPECT_EQ(v.mCells[std::size_t(31) * 64 + 16].highlight, 0u);
  EXPECT_NE(v.nCells[std::size_t(16) * 64 + 0].highlight, 0u);
  EXPECT_NE(v.nCells[std::size_t(23) * 64 + 63].highlight, 0u);
  EXPECT_EQ(v.nCells[std::size_t(24) * 64 + 0].highlight, 0u);
  // Block 1 walks its second segment first (tile 1's k tiles 0, 1), then tile 0's 5, 6, 7: its
  // phase 4 (load step 15, after it left tile 1's partial sums at step 8) copies M(0..31,56..63).
  const BlockTimeline second = BlockTimeline::build(t, 1, 0);
  const MatricesView w = matricesView(*run.run, second, {15, t.threadsPerBlock()}, run.theme, {});
  EXPECT_EQ(ringed(w.mCells), 32 * 8);
  EXPECT_NE(w.mCells[std::size_t(0) * 64 + 56].highlight, 0u);
  EXPECT_NE(w.nCells[std::size_t(63) * 64 + 63].highlight, 0u);
}

// Rung 8, a data-parallel grid (one block per tile, 2 x 1 blocks of 32 x 64 at 64^3): block
// (0,1) rings tile row 1, P rows 32..63, as it did before persistent grids were drawn.
TEST(MatricesView, ADataParallelBlockRingsItsOneTile) {
  LaunchConfig c = testing::launchConfig(KernelId::TmaPipeline, {64, 64, 64}, 0, testing::freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  const BookExample run(c);
  const BlockTimeline block = BlockTimeline::build(run.run->timeline, 0, 1);
  const MatricesView v = matricesView(*run.run, block, run.run->timeline.end(), run.theme, {});
  ASSERT_EQ(v.p.rows, 64);
  ASSERT_EQ(v.p.cols, 64);
  EXPECT_EQ(ringed(v.pCells), 32 * 64);
  EXPECT_EQ(v.pCells[0].highlight, 0u);
  EXPECT_NE(v.pCells[std::size_t(32) * 64].highlight, 0u);
}

}  // namespace
}  // namespace tilescope::ui
