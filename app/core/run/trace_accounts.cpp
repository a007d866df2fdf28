// Whether a run's trace accounts for its result (trace_accounts.h).
#include "core/run/trace_accounts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "core/run/reference.h"
#include "core/trace/memory_layout.h"

namespace tilescope {

namespace {

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
uint64_t key(long long row, long long col, bool ofN = false) {
  return (uint64_t(ofN) << 63) | (uint64_t(uint32_t(row)) << 31) | uint64_t(uint32_t(col) & 0x7fffffffu);
}
bool inside(const Matrix& x, long long row, long long col) { return row >= 0 && col >= 0 && row < x.rows && col < x.cols; }
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", v);
  return text;
}
std::string who(const Event& e) {
  return threadName(e.threadX, e.threadY) + " of block (" + std::to_string(e.blockX) + "," + std::to_string(e.blockY) +
         ")";
}

// What a block's recorded writes put into each shared slot (any number of values: a slot is
// reused phase after phase), or `anything` where the trace cannot say (a tensor-map copy, the
// other three slots of a 128-bit write whose source is not a matrix element).
struct Slot {
  std::vector<float> values;
  bool anything = false;
  bool holds(float v) const {
    if (anything) return true;
    for (float x : values)
      if (same(x, v)) return true;
    return false;
  }
};

// One thread's multiply-adds, step by step, and the P elements it stored.
struct ThreadSums {
  double products = 0, magnitude = 0;
  double m = 0, n = 0, absM = 0, absN = 0;
  int phase = -1, k = -1;
  bool skip = false;
  std::vector<std::pair<uint64_t, float>> stored;  // each element it stored, with the value it stored last
  const Event* firstStore = nullptr;
  void flush() {
    products += m * n;
    magnitude += absM * absN;
    m = n = absM = absN = 0;
  }
};

class Accountant {
 public:
  Accountant(const Trace& t, const Matrix& m, const Matrix& n, const Matrix& p, bool freshShared)
      : t_(t), m_(m), n_(n), p_(p), mSpansK_(wideReadOfMSpansK(t.launch)), freshShared_(freshShared) {}

  TraceAccounting run() {
    collectStores();
    const auto& ev = t_.events;
    for (std::size_t from = 0; from < ev.size() && !r_.problem;) {
      std::size_t to = from;
      while (to < ev.size() && ev[to].blockX == ev[from].blockX && ev[to].blockY == ev[from].blockY) ++to;
      block(from, to);
      from = to;
    }
    if (!r_.problem) unstoredElements();
    return r_;
  }

 private:
  const Matrix& input(const Event& e) const { return e.op == Op::LoadN || e.op == Op::ReadN ? n_ : m_; }
  void problem(long long row, long long col, const std::string& why) {
    if (!r_.problem) r_.problem = "the trace does not account for P[" + std::to_string(row) + "][" + std::to_string(col) + "]: " + why;
  }
  static uint64_t threadKey(const Event& e) {
    return uint64_t(e.blockY) << 48 | uint64_t(e.blockX) << 32 | uint64_t(e.threadY) << 16 | e.threadX;
  }
  // A problem of the thread that recorded `e`, named by the first element of P it stores.
  void problemAt(const Event& e, const std::string& why) {
    auto first = firstStores_.find(threadKey(e));
    if (first != firstStores_.end()) problem(first->second->globalRow, first->second->globalCol, why);
    else if (!r_.problem) r_.problem = "the trace does not account for P: " + why;
  }

  // Every recorded store, by element: which values were stored there.
  void collectStores() {
    for (const Event& e : t_.events) {
      if (e.op != Op::StoreP) continue;
      firstStores_.emplace(threadKey(e), &e);
      for (int i = 0; i < eventWidth(e.flags); ++i) {
        Slot& s = stores_[key(e.globalRow, e.globalCol + i)];
        if (i == 0) s.values.push_back(e.value);
        else s.anything = true;
      }
    }
  }

