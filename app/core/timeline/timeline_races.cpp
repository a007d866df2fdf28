// The Timeline's race and running-sum index: which step each stale read happens in, which
// thread stores each P element, and every thread's Pvalue after each of its k steps (fig. 5.8's
// `Pvalue +=` column). Built once per run with the timeline (race_index.h, in its last pass).
#include <algorithm>

#include "core/timeline/block_geometry.h"
#include "core/timeline/timeline.h"
#include "kernels/trace/step_rules.h"

namespace tilescope {

void Timeline::buildCellThreads() {
  const Trace& trace = *trace_;
  const KernelLaunch& L = trace.launch;
  cellThread_.assign(pStoreEvent_.size(), -1);
  for (std::size_t cell = 0; cell < pStoreEvent_.size(); ++cell) {
    if (pStoreEvent_[cell] < 0) continue;
    const Event& e = trace.events[std::size_t(pStoreEvent_[cell])];
    cellThread_[cell] = int64_t((std::size_t(e.blockY) * L.gridX + e.blockX) * std::size_t(threadsPerBlock_) +
                                std::size_t(linearThread(e, L.blockX)));
  }
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
