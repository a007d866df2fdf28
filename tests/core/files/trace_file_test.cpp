// Trace files: a saved run opens again unchanged, and the reader turns every malformed,
// truncated or corrupted file into an Error (never a crash), including under fuzzing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "core/teaching/bugs.h"
#include "core/files/chrome_trace.h"
#include "core/files/trace_file.h"
#include "core/analysis/analysis.h"
#include "core/run/device_profile.h"
#include "core/timeline/timeline.h"
#include "test_support.h"

namespace tilescope {
namespace {

using testing::freshSeed;
using testing::runEmulated;
using testing::tiledConfig;

bool sameBits(const Matrix& a, const Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(float)) == 0;
}

bool sameEvents(const EventVector& a, const EventVector& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Event)) == 0;
}

void expectSameRun(const tilescope::Run& a, const tilescope::Run& b) {
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.backend, b.backend);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_TRUE(sameBits(a.m, b.m));
  EXPECT_TRUE(sameBits(a.n, b.n));
  EXPECT_TRUE(sameBits(a.p, b.p)) << "P, NaNs included, comes back bit for bit";
  ASSERT_EQ(a.trace.has_value(), b.trace.has_value());
  if (a.trace) {
    EXPECT_TRUE(sameEvents(a.trace->events, b.trace->events));
    EXPECT_EQ(a.trace->phases, b.trace->phases);
    EXPECT_EQ(a.trace->launch.gridX, b.trace->launch.gridX);
    EXPECT_EQ(a.trace->launch.blockY, b.trace->launch.blockY);
  }
  EXPECT_EQ(a.plan.traceSlots, b.plan.traceSlots);
  EXPECT_EQ(a.outcome.outOfBoundsTotal, b.outcome.outOfBoundsTotal);
  ASSERT_EQ(a.outcome.outOfBounds.size(), b.outcome.outOfBounds.size());
  for (std::size_t i = 0; i < a.outcome.outOfBounds.size(); ++i) {
    EXPECT_EQ(a.outcome.outOfBounds[i].array, b.outcome.outOfBounds[i].array);
    EXPECT_EQ(a.outcome.outOfBounds[i].index, b.outcome.outOfBounds[i].index);
    EXPECT_EQ(a.outcome.outOfBounds[i].thread.x, b.outcome.outOfBounds[i].thread.x);
  }
  EXPECT_EQ(a.verification.passed, b.verification.passed);
  EXPECT_EQ(a.verification.wrong, b.verification.wrong);
}

// The reader refuses `bytes` with a message that holds `fragment`.
void expectErrorIn(const std::vector<uint8_t>& bytes, const std::string& fragment) {
  auto r = decodeRun(bytes, "split.tstrace");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find(fragment), std::string::npos) << r.error().message;
}

class TraceFileRoundTrip : public ::testing::TestWithParam<std::pair<LaunchConfig, bool>> {};

TEST_P(TraceFileRoundTrip, DecodesToTheSameRun) {
  LaunchConfig c = GetParam().first;
  c.seed = freshSeed();
  SCOPED_TRACE(describe(c));
  tilescope::Run run = runEmulated(c, GetParam().second);
  run.seconds = 0.125;
  const std::vector<uint8_t> bytes = encodeRun(run);
  auto back = decodeRun(bytes, "memory");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->formatVersion, kTraceFileVersion);
  EXPECT_EQ(back->toolVersion, toolVersion());
  expectSameRun(run, back->run);
  EXPECT_EQ(encodeRun(back->run), bytes) << "re-encoding gives the same bytes";
}

LaunchConfig rect(int bw, int bh) {
  LaunchConfig c = tiledConfig(KernelId::TiledRect, {5, 7, 9}, 2, 1);
  c.blockX = bw;
  c.blockY = bh;
  return c;
}

INSTANTIATE_TEST_SUITE_P(
    Runs, TraceFileRoundTrip,
    ::testing::Values(std::pair{tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, 1), true},
                      std::pair{tiledConfig(KernelId::Tiled, {3, 3, 3}, 2, 1), true},  // out of bounds, NaN in P
                      std::pair{tiledConfig(KernelId::TiledBounds, {33, 17, 9}, 4, 1), true},
                      std::pair{tiledConfig(KernelId::Naive, {6, 5, 7}, 2, 1), true},
                      std::pair{tiledConfig(KernelId::TiledBounds, {40, 40, 40}, 8, 1), false},  // no trace
                      std::pair{rect(4, 2), true}));