  // Pass 1 of a block: what its writes put into each slot. A write that is no element of its
  // matrix (a boundary check's fill, or an address outside it) must write 0: any other value
  // would let a thread put numbers of its own choosing into a tile and "multiply" them.
  void writes(std::size_t from, std::size_t to, std::unordered_map<uint64_t, Slot>& slots, bool copied[2]) {
    for (std::size_t i = from; i < to && !r_.problem; ++i) {
      const Event& e = t_.events[i];
      if (e.op == Op::CopyM || e.op == Op::CopyN) copied[e.op == Op::CopyN] = true;
      if ((e.op != Op::LoadM && e.op != Op::LoadN) || e.sharedRow < 0) continue;
      const bool fromMatrix = !(e.flags & kZeroFill) && inBounds(e);
      if (!fromMatrix && e.value != 0.0f) {
        const char* of = e.op == Op::LoadN ? "N" : "M";
        problemAt(e, who(e) + " wrote " + number(e.value) + " into an " + of + " tile's slot (" +
                         std::to_string(e.sharedRow) + "," + std::to_string(e.sharedCol) + ") at line " +
                         std::to_string(e.line) + ", which is no element of " + of +
                         " (a boundary fill must write 0), and not 0");
        return;
      }
      for (int w = 0; w < eventWidth(e.flags); ++w) {
        Slot& s = slots[key(e.sharedRow, e.sharedCol + w, e.op == Op::LoadN)];
        if (w == 0) s.values.push_back(e.value);
        else if (fromMatrix && inside(input(e), e.globalRow, e.globalCol + w))
          s.values.push_back(input(e).at(e.globalRow, e.globalCol + w));
        else s.anything = true;
      }
    }
  }

  void block(std::size_t from, std::size_t to) {
    std::unordered_map<uint64_t, Slot> slots;
    bool copied[2] = {false, false};
    writes(from, to, slots, copied);
    std::unordered_map<int, ThreadSums> threads;
    for (std::size_t i = from; i < to && !r_.problem; ++i) {
      const Event& e = t_.events[i];
      ThreadSums& s = threads[int(e.threadY) << 16 | e.threadX];
      if (e.op == Op::StoreP) store(e, s);
      else if (e.op == Op::LoadM || e.op == Op::LoadN) globalRead(e, s);
      else if (e.op == Op::ReadM || e.op == Op::ReadN) sharedRead(e, s, slots, copied[e.op == Op::ReadN]);
      // The workspace (rung 9's split tiles): its values are no element of M or N, so no load
      // rule applies. A thread that left a partial sum there stores less than its products, one
      // that added partials stores more, and the trace cannot tell partial sums from arrival
      // counts (both are workspace elements): its products are not valued here.
      else if (e.op == Op::LoadW || e.op == Op::StoreW) s.skip = true;
      // A tensor-core MMA (rung 10): a lane's sums are the warp's products, made of the 32 lanes'
      // fragments, not of the lane's own reads: not valued here either.
      else if (e.op == Op::MmaA || e.op == Op::MmaB || e.op == Op::MmaC) s.skip = true;
    }
    for (auto& [id, s] : threads) {
      if (r_.problem) return;
      s.flush();
      settle(s);
    }
  }

  // What the thread stored (not what P holds: a wrapped index of another thread may store the
  // same element later; which store P keeps, unstoredElements checks).
  void store(const Event& e, ThreadSums& s) {
    if (!s.firstStore) s.firstStore = &e;
    for (int w = 0; w < eventWidth(e.flags); ++w) {
      if (!inside(p_, e.globalRow, e.globalCol + w)) {
        s.skip = true;  // a store outside P: the bounds report's to tell
        continue;
      }
      const uint64_t k = key(e.globalRow, e.globalCol + w);
      // A 128-bit store records its first value: the others are taken from P.
      const float v = w == 0 ? e.value : p_.at(e.globalRow, e.globalCol + w);
      auto same = std::find_if(s.stored.begin(), s.stored.end(), [&](const auto& x) { return x.first == k; });
      if (same == s.stored.end()) s.stored.push_back({k, v});
      else same->second = v;
    }
  }

  // A read of M or N from global memory: its value must be the element's.
  void globalRead(const Event& e, ThreadSums& s) {
    const Matrix& x = input(e);
    const bool checkable = !(e.flags & kZeroFill) && inBounds(e) && inside(x, e.globalRow, e.globalCol);
    if (checkable && !same(e.value, x.at(e.globalRow, e.globalCol))) {
      // A read of P is recorded as a load (a kernel that reads back what it stored): its value
      // is accounted for by that store, and it is no multiply-add, so it is left out of the
      // thread's products, which are still compared with what it stored (a read of P must not
      // exempt a thread from this check: a kernel could hide its work behind one).
      auto p = stores_.find(key(e.globalRow, e.globalCol));
      if (p != stores_.end() && p->second.holds(e.value)) return;
      problemAt(e, who(e) + " recorded a load of " + (&x == &n_ ? "N" : "M") + "[" + std::to_string(e.globalRow) +
                        "][" + std::to_string(e.globalCol) + "] at line " + std::to_string(e.line) + " as " +
                        number(e.value) + ", but that element is " + number(x.at(e.globalRow, e.globalCol)));
      return;
    }
    if (!isComputeRead(e)) return;
    float v[4] = {e.value, 0, 0, 0};
    const int width = eventWidth(e.flags);
    for (int w = 1; w < width; ++w) {
      if (!checkable || !inside(x, e.globalRow, e.globalCol + w)) s.skip = true;
      else v[w] = x.at(e.globalRow, e.globalCol + w);
    }
    step(e, s, v, width);
  }

