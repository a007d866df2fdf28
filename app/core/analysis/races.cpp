#include "races.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>
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

HazardType typeOf(bool firstWrites, bool secondWrites) {
  if (firstWrites && !secondWrites) return HazardType::ReadAfterWrite;
  if (!firstWrites && secondWrites) return HazardType::WriteAfterRead;
  return HazardType::WriteAfterWrite;
}

// A value per ordered pair of a word's classes: dense for the few classes a word has, hashed
// beyond (a word touched from hundreds of lines), so the sweeps below do no tree lookups.
template <class T>
class PerClassPair {
 public:
  PerClassPair(std::size_t classes, T empty) : k_(classes), empty_(empty) {
    if (k_ <= kDense) dense_.assign(k_ * k_, empty);
  }
  T& operator()(int p, int q) {
    const std::size_t at = std::size_t(p) * k_ + std::size_t(q);
    return k_ <= kDense ? dense_[at] : sparse_.try_emplace(at, empty_).first->second;
  }
  template <class F>  // f(p, q, value) for every pair given a value
  void forEach(F&& f) const {
    for (std::size_t at = 0; at < dense_.size(); ++at)
      if (dense_[at] != empty_) f(int(at / k_), int(at % k_), dense_[at]);
    for (const auto& [at, v] : sparse_) f(int(at / k_), int(at % k_), v);
  }

 private:
  static constexpr std::size_t kDense = 256;
  std::size_t k_;
  T empty_;
  std::vector<T> dense_;
  std::unordered_map<std::size_t, T> sparse_;
};

// Checks the accesses of one shared word in one barrier interval (given in canonical order)
// without comparing every pair. A pair's group depends only on the two accesses' classes
// (line, phase, read or write) and on which one comes first in program order, so:
//   counts   a sweep in program order keeps, per class, how many accesses came before; each
//            access adds those counts to the groups (earlier class, its class); pairs of one
//            thread are taken back out by the same sweep over each thread's own accesses;
//   examples each group keeps the first pair in canonical order (a, b), a < b, as a search
//            through every pair would find it: a backward sweep finds, for every group, the
//            first a that has a partner b > a in it (per class, the latest and earliest
//            program positions after a, of two different threads, tell whether one exists),
//            then one scan from that a finds the first such b.
// Work: O(n log n + n K + n G) for n accesses of K classes forming G groups; the classes of a
// word are few (a source line, a phase, a direction), so 16,384 stores to one word are a
// handful of linear sweeps instead of 134 million comparisons.
class WordCheck {
 public:
  WordCheck(const Trace& trace, std::map<GroupKey, Hazard>& groups) : trace_(trace), groups_(groups) {}

  // The work this word would cost (compared against the search's budget before it is done).
  uint64_t prepare(const std::vector<Access>& accesses) {
    accesses_ = &accesses;
    const std::size_t n = accesses.size();
    pairwise_ = n <= kPairwiseUpTo;
    if (pairwise_) return uint64_t(n) * n / 2 + 1;
    classes_.clear();
    classOf_.resize(n);
    order_.resize(n);
    position_.resize(n);
    classIndex_.clear();
    bool anyWrite = false;
    for (std::size_t i = 0; i < n; ++i) {
      const Event& e = event(i);
      anyWrite = anyWrite || accesses[i].write;
      const uint64_t key = (uint64_t(e.line) << 17) | (uint64_t(uint16_t(e.phase)) << 1) | uint64_t(accesses[i].write);
      auto [it, added] = classIndex_.try_emplace(key, int(classes_.size()));
      if (added) classes_.push_back({e.line, e.phase, accesses[i].write});
      classOf_[i] = it->second;
      order_[i] = uint32_t(i);
      position_[i] = (int64_t(e.phase) << 32) + accesses[i].position;
    }
    if (!anyWrite) return n;  // two reads never conflict
    return uint64_t(n) * (classes_.size() + 8);
  }

  void check(int interval) {
    interval_ = interval;
    if (pairwise_) return checkPairwise();
    bool anyWrite = false;
    for (const Class& c : classes_) anyWrite = anyWrite || c.write;
    if (!anyWrite) return;
    std::map<GroupKey, uint32_t> firstA;
    findFirstPartners(firstA);
    for (const auto& [key, a] : firstA) {
      auto it = groups_.find(key);
      if (it == groups_.end() || it->second.pairs == 0) findExample(groups_[key], key, a);
    }
    countPairs();
  }

