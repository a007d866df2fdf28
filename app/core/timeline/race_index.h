// Internal to Timeline::build: the race and running-sum index (which step each stale read
// happens in, each thread's first stale read, every thread's Pvalue after each of its k steps),
// filled event by event in the same walk over the trace that counts the steps, so the trace is
// read once for both. timeline_races.cpp answers the queries from what it leaves.
#pragma once
#include <cstdint>
#include <vector>

#include "core/timeline/raced_reads.h"
#include "core/timeline/timeline.h"
#include "kernels/trace/step_rules.h"

namespace tilescope::timeline_detail {

// Running sums are kept for traces up to this many events (a k step per thread and phase:
// 64^3 has 262 k steps per thread... 2 M events); past it the tooltip has no partial sum.
inline constexpr std::size_t kMaxSumEvents = std::size_t(1) << 23;

class RaceIndexBuilder {
 public:
  // `threads`: the grid's threads; staleStep and firstStale are the Timeline's, sized here.
  RaceIndexBuilder(const std::vector<RacedRead>& stale, std::size_t threads, std::size_t events,
                   std::vector<int>& staleStep, std::vector<int64_t>& firstStale)
      : stale_(stale), staleStep_(staleStep), firstStale_(firstStale), pairs_(events <= kMaxSumEvents) {
    staleStep_.assign(stale_.size(), 0);
    firstStale_.assign(stale_.empty() ? 0 : threads, -1);
    if (!pairs_) return;
    acc_.assign(threads, 0.0f);
    // A sum closes a pair of reads: at most one per two events, so the lists never grow.
    entryThread_.reserve(events / 2);
    entries_.reserve(events / 2);
  }

  // Event i of the trace, in canonical order, in step `step`, by global thread `thread`.
  void visit(std::size_t i, const Event& e, int step, std::size_t thread) {
    if (nextStale_ < stale_.size() && stale_[nextStale_].readEvent == i) {
      for (; nextStale_ < stale_.size() && stale_[nextStale_].readEvent == i; ++nextStale_) {
        staleStep_[nextStale_] = step;
        int64_t& first = firstStale_[thread];
        if (first < 0) first = int64_t(nextStale_);
      }
    }
    // A thread's k step is a pair of reads, one M and one N value, in program order; a step
    // that reads more (a register tile's outer product) has no single Pvalue: no sums then.
    if (!pairs_ || !isComputeRead(e) || e.k < 0) return;
    if (thread != open_.thread || e.phase != open_.phase || e.k != open_.k) {
      close();
      open_ = Open{thread, e.phase, e.k, step};
    }
    const bool isN = e.op == Op::ReadN || e.op == Op::LoadN;
    if (eventWidth(e.flags) != 1) open_.m = open_.n = 2;  // a 128-bit read: not one pair
    (isN ? open_.n : open_.m) += 1;
    (isN ? open_.nValue : open_.mValue) = e.value;
  }

  // The k steps' sums grouped by thread (sumBegin: threads + 1 entries), or both left empty
  // when some k step is not one M value times one N value.
  void finish(std::size_t threads, std::vector<uint32_t>& sumBegin, std::vector<PartialSum>& sums) {
    close();
    if (!pairs_) return;
    // Canonical order keeps each thread's program order, so a counting sort by thread
    // (stable) keeps its k steps in order.
    sumBegin.assign(threads + 1, 0);
    for (const uint32_t t : entryThread_) ++sumBegin[std::size_t(t) + 1];
    for (std::size_t t = 0; t < threads; ++t) sumBegin[t + 1] += sumBegin[t];
    std::vector<uint32_t> next(sumBegin.begin(), sumBegin.end() - 1);
    sums.resize(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) sums[next[entryThread_[i]]++] = entries_[i];
  }

 private:
  struct Open {
    std::size_t thread = SIZE_MAX;
    int phase = 0, k = -1, step = 0, m = 0, n = 0;
    float mValue = 0, nValue = 0;
  };
  void close() {
    if (open_.thread == SIZE_MAX || !pairs_) return;
    if (open_.m != 1 || open_.n != 1) {
      pairs_ = false;
      return;
    }
    float& pvalue = acc_[open_.thread];
    pvalue += open_.mValue * open_.nValue;
    entryThread_.push_back(uint32_t(open_.thread));
    entries_.push_back(PartialSum{open_.step, open_.mValue, open_.nValue, pvalue});
  }

  const std::vector<RacedRead>& stale_;
  std::vector<int>& staleStep_;
  std::vector<int64_t>& firstStale_;
  bool pairs_;
  Open open_;
  std::size_t nextStale_ = 0;
  std::vector<float> acc_;
  std::vector<uint32_t> entryThread_;  // each k step's sum with its thread, in canonical order
  std::vector<PartialSum> entries_;
};

}  // namespace tilescope::timeline_detail
