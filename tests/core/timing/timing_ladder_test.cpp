// The ladder (app/core/timing/timing_ladder.h): which cases a ladder sweep times, and the percentage
// of cuBLAS, held to tests/fixtures/timings/ladder-fixture.csv, a hand-written FIXTURE of
// invented round numbers (not a measurement) whose percentages are obvious: tiled T = 32 at
// 500 of cuBLAS's 1000 GFLOP/s is 50 %. No GPU needed.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "core/json_writer.h"
#include "core/timing/timing_ladder.h"

namespace tilescope {
namespace {

TimingReport fixture() {
  auto r = loadRecordedTimings(TILESCOPE_LADDER_FIXTURE);
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().message);
  return r ? *r : TimingReport{};
}

const TimingResult& find(const TimingReport& r, TimedKind kind, int n, int tile = 32) {
  for (const TimingResult& t : r.results)
    if (t.what.kind == kind && t.what.config.dims.j == n && (kind == TimedKind::Cublas || t.what.config.tile == tile))
      return t;
  ADD_FAILURE() << "no result at N = " << n;
  return r.results.front();
}

TEST(LadderCases, EveryRungInRungOrderThenCublasAtEachSize) {
  const std::vector<TimingCase> cases = ladderCases();
  // Fig. 5.9 is rung 1 (issue 10), timed at T = 32; every other rung comes from its own facts.
  std::set<KernelId> rungs;
  for (const KernelInfo& k : kKernels)
    if (k.ladderRung > 0) rungs.insert(k.id);
  ASSERT_TRUE(rungs.count(KernelId::Tiled));
  ASSERT_EQ(cases.size(), (rungs.size() + 1) * 6);
  const int sizes[] = {256, 512, 1024, 2048, 4096, 8192};
  std::size_t i = 0;
  for (int n : sizes) {
    int lastRung = 0;
    for (std::size_t r = 0; r < rungs.size(); ++r, ++i) {
      const TimingCase& c = cases[i];
      EXPECT_EQ(c.kind, TimedKind::Kernel);
      EXPECT_EQ(c.config.dims, (Dims{n, n, n}));
      EXPECT_GE(kernelInfo(c.config.kernel).ladderRung, lastRung) << "rung order";
      lastRung = kernelInfo(c.config.kernel).ladderRung;
      EXPECT_TRUE(isLadderCase(c)) << c.label();
      if (c.config.kernel == KernelId::Tiled) {
        EXPECT_EQ(c.label(), "tiled T=32");
      }
    }
    EXPECT_EQ(cases[i].kind, TimedKind::Cublas);
    EXPECT_EQ(cases[i++].config.dims, (Dims{n, n, n}));
  }
  EXPECT_EQ(cases.front().config.kernel, ladderKernels().front());
  EXPECT_EQ(kernelInfo(ladderKernels().front()).ladderRung, 1);
}

TEST(LadderCases, OtherTileWidthsOfTiledAreNotOnTheLadder) {
  TimingCase c = ladderCase(KernelId::Tiled, 1024);
  c.config.tile = 16;
  EXPECT_FALSE(isLadderCase(c));
  c.config.kernel = KernelId::Naive;
  EXPECT_FALSE(isLadderCase(c));
  EXPECT_EQ(ladderCases({512}).size(), ladderKernels().size() + 1);
}

TEST(PercentOfCublas, SameSizeSameRunBothVerified) {
  const TimingReport r = fixture();
  ASSERT_EQ(r.device, "FIXTURE GPU (not a measurement)");
  EXPECT_DOUBLE_EQ(*percentOfCublas(r, find(r, TimedKind::Kernel, 256)), 50.0);    // 500 of 1000
  EXPECT_DOUBLE_EQ(*percentOfCublas(r, find(r, TimedKind::Kernel, 512)), 25.0);    // 500 of 2000
  EXPECT_DOUBLE_EQ(*percentOfCublas(r, find(r, TimedKind::Kernel, 4096)), 25.0);   // 4000 of 16000
  EXPECT_DOUBLE_EQ(*percentOfCublas(r, find(r, TimedKind::Kernel, 4096, 16)), 18.75);  // 3000 of 16000
  // The rung failed verification at 1024: no percentage. cuBLAS failed at 8192: none either.
  EXPECT_FALSE(percentOfCublas(r, find(r, TimedKind::Kernel, 1024)));
  EXPECT_FALSE(percentOfCublas(r, find(r, TimedKind::Kernel, 8192)));
}

TEST(PercentOfCublas, NeverAcrossSweeps) {
  TimingReport r = fixture();
  for (TimingResult& t : r.results)
    if (t.what.kind == TimedKind::Cublas) t.sweep = 2;  // cuBLAS from another sweep of the session
  EXPECT_FALSE(percentOfCublas(r, find(r, TimedKind::Kernel, 256)));
  for (TimingResult& t : r.results) t.sweep = 2;
  EXPECT_DOUBLE_EQ(*percentOfCublas(r, find(r, TimedKind::Kernel, 256)), 50.0);
}

TEST(LadderTable, OneRowPerRungOneColumnPerSize) {
  const TimingReport r = fixture();
  const LadderTable t = ladderTable(r);
  EXPECT_EQ(t.sizes, (std::vector<int>{256, 512, 1024, 2048, 4096, 8192}));
  ASSERT_EQ(t.rows.size(), 1u);  // tiled T = 16 at 4096 is not a rung
  const LadderRow& tiled = t.rows[0];
  EXPECT_EQ(tiled.rung, 1);
  EXPECT_EQ(tiled.label, "tiled T=32");
  const double want[] = {50.0, 25.0, -1, 25.0, 25.0, -1};  // -1: none
  for (std::size_t c = 0; c < 6; ++c) {
    ASSERT_TRUE(tiled.cells[c].result) << t.sizes[c];
    EXPECT_EQ(tiled.cells[c].percent.has_value(), want[c] >= 0) << t.sizes[c];
    if (want[c] >= 0) {
      EXPECT_DOUBLE_EQ(*tiled.cells[c].percent, want[c]);
    }
  }
  EXPECT_FALSE(tiled.cells[2].result->verified);
  ASSERT_TRUE(t.cublas[5]);
  EXPECT_FALSE(t.cublas[5]->verified);
}

TEST(LadderText, PercentagesAndNoNumbersForFailures) {
  const TimingReport r = fixture();
  std::ostringstream out;
  writeLadderText(out, r);
  const std::string text = out.str();
  std::istringstream lines(text);
  int rows = 0, failed = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("tiled T=32") == std::string::npos || line.find("FIXTURE") == std::string::npos) continue;
    ++rows;
    if (line.find("   1024 ") == 0 || line.find("  1024 ") != std::string::npos) {
      // The failed rung: no time, no GFLOP/s, no percentage, only why.
      EXPECT_NE(line.find("FAILED"), std::string::npos) << line;
      EXPECT_EQ(line.find('%'), std::string::npos) << line;
      ++failed;
    }
  }
  EXPECT_EQ(rows, 6) << text;
  EXPECT_EQ(failed, 1) << text;
  EXPECT_NE(text.find("    50.0%    25.0%        -    25.0%    25.0%        -"), std::string::npos) << text;
}

TEST(LadderJson, PercentOnlyWhereBothVerified) {
  const TimingReport r = fixture();
  std::ostringstream out;
  {
    JsonWriter json(out);
    writeLadderJson(json, r);
  }
  const std::string text = out.str();
  auto count = [&](const std::string& s) {
    int n = 0;
    for (std::size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("\"rung\":1"), 6) << text;
  EXPECT_EQ(count("\"percent_of_cublas\""), 4) << text;
  EXPECT_EQ(count("\"percent_of_cublas\":25"), 3) << text;
  EXPECT_EQ(count("\"verified\":false"), 1) << text;
}

}  // namespace
}  // namespace tilescope
