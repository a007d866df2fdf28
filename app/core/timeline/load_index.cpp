#include "core/timeline/load_index.h"

#include <algorithm>

#include "core/timeline/block_geometry.h"

namespace tilescope {
namespace {
constexpr uint32_t kNBit = 1u << 31;
}

LoadIndex LoadIndex::build(const Timeline& timeline) {
  LoadIndex x;
  const Trace& trace = timeline.trace();
  const KernelLaunch& L = trace.launch;
  x.threadsPerBlock_ = timeline.threadsPerBlock();
  x.mCols_ = L.k;
  x.nCols_ = L.l;
  x.blockCount_ = int(L.gridX * L.gridY);
  x.counts_.m.assign(std::size_t(L.j) * std::size_t(L.k), 0);
  x.counts_.n.assign(std::size_t(L.k) * std::size_t(L.l), 0);
  // Counting sort by (step, thread): gather the loads with their keys, then place them.
  struct Load {
    uint64_t key;
    uint32_t element, block;
  };
  std::vector<Load> loads;
  loads.reserve(std::size_t(timeline.countersAt(timeline.end()).globalLoads));  // an upper bound
  const auto& events = trace.events;
  const uint64_t tpb = uint64_t(x.threadsPerBlock_);
  // A value staged through registers is loaded once, at its global read: the timeline's list.
  for (const uint32_t i : timeline.globalLoadEvents()) {
    const Event& e = events[i];
    const int step = timeline.eventStep(i);
    const bool n = e.op == Op::LoadN;
    const int cols = n ? L.l : L.k;
    const uint32_t block = uint32_t(e.blockY) * L.gridX + e.blockX;
    for (const GridCell& at : elementsOf(e))  // four for a 128-bit load
      if (at.col < cols)
        loads.push_back({uint64_t(step) * tpb + uint64_t(linearThread(e, L.blockX)),
                         (uint32_t(at.row) * uint32_t(cols) + uint32_t(at.col)) | (n ? kNBit : 0u), block});
  }
  const std::size_t buckets = std::size_t(timeline.steps()) * std::size_t(tpb) + 1;
  std::vector<uint32_t> start(buckets + 1, 0);
  for (const Load& l : loads) ++start[std::size_t(l.key) + 1];
  for (std::size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  x.keys_.resize(loads.size());
  x.elements_.resize(loads.size());
  x.blocks_.resize(loads.size());
  for (const Load& l : loads) {
    const uint32_t at = start[std::size_t(l.key)]++;
    x.keys_[at] = l.key;
    x.elements_[at] = l.element;
    x.blocks_[at] = l.block;
  }
  return x;
}

std::size_t LoadIndex::doneAt(Cursor c) const {
  // Done: step < c.step, or step == c.step and thread < c.threads, i.e. key < c.step * tpb + c.threads.
  const uint64_t bound = uint64_t(std::max(c.step, 0)) * uint64_t(threadsPerBlock_) + uint64_t(std::max(c.threads, 0));
  return std::size_t(std::lower_bound(keys_.begin(), keys_.end(), bound) - keys_.begin());
}

const LoadIndex::Counts& LoadIndex::moveTo(Cursor c) const {
  const std::size_t target = doneAt(c);
  auto bump = [&](std::size_t i, uint32_t delta) {
    const uint32_t e = elements_[i];
    auto& counts = (e & kNBit) ? counts_.n : counts_.m;
    counts[e & ~kNBit] += delta;
  };
  for (; counts_.done < target; ++counts_.done) bump(counts_.done, 1u);
  for (; counts_.done > target; --counts_.done) bump(counts_.done - 1, uint32_t(-1));
  return counts_;
}

std::vector<TileBox> LoadIndex::tilesOfStep(int s) const {
  const uint64_t tpb = uint64_t(threadsPerBlock_);
  const auto first = std::lower_bound(keys_.begin(), keys_.end(), uint64_t(std::max(s, 0)) * tpb);
  const auto last = std::lower_bound(keys_.begin(), keys_.end(), uint64_t(std::max(s, 0) + 1) * tpb);
  std::vector<TileBox> boxes(std::size_t(blocks_.empty() ? 0 : blockCount_) * 2, TileBox{false, -1, -1, -1, -1});
  for (auto it = first; it != last; ++it) {
    const std::size_t i = std::size_t(it - keys_.begin());
    const bool n = (elements_[i] & kNBit) != 0;
    const uint32_t e = elements_[i] & ~kNBit;
    const int cols = n ? nCols_ : mCols_;
    const int row = int(e / uint32_t(cols)), col = int(e % uint32_t(cols));
    TileBox& box = boxes[std::size_t(blocks_[i]) * 2 + (n ? 1 : 0)];
    if (box.row0 < 0) box = TileBox{n, row, col, row, col};
    else box = {n, std::min(box.row0, row), std::min(box.col0, col), std::max(box.row1, row), std::max(box.col1, col)};
  }
  std::vector<TileBox> out;
  for (const TileBox& box : boxes)
    if (box.row0 >= 0 && std::find(out.begin(), out.end(), box) == out.end()) out.push_back(box);
  return out;
}

}  // namespace tilescope
