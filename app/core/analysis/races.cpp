#include "races.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/trace/memory_layout.h"

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

// Compares every pair of one address's accesses in one interval that includes a write (two
// reads never conflict). Pairs are visited in the order (a, b), a < b, so the example kept
// for each group is the first such pair in canonical order; the writes are listed first so
// read-only stretches (a row of Mds broadcast to 16 threads) cost nothing.
// `budget`: the pairs still to be compared; none once it reaches 0.
void checkAddress(const Trace& trace, int interval, const std::vector<Access>& accesses,
                  std::vector<std::size_t>& writes, std::map<GroupKey, Hazard>& groups, uint64_t& budget) {
  if (budget == 0) return;
  writes.clear();
  for (std::size_t i = 0; i < accesses.size(); ++i)
    if (accesses[i].write) writes.push_back(i);
  if (writes.empty()) return;
  auto visit = [&](const Access& x, const Access& y) {
    if (x.thread == y.thread) return;
    --budget;
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
  };
  for (std::size_t a = 0; a < accesses.size() && budget; ++a) {
    if (accesses[a].write) {
      for (std::size_t b = a + 1; b < accesses.size() && budget; ++b) visit(accesses[a], accesses[b]);
    } else {
      for (std::size_t w : writes)
        if (w > a && budget) visit(accesses[a], accesses[w]);
    }
  }
}

// The accesses of one barrier interval, grouped by shared word in ascending order (so the
// example of each hazard group is its lowest slot) and, inside a word, in canonical order:
// a counting sort over the words of shared memory, stable, linear in the accesses.
class IntervalAccesses {
 public:
  explicit IntervalAccesses(uint32_t words) : count_(std::size_t(words) + 1) {}
  void add(uint32_t word, const Access& a) { pending_.push_back({word, a}); }
  bool empty() const { return pending_.empty(); }

  template <class F>  // f(const std::vector<Access>& accessesOfOneWord)
  void forEachWord(F&& f) {
    std::fill(count_.begin(), count_.end(), 0u);
    for (const auto& p : pending_) ++count_[p.word + 1];
    for (std::size_t w = 1; w < count_.size(); ++w) count_[w] += count_[w - 1];
    sorted_.resize(pending_.size());
    for (const auto& p : pending_) sorted_[count_[p.word]++] = p;  // count_[w] ends at the next word's start
    std::vector<Access>& group = group_;
    for (std::size_t i = 0; i < sorted_.size();) {
      std::size_t j = i;
      group.clear();
      for (; j < sorted_.size() && sorted_[j].word == sorted_[i].word; ++j) group.push_back(sorted_[j].access);
      f(group);
      i = j;
    }
    pending_.clear();
  }

 private:
  struct Pending {
    uint32_t word;
    Access access;
  };
  std::vector<Pending> pending_, sorted_;
  std::vector<uint32_t> count_;
  std::vector<Access> group_;
};

void checkBlock(const Trace& trace, std::size_t begin, std::size_t end, const SharedLayout& layout,
                std::vector<Hazard>& out, uint64_t& budget) {
  const unsigned blockX = trace.launch.blockX;
  const std::size_t threads = std::size_t(trace.launch.blockX) * trace.launch.blockY;
  std::vector<int> interval(threads, 0), position(threads, 0);
  std::map<GroupKey, Hazard> groups;
  std::vector<std::size_t> writes;
  IntervalAccesses accesses((layout.bytes + 3) / 4);
  // In canonical order a block's events come barrier interval by barrier interval (trace.h),
  // so the interval of successive accesses never decreases: each one is checked when the
  // next begins.
  int current = 0;
  auto flush = [&] {
    accesses.forEachWord(
        [&](const std::vector<Access>& sameWord) { checkAddress(trace, current, sameWord, writes, groups, budget); });
  };
  for (std::size_t i = begin; i < end; ++i) {
    const Event& e = trace.events[i];
    const int t = linearThread(e, blockX);
    if (e.threadX >= blockX || std::size_t(t) >= threads) continue;  // not a thread of this launch
    if (e.op == Op::Barrier) {
      ++interval[t];
      position[t] = 0;
      continue;
    }
    const int pos = position[t]++;
    auto address = sharedAddress(e, layout);
    if (!address) continue;
    if (interval[t] != current) {
      flush();
      current = interval[t];
    }
    accesses.add(*address / 4, {uint32_t(i), t, pos, writesShared(e)});
  }
  flush();
  for (auto& [key, h] : groups) out.push_back(h);
}

}  // namespace

std::vector<Hazard> findHazards(const Trace& trace) {
  return searchHazards(trace, UINT64_MAX).hazards;
}

HazardSearch searchHazards(const Trace& trace, uint64_t maxPairs) {
  HazardSearch search;
  std::vector<Hazard>& out = search.hazards;
  uint64_t budget = maxPairs;
  const SharedLayout layout = sharedLayout(trace.launch);
  if (layout.bytes == 0) return search;  // no shared memory, no shared races
  std::size_t begin = 0;
  while (begin < trace.events.size()) {
    std::size_t end = begin;
    const Event& b = trace.events[begin];
    while (end < trace.events.size() && trace.events[end].blockX == b.blockX && trace.events[end].blockY == b.blockY)
      ++end;
    checkBlock(trace, begin, end, layout, out, budget);
    begin = end;
  }
  search.capped = budget == 0;
  return search;
}

}  // namespace tilescope
