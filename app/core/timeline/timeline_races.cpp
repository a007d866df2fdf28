// The Timeline's race and running-sum index: which step each stale read happens in, which
// thread stores each P element, and every thread's Pvalue after each of its k steps (fig. 5.8's
// `Pvalue +=` column). Built once per run with the timeline.
#include <algorithm>

#include "core/timeline/block_geometry.h"
#include "core/timeline/timeline.h"
#include "kernels/trace/step_rules.h"

namespace tilescope {
namespace {

// Running sums are kept for traces up to this many events (a k step per thread and phase:
// 64^3 has 262 k steps per thread... 2 M events); past it the tooltip has no partial sum.
constexpr std::size_t kMaxSumEvents = std::size_t(1) << 23;

}  // namespace

void Timeline::buildRaceIndex() {
  const Trace& trace = *trace_;
  const KernelLaunch& L = trace.launch;
  const auto& events = trace.events;
  const std::size_t threads = std::size_t(L.gridX) * L.gridY * std::size_t(threadsPerBlock_);
  auto globalThread = [&](const Event& e) {
    return (std::size_t(e.blockY) * L.gridX + e.blockX) * std::size_t(threadsPerBlock_) +
           std::size_t(linearThread(e, L.blockX));
  };
  cellThread_.assign(pStoreEvent_.size(), -1);
  for (std::size_t cell = 0; cell < pStoreEvent_.size(); ++cell)
    if (pStoreEvent_[cell] >= 0) cellThread_[cell] = int64_t(globalThread(events[std::size_t(pStoreEvent_[cell])]));
  staleStep_.assign(stale_.size(), 0);
  firstStale_.assign(stale_.empty() ? 0 : threads, -1);
  const bool sums = events.size() <= kMaxSumEvents;
  if (stale_.empty() && !sums) return;

  // A thread's k step is a pair of reads, one M and one N value, in program order; a step that
  // reads more (a register tile's outer product) has no single Pvalue, so no sums are kept.
  struct Open {
    std::size_t thread = SIZE_MAX;
    int phase = 0, k = -1, step = 0, m = 0, n = 0;
    float mValue = 0, nValue = 0;
  } open;
  std::vector<float> acc(sums ? threads : 0, 0.0f);
  // Each k step's sum with its thread, in canonical order; at most one per multiply-add.
  std::vector<uint32_t> entryThread;
  std::vector<PartialSum> entries;
  if (sums) {
    const uint64_t fmas = countersAt(end()).fmas;
    entryThread.reserve(std::size_t(fmas));
    entries.reserve(std::size_t(fmas));
  }
  bool pairs = sums;
  auto close = [&] {
    if (open.thread == SIZE_MAX || !pairs) return;
    if (open.m != 1 || open.n != 1) {
      pairs = false;
      return;
    }
    float& pvalue = acc[open.thread];
    pvalue += open.mValue * open.nValue;
    entryThread.push_back(uint32_t(open.thread));
    entries.push_back(PartialSum{open.step, open.mValue, open.nValue, pvalue});
  };
  std::size_t nextStale = 0;
  forEachEventStep([&](std::size_t i, int step) {
    const Event& e = events[i];
    if (nextStale < stale_.size() && stale_[nextStale].readEvent == i) {
      for (; nextStale < stale_.size() && stale_[nextStale].readEvent == i; ++nextStale) {
        staleStep_[nextStale] = step;
        int64_t& first = firstStale_[globalThread(e)];
        if (first < 0) first = int64_t(nextStale);
      }
    }
    if (!pairs || !isComputeRead(e) || e.k < 0) return;
    const std::size_t thread = globalThread(e);
    if (thread != open.thread || e.phase != open.phase || e.k != open.k) {
      close();
      open = Open{thread, e.phase, e.k, step};
    }
    const bool isN = e.op == Op::ReadN || e.op == Op::LoadN;
    if (eventWidth(e.flags) != 1) open.m = open.n = 2;  // a 128-bit read: not one pair
    (isN ? open.n : open.m) += 1;
    (isN ? open.nValue : open.mValue) = e.value;
  });
  close();
  if (!pairs) return;
  // Canonical order keeps each thread's program order, so a counting sort by thread (stable)
  // keeps its k steps in order.
  sumBegin_.assign(threads + 1, 0);
  for (const uint32_t t : entryThread) ++sumBegin_[std::size_t(t) + 1];
  for (std::size_t t = 0; t < threads; ++t) sumBegin_[t + 1] += sumBegin_[t];
  std::vector<uint32_t> next(sumBegin_.begin(), sumBegin_.end() - 1);
  sums_.resize(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) sums_[next[entryThread[i]]++] = entries[i];
}

bool Timeline::staleDone(Cursor c, std::size_t i) const {
  const Event& r = trace_->events[stale_[i].readEvent];
  return done(normalize(c), staleStep_[i], linearThread(r, trace_->launch.blockX));
}

std::vector<std::size_t> Timeline::staleAt(Cursor c, int bx, int by) const {
  std::vector<std::size_t> out;
  if (stale_.empty()) return out;
  c = normalize(c);
  const auto [first, last] = blockRange(bx, by);
  const int interval = step(c.step).interval;
  auto from = std::lower_bound(stale_.begin(), stale_.end(), first,
                               [](const RacedRead& s, std::size_t i) { return s.readEvent < i; });
  for (auto it = from; it != stale_.end() && it->readEvent < last; ++it) {
    const std::size_t i = std::size_t(it - stale_.begin());
    if (step(staleStep_[i]).interval == interval && staleDone(c, i)) out.push_back(i);
  }
  return out;
}

int64_t Timeline::spoiledBy(Cursor c, int row, int col) const {
  if (firstStale_.empty()) return -1;
  const int64_t thread = cellThread_[std::size_t(row) * std::size_t(pCols_) + std::size_t(col)];
  if (thread < 0) return -1;
  const int64_t first = firstStale_[std::size_t(thread)];
  return first >= 0 && staleDone(c, std::size_t(first)) ? first : -1;
}

std::span<const PartialSum> Timeline::partialSums(int row, int col) const {
  if (sumBegin_.empty()) return {};
  const int64_t thread = cellThread_[std::size_t(row) * std::size_t(pCols_) + std::size_t(col)];
  if (thread < 0) return {};
  return std::span<const PartialSum>(sums_).subspan(sumBegin_[std::size_t(thread)],
                                                   sumBegin_[std::size_t(thread) + 1] - sumBegin_[std::size_t(thread)]);
}

const PartialSum* Timeline::runningSum(Cursor c, int row, int col) const {
  const auto sums = partialSums(row, col);
  if (sums.empty()) return nullptr;
  c = normalize(c);
  const std::size_t cell = std::size_t(row) * std::size_t(pCols_) + std::size_t(col);
  const int thread = linearThread(trace_->events[std::size_t(pStoreEvent_[cell])], trace_->launch.blockX);
  const PartialSum* last = nullptr;
  for (const PartialSum& p : sums) {
    if (!done(c, p.step, thread)) break;
    last = &p;
  }
  return last;
}

}  // namespace tilescope
