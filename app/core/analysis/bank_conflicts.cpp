#include "bank_conflicts.h"

#include <array>
#include <algorithm>
#include <set>
#include <map>
#include <tuple>

#include "core/trace/memory_layout.h"

namespace tilescope {

// A request is served in phases: the whole warp for 32-bit accesses, a quarter of it (8
// lanes, 128 bytes) for 128-bit ones. Within a phase, lanes asking for one word share it, and
// distinct words in one bank take one wavefront each.
SharedRequest measureSharedRequest(WarpRequest request) {
  SharedRequest s;
  const bool wide = !request.lanes.empty() && request.lanes.front().bytes > kBankWidthBytes;
  const unsigned lanesPerPhase = wide ? kWarpSize / 4 : kWarpSize;
  int wavefronts = 0, phases = 0;
  for (unsigned phase = 0; phase < kWarpSize / lanesPerPhase; ++phase) {
    uint64_t words[kWarpSize * 4];
    int n = 0;
    for (const auto& l : request.lanes) {
      if (l.lane / lanesPerPhase != phase) continue;
      for (uint64_t b = 0; b < l.bytes; b += kBankWidthBytes) words[n++] = (l.address + b) / kBankWidthBytes;
    }
    if (n == 0) continue;
    ++phases;
    std::sort(words, words + n);
    n = int(std::unique(words, words + n) - words);
    std::array<int, kBanks> perBank{};
    for (int i = 0; i < n; ++i) ++perBank[words[i] % kBanks];
    for (int b = 0; b < kBanks; ++b) s.wordsPerBank[b] = uint8_t(std::max(int(s.wordsPerBank[b]), perBank[b]));
    wavefronts += *std::max_element(perBank.begin(), perBank.end());
  }
  s.wavefronts = std::max(1, wavefronts);
  s.minimumWavefronts = std::max(1, phases);
  s.request = std::move(request);
  return s;
}

BankReport analyzeBankConflicts(const Trace& trace) {
  return analyzeBankConflicts(trace, groupWarpRequests(trace, MemorySpace::Shared));
}

BankReport analyzeBankConflicts(const Trace& trace, std::vector<WarpRequest> requests) {
  BankReport report;
  report.requests.reserve(requests.size());
  std::map<std::tuple<int, char, bool>, BankHeat> heat;
  for (auto& r : requests) {
    SharedRequest s = measureSharedRequest(std::move(r));
    const WarpRequest& q = s.request;
    BankTotals& t = q.write ? report.stores : report.loads;
    ++t.requests;
    t.wavefronts += uint64_t(s.wavefronts);
    t.minimumWavefronts += uint64_t(s.minimumWavefronts);
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

RequestPicture pictureOf(const SharedRequest& s) {
  RequestPicture p;
  p.space = MemorySpace::Shared;
  p.array = requestArray(s.request.op, MemorySpace::Shared);
  p.warp = s.request.warp, p.line = s.request.line, p.phase = s.request.phase, p.k = s.request.k;
  p.write = s.request.write;
  for (const RequestLane& l : s.request.lanes) {
    p.lanes.push_back(l.lane);
    p.addresses.push_back(l.address);
    ++p.lanesPerBank[std::size_t(l.address / kBankWidthBytes % kBanks)];
  }
  for (int b = 0; b < kBanks; ++b) p.banks[std::size_t(b)] = s.wordsPerBank[std::size_t(b)];
  p.wavefronts = s.wavefronts;
  return p;
}

}  // namespace tilescope
