// The ladder from fig. 5.9 to cuBLAS (issue 10): every kernel whose facts give it a rung
// (KernelInfo::ladderRung > 0), launched as its facts say (KernelInfo::ladderLaunch), next to
// cuBLAS SGEMM at each size, and each rung's speed as a percentage of cuBLAS. A percentage
// only ever pairs a rung with the cuBLAS result of the same sweep at the same dims, both
// verified: a rung that failed verification, or a size whose cuBLAS did, shows none.
// A new rung needs nothing here: its kernel file's facts put it on the ladder.
#pragma once
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/timing/timing.h"

namespace tilescope {

class JsonWriter;

// N = 256, 512, ..., 8192: the sizes of `tilescope-cli bench --preset ladder` and the app's sweep.
inline constexpr std::array<int, 6> kLadderSizes{256, 512, 1024, 2048, 4096, 8192};

// The rungs, in rung order (equal rungs by KernelId).
std::vector<KernelId> ladderKernels();
// Rung `id` on N x N x N matrices, launched as its ladderLaunch says.
TimingCase ladderCase(KernelId id, int n);
// Whether `c` is a rung at its ladder launch (tiled T = 32 is; tiled T = 16 is not).
bool isLadderCase(const TimingCase& c);
// Every rung and then cuBLAS at each size, size-major (consecutive cases share their inputs).
std::vector<TimingCase> ladderCases(const std::vector<int>& sizes = {kLadderSizes.begin(), kLadderSizes.end()});

// The verified cuBLAS result of `report` with r's dims from r's sweep, if there is one.
const TimingResult* cublasPartner(const TimingReport& report, const TimingResult& r);
// 100 x r's GFLOP/s / its cuBLAS partner's; nullopt unless both verified.
std::optional<double> percentOfCublas(const TimingReport& report, const TimingResult& r);

// The ladder part of a report, pointing into it: one row per rung with a result, one column
// per size with a rung or cuBLAS result (the newest result of a case wins).
struct LadderCell {
  const TimingResult* result = nullptr;  // null: not timed at this size
  std::optional<double> percent;         // of cuBLAS: set only when both verified
};
struct LadderRow {
  int rung = 0;
  KernelId kernel = KernelId::Tiled;
  std::string label;               // TimingCase::label(): "tiled T=32"
  std::vector<LadderCell> cells;   // one per LadderTable::sizes
};
struct LadderTable {
  std::vector<int> sizes;                    // ascending
  std::vector<LadderRow> rows;               // rung order
  std::vector<const TimingResult*> cublas;   // per size; null where cuBLAS was not timed
  bool empty() const { return rows.empty(); }
};
LadderTable ladderTable(const TimingReport& report);

// `tilescope-cli bench --preset ladder`: each size's rungs and cuBLAS with time, GFLOP/s and
// percentage of cuBLAS, then the percentages as one rung-by-size grid.
void writeLadderText(std::ostream& out, const TimingReport& report);
// The same as a JSON array (the caller has written its key): one object per rung and size
// with "percent_of_cublas" (absent when there is none) and the cuBLAS GFLOP/s it is taken from.
void writeLadderJson(JsonWriter& json, const TimingReport& report);

}  // namespace tilescope
