#include "coalescing.h"

#include <algorithm>

#include "memory_layout.h"

namespace tilescope {

namespace {
// Distinct values of addr / unit among a request's lanes (at most 32: sort and count).
int distinctUnits(const std::vector<RequestLane>& lanes, uint64_t unit) {
  uint64_t keys[kWarpSize];
  int n = 0;
  for (const auto& l : lanes) keys[n++] = l.address / unit;
  std::sort(keys, keys + n);
  return int(std::unique(keys, keys + n) - keys);
}
}  // namespace

void CoalescingTotals::add(const GlobalRequest& r) {
  ++requests;
  sectors += uint64_t(r.sectors);
  lines += uint64_t(r.lines);
  bytesUsed += uint64_t(r.bytesUsed);
}

GlobalRequest measureGlobalRequest(WarpRequest request) {
  GlobalRequest g;
  g.sectors = distinctUnits(request.lanes, kSectorBytes);
  g.lines = distinctUnits(request.lanes, kLineBytes);
  g.bytesUsed = distinctUnits(request.lanes, kElementBytes) * int(kElementBytes);
  g.request = std::move(request);
  return g;
}

CoalescingReport analyzeCoalescing(const Trace& trace) {
  CoalescingReport report;
  for (auto& r : groupWarpRequests(trace, MemorySpace::Global)) {
    GlobalRequest g = measureGlobalRequest(std::move(r));
    if (g.request.write) {
      report.stores.add(g);
    } else {
      report.loads.add(g);
      (g.request.op == Op::LoadM ? report.loadsM : report.loadsN).add(g);
    }
    report.requests.push_back(std::move(g));
  }
  return report;
}

}  // namespace tilescope