// A ladder trace (128-bit and staged accesses: rung 9 at one block per tile) opens again, and
// the reader holds a workspace access (load_w, store_w) to element (0, its index).
TEST(TraceFile, ALadderTraceRoundTripsAndWorkspaceEventsAreCheckedAtRowZero) {
  LaunchConfig c = testing::launchConfig(KernelId::StreamK, {37, 32, 24}, 0, freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  const tilescope::Run run = runEmulated(c, true);
  ASSERT_TRUE(run.trace);
  auto back = decodeRun(encodeRun(run), "memory");
  ASSERT_TRUE(back.ok()) << back.error().message;
  expectSameRun(run, back->run);

  tilescope::Run forged = run;
  Event* store = nullptr;
  for (Event& e : forged.trace->events)
    if (e.op == Op::StoreP && !store) store = &e;
  ASSERT_TRUE(store);
  store->op = Op::StoreW;  // element 100 of a workspace
  store->globalRow = 0, store->globalCol = 100;
  auto accepted = decodeRun(encodeRun(forged), "forged.tstrace");
  EXPECT_TRUE(accepted.ok()) << accepted.error().message;
  store->globalRow = 1;
  auto refused = decodeRun(encodeRun(forged), "forged.tstrace");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("workspace element"), std::string::npos) << refused.error().message;
}

// Rung 10's trace opens again, its fragment events (mma_a, mma_b, mma_c) with it, verified with
// TF32's tolerance; the reader holds a fragment element to its operand (A 16 x 8, B 8 x 8).
TEST(TraceFile, ATensorCoreTraceRoundTripsAndFragmentsAreCheckedInTheirOperand) {
  LaunchConfig c = testing::launchConfig(KernelId::MmaTf32, {37, 45, 29}, 0, freshSeed());
  c.tiling = {32, 32, 8, 16, 16, 2, 4};
  const tilescope::Run run = runEmulated(c, true);
  ASSERT_TRUE(run.trace);
  auto back = decodeRun(encodeRun(run), "memory");
  ASSERT_TRUE(back.ok()) << back.error().message;
  expectSameRun(run, back->run);
  EXPECT_TRUE(back->run.verification.passed) << back->run.verification.summary();
  EXPECT_GT(back->run.verification.tolerance, std::ldexp(1.0, -10));

  tilescope::Run forged = run;
  Event* b = nullptr;
  for (Event& e : forged.trace->events)
    if (e.op == Op::MmaB && !b) b = &e;
  ASSERT_TRUE(b);
  b->sharedRow = 8;  // B has 8 rows: 0 to 7
  auto refused = decodeRun(encodeRun(forged), "forged.tstrace");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("fragment element"), std::string::npos) << refused.error().message;
}

// Rung 9 at 37 x 32 x 24 (32 x 64 tiles: 2 tiles of 4 k-steps, 8 iterations) on `blocks`
// persistent blocks, traced and verified.
tilescope::Run streamKOnBlocks(int blocks) {
  LaunchConfig c = testing::launchConfig(KernelId::StreamK, {37, 32, 24}, 0, freshSeed());
  c.tiling = {32, 64, 8, 16, 32, 4, 4};
  c.persistentBlocks = blocks;
  tilescope::Run run = runEmulated(c, true);
  EXPECT_TRUE(run.trace);
  EXPECT_TRUE(run.verification.passed) << run.verification.summary();
  return run;
}

// Rung 9 on a persistent grid that splits tiles: 37 x 32 x 24 at 32 x 64 tiles is 2 tiles of
// 4 k-steps; 3 blocks share the 8 iterations (stream_k_test.cpp counts them). The file keeps
// the grid (GRID), so the plan it reopens with has 3 blocks, not one per tile, and the split
// blocks' events (block 2 exists only in the persistent grid) are the launch's own.
TEST(TraceFile, ASplitGridTraceKeepsItsPersistentBlocks) {
  const tilescope::Run run = streamKOnBlocks(3);
  ASSERT_TRUE(run.trace);
  int workspaceEvents = 0;
  for (const Event& e : run.trace->events) workspaceEvents += e.op == Op::LoadW || e.op == Op::StoreW;
  ASSERT_GT(workspaceEvents, 0) << "the grid splits tiles: partials go through the workspace";

  const std::string path = ::testing::TempDir() + "stream_k_split_grid.tstrace";
  ASSERT_TRUE(saveRun(run, path).ok());
  auto back = loadRun(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->run.config.persistentBlocks, 3);
  EXPECT_EQ(back->run.plan.launch.gridX, 3u);
  EXPECT_EQ(back->run.plan.launch.persistentBlocks, 3u);
  expectSameRun(run, back->run);
  EXPECT_TRUE(back->run.verification.passed);

  // Without its GRID section (as a reader that skips it would plan: one block per tile, 2
  // blocks), block 2's events lie outside the launch and the file is refused, not misread.
  tilescope::Run dropped = run;
  dropped.config.persistentBlocks = 0;
  expectErrorIn(encodeRun(dropped), "launch can produce");
  // A stored grid the launch checks refuse (at most 65535 blocks) is an error in words.
  tilescope::Run huge = run;
  huge.config.persistentBlocks = 70000;
  expectErrorIn(encodeRun(huge), "not valid");
}