 private:
  struct Class {
    uint16_t line;
    int16_t phase;
    bool write;
  };
  // The two latest (or earliest) program positions seen, of two different threads.
  struct Extreme {
    int64_t value[2];
    int thread[2] = {-1, -1};
    bool better(int64_t a, int64_t b, bool latest) const { return latest ? a > b : a < b; }
    void add(int64_t v, int t, bool latest) {
      if (t == thread[0]) {
        if (better(v, value[0], latest)) value[0] = v;
      } else if (thread[0] < 0 || better(v, value[0], latest)) {
        value[1] = value[0], thread[1] = thread[0];
        value[0] = v, thread[0] = t;
      } else if (thread[1] < 0 || better(v, value[1], latest)) {
        value[1] = v, thread[1] = t;
      }
    }
    const int64_t* excluding(int t) const {
      if (thread[0] >= 0 && thread[0] != t) return &value[0];
      if (thread[1] >= 0 && thread[1] != t) return &value[1];
      return nullptr;
    }
  };

  // A word of a few accesses (a tile slot and the T threads that read it) is checked pair by
  // pair, as the definition reads: fewer steps than building its classes.
  static constexpr std::size_t kPairwiseUpTo = 32;

  // Pairs (a, b), a < b, in order; a read is paired only with the writes after it, so a row of
  // Mds read by 16 threads costs nothing.
  void checkPairwise() {
    const std::vector<Access>& acc = *accesses_;
    writes_.clear();
    for (std::size_t i = 0; i < acc.size(); ++i)
      if (acc[i].write) writes_.push_back(i);
    if (writes_.empty()) return;
    auto visit = [&](std::size_t a, std::size_t b) {
      if (acc[a].thread == acc[b].thread) return;
      const bool aFirst = programPosition(a) <= programPosition(b);
      const std::size_t f = aFirst ? a : b, s = aFirst ? b : a;
      const Event& ef = event(f);
      const Event& es = event(s);
      const HazardType type = typeOf(acc[f].write, acc[s].write);
      Hazard& h = groups_[{interval_, int(type), ef.line, es.line, ef.phase}];
      if (h.pairs++ == 0) setExample(h, type, f, s);
    };
    for (std::size_t a = 0; a < acc.size(); ++a) {
      if (acc[a].write) {
        for (std::size_t b = a + 1; b < acc.size(); ++b) visit(a, b);
      } else {
        for (std::size_t w : writes_)
          if (w > a) visit(a, w);
      }
    }
  }

  void setExample(Hazard& h, HazardType type, std::size_t f, std::size_t s) const {
    const Event& ef = event(f);
    const Event& es = event(s);
    h.type = type;
    h.blockX = ef.blockX;
    h.blockY = ef.blockY;
    h.interval = interval_;
    h.first = {ef.threadX, ef.threadY, ef.line, ef.phase, (*accesses_)[f].write};
    h.second = {es.threadX, es.threadY, es.line, es.phase, (*accesses_)[s].write};
    h.matrix = matrixOf(ef);
    h.sharedRow = ef.sharedRow;
    h.sharedCol = ef.sharedCol;
  }

  const Event& event(std::size_t i) const { return trace_.events[(*accesses_)[i].event]; }
  // Program order inside the interval; ties go to the access earlier in canonical order.
  int64_t programPosition(std::size_t i) const {
    return pairwise_ ? (int64_t(event(i).phase) << 32) + (*accesses_)[i].position : position_[i];
  }
  GroupKey keyOf(int first, int second) const {
    const Class& f = classes_[std::size_t(first)];
    const Class& s = classes_[std::size_t(second)];
    return {interval_, int(typeOf(f.write, s.write)), f.line, s.line, f.phase};
  }
  bool conflicts(int c1, int c2) const { return classes_[std::size_t(c1)].write || classes_[std::size_t(c2)].write; }

  // For every group of this word: the first access a (canonical order) with a partner b > a.
  void findFirstPartners(std::map<GroupKey, uint32_t>& firstA) {
    const std::size_t k = classes_.size();
    PerClassPair<uint32_t> first(k, UINT32_MAX);  // (first class, second class) -> a
    std::vector<Extreme> latest(k), earliest(k);
    std::vector<int> seen;
    std::vector<char> isSeen(k, 0);
    for (std::size_t a = accesses_->size(); a-- > 0;) {
      const int p = classOf_[a];
      const int64_t pa = programPosition(a);
      const int t = (*accesses_)[a].thread;
      for (int q : seen) {
        if (!conflicts(p, q)) continue;
        if (const int64_t* v = latest[std::size_t(q)].excluding(t); v && *v >= pa) first(p, q) = uint32_t(a);
        if (const int64_t* v = earliest[std::size_t(q)].excluding(t); v && *v < pa) first(q, p) = uint32_t(a);
      }
      latest[std::size_t(p)].add(pa, t, true);
      earliest[std::size_t(p)].add(pa, t, false);
      if (!isSeen[std::size_t(p)]) isSeen[std::size_t(p)] = 1, seen.push_back(p);
    }
    // Pairs of classes that share a group (they differ in the second's phase): its first a.
    first.forEach([&](int f, int q, uint32_t a) {
      auto [it, added] = firstA.try_emplace(keyOf(f, q), a);
      if (!added) it->second = std::min(it->second, a);
    });
  }

