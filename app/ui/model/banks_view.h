// What the Bank conflicts panel shows for one warp at one cursor, as plain data (issue 25):
// the run's totals in words, and this step's shared requests of the warp (the most wavefronts
// first), each with its heading, its passes over the 32 banks (every distinct word and the
// lanes asking for it) and each pass in words. Built once per cursor move or warp change
// (state/view_cache.h) from the run's analysis; the panel lays it out. No ImGui here.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/bank_conflicts.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

// One pass of a request over the banks: per bank, its distinct words and the lanes of each.
struct BankPass {
  int firstLane = 0, lastLane = 31;
  std::array<std::map<uint64_t, std::vector<int>>, kBanks> words;
  std::string text;    // the pass in words: its broadcasts and its fullest bank
  int tallest() const;
};

struct BankRequestView {
  RequestPicture picture;  // what the layout file records
  std::string heading;     // "read of Mds, line 27: 32 lanes -> 2 wavefronts (1 conflict)"
  std::vector<BankPass> passes;
};

struct BanksOptions {
  int warp = 0;
  std::weak_ptr<const AnalysisReport> analysis;  // by identity: it arrives after the run
  bool operator==(const BanksOptions& o) const {
    return warp == o.warp && !analysis.owner_before(o.analysis) && !o.analysis.owner_before(analysis);
  }
};

struct BanksView {
  bool noShared = false;  // the kernel makes no shared request
  std::string totals;     // all shared loads and stores of the run
  std::vector<BankRequestView> requests;  // at most four, the most wavefronts first
  std::string none;       // when the warp makes no shared access at this step
};

BanksView banksView(const LoadedRun& run, const AnalysisReport& analysis, int bx, int by, Cursor cursor, int warp);

}  // namespace tilescope::ui
