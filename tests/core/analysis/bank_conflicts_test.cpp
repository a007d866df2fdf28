// Bank conflicts: 32 banks of 4 bytes; wavefronts = the most distinct words any one bank
// must deliver, broadcast free. Hand-computed for single requests and for the kernels.
#include <gtest/gtest.h>

#include "analysis_support.h"
#include "core/analysis/bank_conflicts.h"

namespace tilescope {
namespace {

using analysis_testing::config;
using analysis_testing::traced;

WarpRequest wordsAt(int lanes, auto wordOfLane) {
  WarpRequest r;
  for (int i = 0; i < lanes; ++i) r.lanes.push_back({uint8_t(i), 0, uint64_t(wordOfLane(i)) * 4});
  return r;
}

TEST(BankConflicts, OneRequest_ConsecutiveWords_OneWavefront) {
  EXPECT_EQ(measureSharedRequest(wordsAt(32, [](int i) { return 100 + i; })).wavefronts, 1);
}

TEST(BankConflicts, OneRequest_AllLanesOneWord_IsABroadcast) {
  EXPECT_EQ(measureSharedRequest(wordsAt(32, [](int) { return 7; })).wavefronts, 1);
}

TEST(BankConflicts, OneRequest_StrideTwoWords_TwoWay) {
  // Lanes 0 and 16 both land in bank 0 (words 0 and 32), and so on.
  EXPECT_EQ(measureSharedRequest(wordsAt(32, [](int i) { return 2 * i; })).wavefronts, 2);
}

TEST(BankConflicts, OneRequest_StrideOfARow32_ThirtyTwoWay) {
  const SharedRequest s = measureSharedRequest(wordsAt(32, [](int i) { return 32 * i + 5; }));
  EXPECT_EQ(s.wavefronts, 32);
  EXPECT_EQ(s.wordsPerBank[5], 32);
}

TEST(BankConflicts, OneRequest_StrideOfAPaddedRow33_ConflictFree) {
  EXPECT_EQ(measureSharedRequest(wordsAt(32, [](int i) { return 33 * i; })).wavefronts, 1);
}

TEST(BankConflicts, OneRequest_TwoWordsPerBankWithBroadcasts_TwoWay) {
  // 16 lanes read word 0, 16 lanes read word 64: same bank, two words.
  EXPECT_EQ(measureSharedRequest(wordsAt(32, [](int i) { return i < 16 ? 0 : 64; })).wavefronts, 2);
}

// Fig. 5.9's layout is conflict-free for every tile width: the k loop's Mds[ty][kk] is a
// broadcast per row (rows of one warp differ by T words, in different banks) and
// Nds[kk][tx] walks consecutive words; the tile writes are consecutive too.
TEST(BankConflicts, TiledFamily_AnyTile_ConflictFree) {
  for (int t : {2, 4, 8, 12, 16, 32}) {
    for (KernelId id : {KernelId::Tiled, KernelId::TiledDynamic}) {  // tiled-transposed: below
      SCOPED_TRACE(std::to_string(t));
      const tilescope::Run run = traced(config(id, {2 * t, 2 * t, 2 * t}, t));
      const BankReport b = analyzeBankConflicts(*run.trace);
      EXPECT_EQ(b.loads.conflicts(), 0u);
      EXPECT_EQ(b.stores.conflicts(), 0u);
      // (2x2 blocks) x 2 phases x warps x (T reads of M + T reads of N)
      const uint64_t warps = uint64_t((t * t + 31) / 32);
      EXPECT_EQ(b.loads.requests, 4u * 2 * warps * 2 * uint64_t(t));
    }
  }
}

// tiled-transposed at T = 32, one block, one phase. Each warp is one row ty:
//   reads:  Mds[ty][kk] broadcast (1),  Nds[tx][kk] 32 words 32 apart, one bank (32)
//   writes: Mds[ty][tx] consecutive (1), Nds[tx][ty] 32 words 32 apart (32)
// With pad 1 the rows are 33 words apart and every access is conflict-free.
TEST(BankConflicts, TiledTransposed_T32_dims_32x32x32_Pad0Then1) {
  const tilescope::Run run0 = traced(config(KernelId::TiledTransposed, {32, 32, 32}, 32, 16, 16, 0));
  const BankReport b0 = analyzeBankConflicts(*run0.trace);
  EXPECT_EQ(b0.loads.requests, 32u * 32 * 2);
  EXPECT_EQ(b0.loads.wavefronts, 32u * 32 * 1 + 32u * 32 * 32);
  EXPECT_EQ(b0.stores.requests, 32u * 2);
  EXPECT_EQ(b0.stores.wavefronts, 32u * 1 + 32u * 32);

  const tilescope::Run run1 = traced(config(KernelId::TiledTransposed, {32, 32, 32}, 32, 16, 16, 1));
  const BankReport b1 = analyzeBankConflicts(*run1.trace);
  EXPECT_EQ(b1.loads.requests, 32u * 32 * 2);
  EXPECT_EQ(b1.loads.wavefronts, 32u * 32 * 2);
  EXPECT_EQ(b1.stores.wavefronts, 32u * 2);
  EXPECT_TRUE(run0.verification.passed && run1.verification.passed);  // conflicts are slow, not wrong
}

// T = 16: a warp is rows ty = 2w, 2w+1. Nds[tx][kk] with pad 0: words 16 tx + kk fall in
// 2 banks, 8 words each (8 wavefronts); pad 1: 17 tx + kk, 16 banks (1). The transposed
// write Nds[tx][ty] is 8-way at pad 0 and still 2-way at pad 1: 17 tx + ty for ty = a and
// a + 1 meet once, in bank a (tx = 0, ty = a and tx = 15, ty = a + 1: 255 + a + 1 = a mod 32).
// Padding has a price here: the row-wise write Mds[ty][tx], conflict-free at pad 0, becomes
// 2-way at pad 1 (row a + 1 starts 17 words later, so its last lane wraps onto row a's bank).
TEST(BankConflicts, TiledTransposed_T16_dims_16x16x16_Pad0Then1) {
  struct Expect { int pad; uint64_t nRead, mWrite, nWrite; };
  for (Expect e : {Expect{0, 8, 1, 8}, Expect{1, 1, 2, 2}}) {
    SCOPED_TRACE("pad " + std::to_string(e.pad));
    const tilescope::Run run = traced(config(KernelId::TiledTransposed, {16, 16, 16}, 16, 16, 16, e.pad));
    const BankReport b = analyzeBankConflicts(*run.trace);
    const uint64_t warps = 8;
    EXPECT_EQ(b.loads.requests, warps * 16 * 2);
    EXPECT_EQ(b.loads.wavefronts, warps * 16 * (1 + e.nRead));  // Mds[ty][kk] is a broadcast per row
    EXPECT_EQ(b.stores.requests, warps * 2);
    EXPECT_EQ(b.stores.wavefronts, warps * (e.mWrite + e.nWrite));
  }
}

// One block and one phase (k = T), so the heat map has exactly one row for the reads of Nds.
TEST(BankConflicts, HeatMap_TiledTransposed_T32_OneBankCarriesTheNTile) {
  const tilescope::Run run = traced(config(KernelId::TiledTransposed, {32, 32, 32}, 32, 16, 16, 0));
  const BankReport b = analyzeBankConflicts(*run.trace);
  int nReadRows = 0;
  for (const BankHeat& h : b.heat) {
    if (h.matrix != 'N' || h.write) continue;
    ++nReadRows;
    // Read Nds[tx][kk]: request kk puts all 32 words in bank kk.
    for (int bank = 0; bank < kBanks; ++bank) EXPECT_EQ(h.maxWords[bank], 32);
    EXPECT_EQ(h.requests, 32u * 32);  // 32 warps (rows ty) x 32 k steps
    EXPECT_EQ(h.wavefronts, 32u * 32 * 32);
  }
  EXPECT_EQ(nReadRows, 1);
}

}  // namespace
}  // namespace tilescope