  // The first b > a that forms a pair of group `key` with a: the group's example.
  void findExample(Hazard& h, const GroupKey& key, uint32_t a) {
    const std::vector<Access>& acc = *accesses_;
    for (std::size_t b = a + 1; b < acc.size(); ++b) {
      if (acc[b].thread == acc[a].thread || !conflicts(classOf_[a], classOf_[b])) continue;
      const bool aFirst = programPosition(a) <= programPosition(b);
      const std::size_t f = aFirst ? a : b, s = aFirst ? b : a;
      if (keyOf(classOf_[f], classOf_[s]) != key) continue;
      setExample(h, HazardType(std::get<1>(key)), f, s);
      return;
    }
  }

  // Pairs per (first class, second class): all pairs in program order, less those of one thread.
  void countPairs() {
    const std::vector<Access>& acc = *accesses_;
    std::sort(order_.begin(), order_.end(),
              [&](uint32_t x, uint32_t y) { return std::pair(position_[x], x) < std::pair(position_[y], y); });
    PerClassPair<int64_t> pairs(classes_.size(), 0);
    std::vector<int64_t> before(classes_.size(), 0);
    std::vector<int> seen;
    auto sweep = [&](std::size_t begin, std::size_t end, int64_t sign) {
      for (std::size_t i = begin; i < end; ++i) {
        const int c = classOf_[order_[i]];
        for (int q : seen)
          if (conflicts(q, c)) pairs(q, c) += sign * before[std::size_t(q)];
        if (before[std::size_t(c)]++ == 0) seen.push_back(c);
      }
      for (int q : seen) before[std::size_t(q)] = 0;
      seen.clear();
    };
    sweep(0, order_.size(), 1);
    std::stable_sort(order_.begin(), order_.end(), [&](uint32_t x, uint32_t y) { return acc[x].thread < acc[y].thread; });
    for (std::size_t i = 0; i < order_.size();) {
      std::size_t j = i;
      while (j < order_.size() && acc[order_[j]].thread == acc[order_[i]].thread) ++j;
      sweep(i, j, -1);
      i = j;
    }
    pairs.forEach([&](int f, int q, int64_t count) {
      if (count > 0) groups_[keyOf(f, q)].pairs += uint64_t(count);
    });
  }

  const Trace& trace_;
  std::map<GroupKey, Hazard>& groups_;
  const std::vector<Access>* accesses_ = nullptr;
  int interval_ = 0;
  bool pairwise_ = false;
  std::vector<std::size_t> writes_;
  std::vector<Class> classes_;
  std::vector<int> classOf_;
  std::vector<uint32_t> order_;
  std::vector<int64_t> position_;  // programPosition of each access (class path)
  std::unordered_map<uint64_t, int> classIndex_;
};

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

// `budget`: the work still allowed (WordCheck::prepare); a word that would exceed it is not
// checked and `capped` is set.
void checkBlock(const Trace& trace, std::size_t begin, std::size_t end, const SharedLayout& layout,
                std::vector<Hazard>& out, uint64_t& budget, bool& capped) {
  const unsigned blockX = trace.launch.blockX;
  const std::size_t threads = std::size_t(trace.launch.blockX) * trace.launch.blockY;
  std::vector<int> interval(threads, 0), position(threads, 0);
  std::map<GroupKey, Hazard> groups;
  WordCheck word(trace, groups);
  IntervalAccesses accesses((layout.bytes + 3) / 4);
  // In canonical order a block's events come barrier interval by barrier interval (trace.h),
  // so the interval of successive accesses never decreases: each one is checked when the
  // next begins.
  int current = 0;
  auto flush = [&] {
    accesses.forEachWord([&](const std::vector<Access>& sameWord) {
      if (capped) return;
      const uint64_t work = word.prepare(sameWord);
      if (work > budget) {
        capped = true;
        return;
      }
      budget -= work;
      word.check(current);
    });
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

HazardSearch searchHazards(const Trace& trace, uint64_t maxWork) {
  HazardSearch search;
  std::vector<Hazard>& out = search.hazards;
  uint64_t budget = maxWork;
  const SharedLayout layout = sharedLayout(trace.launch);
  if (layout.bytes == 0) return search;  // no shared memory, no shared races
  std::size_t begin = 0;
  while (begin < trace.events.size()) {
    std::size_t end = begin;
    const Event& b = trace.events[begin];
    while (end < trace.events.size() && trace.events[end].blockX == b.blockX && trace.events[end].blockY == b.blockY)
      ++end;
    checkBlock(trace, begin, end, layout, out, budget, search.capped);
    begin = end;
  }
  return search;
}

}  // namespace tilescope
