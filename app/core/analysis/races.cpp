#include "races.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "memory_layout.h"

namespace tilescope {

std::string_view hazardName(HazardType t) {
  switch (t) {
    case HazardType::ReadAfterWrite: return "RAW";
    case HazardType::WriteAfterRead: return "WAR";
    case HazardType::WriteAfterWrite: return "WAW";
  }
  return "?";
}

namespace {

struct Access {
  uint32_t event;
  int thread;
  int position;  // events of this thread since its last barrier
  bool write;
};

using GroupKey = std::tuple<int, int, int, int, int>;  // interval, type, first line, second line, first phase

// Compares every pair of one address's accesses in one interval.
void checkAddress(const Trace& trace, int interval, const std::vector<Access>& accesses,
                  std::map<GroupKey, Hazard>& groups) {
  for (std::size_t a = 0; a < accesses.size(); ++a) {
    for (std::size_t b = a + 1; b < accesses.size(); ++b) {
      const Access& x = accesses[a];
      const Access& y = accesses[b];
      if (x.thread == y.thread || (!x.write && !y.write)) continue;
      const Event& ex = trace.events[x.event];
      const Event& ey = trace.events[y.event];
      // Program order inside the interval decides which access is "first".
      const bool xFirst = std::tie(ex.phase, x.position) <= std::tie(ey.phase, y.position);
      const Access& f = xFirst ? x : y;
      const Access& s = xFirst ? y : x;
      const Event& ef = trace.events[f.event];
      const Event& es = trace.events[s.event];
      HazardType type = HazardType::WriteAfterWrite;
      if (f.write && !s.write) type = HazardType::ReadAfterWrite;
      else if (!f.write && s.write) type = HazardType::WriteAfterRead;
      Hazard& h = groups[{interval, int(type), ef.line, es.line, ef.phase}];
      if (h.pairs == 0) {
        h.type = type;
        h.blockX = ef.blockX;
        h.blockY = ef.blockY;
        h.interval = interval;
        h.first = {ef.threadX, ef.threadY, ef.line, ef.phase, f.write};
        h.second = {es.threadX, es.threadY, es.line, es.phase, s.write};
        h.matrix = matrixOf(ef);
        h.sharedRow = ef.sharedRow;
        h.sharedCol = ef.sharedCol;
      }
      ++h.pairs;
    }
  }
}

void checkBlock(const Trace& trace, std::size_t begin, std::size_t end, const SharedLayout& layout,
                std::vector<Hazard>& out) {
  const unsigned blockX = trace.launch.blockX;
  const std::size_t threads = std::size_t(trace.launch.blockX) * trace.launch.blockY;
  std::vector<int> interval(threads, 0), position(threads, 0);
  // interval -> shared address -> accesses, in canonical order
  std::map<int, std::map<uint32_t, std::vector<Access>>> byInterval;  // sorted: the example is the lowest slot
  for (std::size_t i = begin; i < end; ++i) {
    const Event& e = trace.events[i];
    const int t = linearThread(e, blockX);
    if (e.op == Op::Barrier) {
      ++interval[t];
      position[t] = 0;
      continue;
    }
    const int pos = position[t]++;
    auto address = sharedAddress(e, layout);
    if (!address) continue;
    byInterval[interval[t]][*address].push_back({uint32_t(i), t, pos, writesShared(e)});
  }
  std::map<GroupKey, Hazard> groups;
  for (const auto& [iv, addresses] : byInterval)
    for (const auto& [address, accesses] : addresses) checkAddress(trace, iv, accesses, groups);
  for (auto& [key, h] : groups) out.push_back(h);
}

}  // namespace

std::vector<Hazard> findHazards(const Trace& trace) {
  std::vector<Hazard> out;
  const SharedLayout layout = sharedLayout(trace.launch);
  if (layout.bytes == 0) return out;  // no shared memory, no shared races
  std::size_t begin = 0;
  while (begin < trace.events.size()) {
    std::size_t end = begin;
    const Event& b = trace.events[begin];
    while (end < trace.events.size() && trace.events[end].blockX == b.blockX && trace.events[end].blockY == b.blockY)
      ++end;
    checkBlock(trace, begin, end, layout, out);
    begin = end;
  }
  return out;
}

}  // namespace tilescope