// One block takes all 8 iterations (2 tiles of 4 k-steps): its share is 8 phases of the ring,
// more than a tile's 4 k tiles, and the file still reads back (a share's phases were once
// refused as "phase or k out of range").
TEST(TraceFile, OneBlockWalkingEveryTileReadsBack) {
  const tilescope::Run run = streamKOnBlocks(1);
  ASSERT_TRUE(run.trace);
  int lastPhase = 0;
  for (const Event& e : run.trace->events) lastPhase = std::max<int>(lastPhase, e.phase);
  EXPECT_EQ(lastPhase, 7) << "8 k tiles, one phase each";
  auto back = decodeRun(encodeRun(run));
  ASSERT_TRUE(back.ok()) << back.error().message;
  expectSameRun(run, back->run);
}

TEST(TraceFile, SavesAndLoadsThroughTheFileSystem) {
  const tilescope::Run run = runEmulated(tiledConfig(KernelId::TiledNoSecondSync, {4, 4, 4}, 2, freshSeed()), true);
  const std::string path = ::testing::TempDir() + "teaching_save_load.tstrace";
  ASSERT_TRUE(saveRun(run, path).ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  auto back = loadRun(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  expectSameRun(run, back->run);
  // What the gallery measures survives the trip: the stale reads are the same.
  EXPECT_EQ(examineRun(run).staleReads.size(), examineRun(back->run).staleReads.size());
  std::filesystem::remove(path);
}

std::vector<uint8_t> sampleFile() {
  return encodeRun(runEmulated(tiledConfig(KernelId::Tiled, {3, 3, 3}, 2, 7), true));
}

void expectError(const std::vector<uint8_t>& bytes, const std::string& fragment) {
  auto r = decodeRun(bytes, "sample.tstrace");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("sample.tstrace"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(fragment), std::string::npos) << r.error().message;
}

TEST(TraceFileErrors, SayWhatIsWrong) {
  const std::vector<uint8_t> good = sampleFile();
  expectError({}, "too short");
  std::vector<uint8_t> b = good;
  b[0] = 'X';
  expectError(b, "not a tilescope trace file");
  b = good;
  b[8] = uint8_t(kTraceFileVersion + 1);  // a format this build does not know
  expectError(b, "format version " + std::to_string(kTraceFileVersion + 1));
  b = good;
  b[good.size() / 2] ^= 0x40;
  expectError(b, "checksum");
  b = good;
  b.push_back(0);
  expectError(b, "after the END section");
  auto missing = loadRun(::testing::TempDir() + "no_such_file.tstrace");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
}

TEST(TraceFileErrors, EveryTruncationIsAnError) {
  const std::vector<uint8_t> good = sampleFile();
  ASSERT_TRUE(decodeRun(good, "whole").ok());
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto r = decodeRun(std::span(good.data(), n), "cut");
    ASSERT_FALSE(r.ok()) << "a file cut at byte " << n << " was accepted";
  }
}

// A CRC-correct file whose content lies must still be refused: reseal after editing.
void reseal(std::vector<uint8_t>& b) {
  if (b.size() < 16) return;
  const uint32_t crc = crc32(std::span(b.data(), b.size() - 16));
  std::memcpy(b.data() + b.size() - 4, &crc, 4);
}

TEST(TraceFileErrors, ResealedLiesAreCaughtByTheChecks) {
  const std::vector<uint8_t> good = sampleFile();
  // The CONF section starts right after the 16-byte header: tag, length, kernel name.
  std::vector<uint8_t> b = good;
  const std::size_t name = 16 + 12 + 4;
  b[name] = 'X';  // "tiled" -> "Xiled"
  reseal(b);
  expectError(b, "unknown kernel 'Xiled'");
  b = good;
  const std::size_t jField = name + 5;  // j of the dims, after "tiled"
  const int32_t huge = 1 << 30;
  std::memcpy(b.data() + jField, &huge, 4);
  reseal(b);
  expectError(b, "not valid");
  b = good;
  const int32_t four = 4;
  std::memcpy(b.data() + jField, &four, 4);  // config says 4 rows, M holds 3
  reseal(b);
  expectError(b, "matrix M is 3x3 but the launch needs 4x3");
}

// A file whose checksum is right but whose events point outside the launch's matrices or
// shared tiles: the views index with these, so the reader must refuse them.
TEST(TraceFileErrors, EventsOutsideTheLaunchAreRefused) {
  const tilescope::Run good = runEmulated(tiledConfig(KernelId::Tiled, {4, 4, 4}, 2, 9), true);
  ASSERT_TRUE(good.trace);
  auto lie = [&](auto edit, const std::string& mustSay) {
    tilescope::Run bad = good;
    for (Event& e : bad.trace->events)
      if (e.op == Op::ReadM) {
        edit(e);
        break;
      }
    expectError(encodeRun(bad), mustSay);
  };
  lie([](Event& e) { e.sharedRow = 30000; }, "shared slot out of range");
  lie([](Event& e) { e.sharedCol = -300; }, "shared slot out of range");
  lie([](Event& e) { e.phase = 99; }, "phase or k out of range");
  lie(
      [](Event& e) {
        e.op = Op::StoreP;
        e.globalRow = 1000;
      },
      "matrix element out of range");
  lie(
      [](Event& e) {  // claims to lie inside P, but row 4 of a 4x4 P does not exist
        e.op = Op::StoreP;
        e.globalRow = 4;
        e.globalCol = 0;
        e.sharedRow = e.sharedCol = -1;
        e.flags = kInBounds;
      },
      "in-bounds flag out of range");
}

// The fuzz test: thousands of random mutations of real files (byte flips, insertions,
// deletions, truncations, spliced sections), half of them resealed so they get past the
// checksum into the section parsers. Each must decode or fail cleanly; what decodes must
// be consistent enough for the gallery and the Chrome export to walk without harm.
TEST(TraceFileFuzz, MutatedFilesNeverCrashTheReader) {
  std::mt19937_64 rng(freshSeed());
  const std::vector<std::vector<uint8_t>> corpus = {
      sampleFile(), encodeRun(runEmulated(tiledConfig(KernelId::TiledNoFirstSync, {4, 4, 4}, 2, 3), true)),
      encodeRun(runEmulated(tiledConfig(KernelId::Naive, {3, 2, 5}, 1, 5), false)),
      encodeRun(runEmulated(rect(4, 2), true))};
  int decoded = 0, refused = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    std::vector<uint8_t> b = corpus[rng() % corpus.size()];
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !b.empty(); ++e) {
      const std::size_t at = rng() % b.size();
      switch (rng() % 6) {
        case 0: b[at] ^= uint8_t(1u << (rng() % 8)); break;
        case 1: b[at] = uint8_t(rng()); break;
        case 2: b.insert(b.begin() + long(at), uint8_t(rng())); break;
        case 3: b.erase(b.begin() + long(at)); break;
        case 4: b.resize(at); break;
        case 5: {  // overwrite 4 bytes with an extreme length or count
          const uint32_t extremes[] = {0u, 1u, 0x7fffffffu, 0xffffffffu, 0x10000u};
          const uint32_t v = extremes[rng() % 5];
          if (at + 4 <= b.size()) std::memcpy(b.data() + at, &v, 4);
          break;
        }
      }
    }
    if (rng() % 2) reseal(b);
    auto r = decodeRun(b, "fuzz");
    if (!r.ok()) {
      ++refused;
      EXPECT_FALSE(r.error().message.empty());
      continue;
    }
    ++decoded;
    const tilescope::Run& run = r->run;
    EXPECT_TRUE(planLaunch(run.config, run.trace.has_value()).ok());
    EXPECT_EQ(run.p.rows, run.config.dims.j);
    const BugEvidence ev = examineRun(run);
    EXPECT_LE(ev.wrongCells.size(), run.p.size());
    if (run.trace) {
      std::ostringstream chrome;
      writeChromeTrace(chrome, run, ChromeTimebase::Logical);
      EXPECT_FALSE(chrome.str().empty());
      // What the app does with an opened file: cut the timeline, analyse the trace.
      const Timeline timeline = Timeline::build(*run.trace);
      const AnalysisReport report = analyzeTrace(*run.trace, *profileByName("h100"));
      EXPECT_GE(report.traffic.flops, 0.0);
    }
  }
  RecordProperty("decoded", decoded);
  std::printf("fuzz: %d of 4000 mutated files decoded\n", decoded);
  // Both paths were walked: mutations the reader refused, and ones it decoded and the gallery,
  // the Chrome export, the timeline and the analysis then read.
  EXPECT_GT(refused, 0);
  EXPECT_GT(decoded, 0);
}

}  // namespace
}  // namespace tilescope
