#include "bank_conflicts.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "memory_layout.h"

namespace tilescope {

SharedRequest measureSharedRequest(WarpRequest request) {
  SharedRequest s;
  uint64_t words[kWarpSize];
  int n = 0;
  for (const auto& l : request.lanes) words[n++] = l.address / kBankWidthBytes;
  std::sort(words, words + n);
  n = int(std::unique(words, words + n) - words);  // lanes asking for one word share it
  for (int i = 0; i < n; ++i) ++s.wordsPerBank[words[i] % kBanks];
  s.wavefronts = std::max(1, int(*std::max_element(s.wordsPerBank.begin(), s.wordsPerBank.end())));
  s.request = std::move(request);
  return s;
}

BankReport analyzeBankConflicts(const Trace& trace) {
  BankReport report;
  std::map<std::tuple<int, char, bool>, BankHeat> heat;
  for (auto& r : groupWarpRequests(trace, MemorySpace::Shared)) {
    SharedRequest s = measureSharedRequest(std::move(r));
    const WarpRequest& q = s.request;
    BankTotals& t = q.write ? report.stores : report.loads;
    ++t.requests;
    t.wavefronts += uint64_t(s.wavefronts);
    const char matrix = matrixOf(trace.events[q.lanes.front().event]);
    BankHeat& h = heat[{q.phase, matrix, q.write}];
    h.phase = q.phase;
    h.matrix = matrix;
    h.write = q.write;
    ++h.requests;
    h.wavefronts += uint64_t(s.wavefronts);
    for (int b = 0; b < kBanks; ++b) {
      h.words[b] += s.wordsPerBank[b];
      h.maxWords[b] = std::max(h.maxWords[b], s.wordsPerBank[b]);
    }
    report.requests.push_back(std::move(s));
  }
  for (auto& [key, h] : heat) report.heat.push_back(h);
  return report;
}

}  // namespace tilescope
