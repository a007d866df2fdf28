#include "coalescing.h"

#include <algorithm>
#include <set>

#include "core/trace/memory_layout.h"

namespace tilescope {

namespace {
// Distinct units (sectors, lines, words) the lanes' bytes touch; a 128-bit access touches
// four words (at most 32 lanes x 4: sort and count).
int distinctUnits(const std::vector<RequestLane>& lanes, uint64_t unit) {
  uint64_t keys[kWarpSize * 4];
  int n = 0;
  for (const auto& l : lanes)
    for (uint64_t b = 0; b < l.bytes && n < int(kWarpSize * 4); b += kElementBytes) keys[n++] = (l.address + b) / unit;
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
  return analyzeCoalescing(groupWarpRequests(trace, MemorySpace::Global));
}

CoalescingReport analyzeCoalescing(std::vector<WarpRequest> requests) {
  CoalescingReport report;
  report.requests.reserve(requests.size());
  for (auto& r : requests) {
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

RequestPicture pictureOf(const GlobalRequest& g) {
  RequestPicture p;
  p.space = MemorySpace::Global;
  p.array = requestArray(g.request.op, MemorySpace::Global);
  p.warp = g.request.warp, p.line = g.request.line, p.phase = g.request.phase, p.k = g.request.k;
  p.write = g.request.write;
  std::set<uint64_t> sectors, lines;
  for (const RequestLane& l : g.request.lanes) {
    p.lanes.push_back(l.lane);
    p.addresses.push_back(l.address);
    for (uint64_t b = l.address; b < l.address + l.bytes; b += 4) sectors.insert(b / kSectorBytes), lines.insert(b / kLineBytes);
  }
  p.sectors.assign(sectors.begin(), sectors.end());
  p.lines.assign(lines.begin(), lines.end());
  p.bytesUsed = g.bytesUsed;
  p.bytesMoved = g.sectors * int(kSectorBytes);
  return p;
}

}  // namespace tilescope