  void sharedRead(const Event& e, ThreadSums& s, const std::unordered_map<uint64_t, Slot>& slots, bool copied) {
    const bool ofN = e.op == Op::ReadN;
    const int width = eventWidth(e.flags);
    float v[4] = {e.value, 0, 0, 0};
    for (int w = 0; w < width; ++w) {
      auto slot = slots.find(key(e.sharedRow, e.sharedCol + w, ofN));
      // NaN is the emulator's fill of fresh shared memory: a read before the first write (a
      // race the race check reports) sees it, and it can feed no forged sum.
      if (w == 0 && !copied && freshShared_ && !std::isnan(e.value) &&
          (slot == slots.end() || !slot->second.holds(e.value))) {
        problemAt(e, who(e) + " recorded a read of " + (ofN ? "an N" : "an M") + " tile's slot (" +
                          std::to_string(e.sharedRow) + "," + std::to_string(e.sharedCol) + ") at line " +
                          std::to_string(e.line) + " as " + number(e.value) +
                          ", a value no recorded write of its block put there");
        return;
      }
      if (w == 0) continue;
      if (copied || slot == slots.end() || slot->second.anything || slot->second.values.size() != 1) s.skip = true;
      else v[w] = slot->second.values.front();
    }
    step(e, s, v, width);
  }

  // A compute read's values join its k step (KStepProducts' rule: every M value of a step
  // times every N value).
  void step(const Event& e, ThreadSums& s, const float* v, int width) {
    if (e.k < 0) return;
    const bool ofN = e.op == Op::ReadN || e.op == Op::LoadN;
    if (!ofN && width == 4 && mSpansK_) s.skip = true;  // four k steps in one read: not valued here
    if (e.phase != s.phase || e.k != s.k) {
      s.flush();
      s.phase = e.phase;
      s.k = e.k;
    }
    for (int w = 0; w < width; ++w) {
      (ofN ? s.n : s.m) += v[w];
      (ofN ? s.absN : s.absM) += std::fabs(v[w]);
    }
  }

  // A thread's products against the P elements it stored.
  void settle(const ThreadSums& s) {
    if (s.stored.empty()) return;
    if (s.skip) {
      ++r_.threadsSkipped;
      return;
    }
    ++r_.threadsChecked;
    double held = 0;
    for (const auto& [k, v] : s.stored) held += v;
    if (std::isnan(held) && std::isnan(s.products)) return;
    const double bound = 2.0 * verificationTolerance(m_.cols) * s.magnitude + 1e-6;
    if (std::fabs(held - s.products) <= bound) return;
    problemAt(*s.firstStore, who(*s.firstStore) + " stored " + std::to_string(s.stored.size()) + " element(s) of P, " +
                      number(held) + " in all, but its recorded multiply-adds sum to " + number(s.products) +
                      (s.magnitude == 0 ? " (it recorded none)" : ""));
  }

  // Every element that holds a number was stored, and holds a value a store recorded.
  void unstoredElements() {
    for (int r = 0; r < p_.rows && !r_.problem; ++r)
      for (int c = 0; c < p_.cols && !r_.problem; ++c) {
        const float v = p_.at(r, c);
        auto s = stores_.find(key(r, c));
        if (s == stores_.end() && !std::isnan(v))
          problem(r, c, "it holds " + number(v) + ", but no recorded store wrote it");
        else if (s != stores_.end() && !s->second.holds(v))
          problem(r, c, "it holds " + number(v) + ", a value no recorded store wrote there");
      }
  }

  const Trace& t_;
  const Matrix &m_, &n_, &p_;
  bool mSpansK_;
  bool freshShared_;
  std::unordered_map<uint64_t, Slot> stores_;
  std::unordered_map<uint64_t, const Event*> firstStores_;  // by block and thread
  TraceAccounting r_;
};

}  // namespace

TraceAccounting accountForP(const Trace& trace, const Matrix& m, const Matrix& n, const Matrix& p, bool freshShared) {
  return Accountant(trace, m, n, p, freshShared).run();
}

}  // namespace tilescope
