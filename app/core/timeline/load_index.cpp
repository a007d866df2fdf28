#include "core/timeline/load_index.h"

#include <algorithm>

#include "core/timeline/block_geometry.h"

namespace tilescope {
namespace {
constexpr uint32_t kNBit = 1u << 31;
struct CountedLoad {
  uint64_t key;
  uint32_t element, block;
};
}

namespace {

// The copy engine's tiles (rungs 8 and 9) come from global memory too, one box per copy: every
// element of the box inside its matrix is a load, counted at the issuing thread's step (what
// lies past the edge is a zero-fill, loaded from nowhere).
void addCopies(const Timeline& timeline, std::vector<CountedLoad>& loads) {
  bool copies = false;
  for (int s = 0; s < timeline.steps() && !copies; ++s)
    copies = timeline.step(s).opBits & ((1u << int(Op::CopyM)) | (1u << int(Op::CopyN)));
  if (!copies) return;
  const Trace& trace = timeline.trace();
  const KernelLaunch& L = trace.launch;
  const uint64_t tpb = uint64_t(timeline.threadsPerBlock());
  timeline.forEachEventStep([&](std::size_t i, int step) {
    const Event& e = trace.events[i];
    if (e.op != Op::CopyM && e.op != Op::CopyN) return;
    const bool n = e.op == Op::CopyN;
    const int rows = n ? L.k : L.j, cols = n ? L.l : L.k;
    const int boxRows = n ? L.tiling.bk : L.tiling.bm, boxCols = n ? L.tiling.bn : L.tiling.bk;
    const uint32_t block = uint32_t(e.blockY) * L.gridX + e.blockX;
    const uint64_t key = uint64_t(step) * tpb + uint64_t(linearThread(e, L.blockX));
    for (int r = std::max(e.globalRow, 0); r < std::min(e.globalRow + boxRows, rows); ++r)
      for (int c = std::max(e.globalCol, 0); c < std::min(e.globalCol + boxCols, cols); ++c)
        loads.push_back({key, (uint32_t(r) * uint32_t(cols) + uint32_t(c)) | (n ? kNBit : 0u), block});
  });
}

}  // namespace

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
  std::vector<CountedLoad> loads;
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
  addCopies(timeline, loads);
  const std::size_t buckets = std::size_t(timeline.steps()) * std::size_t(tpb) + 1;
  std::vector<uint32_t> start(buckets + 1, 0);
  for (const CountedLoad& l : loads) ++start[std::size_t(l.key) + 1];
  for (std::size_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  x.keys_.resize(loads.size());
  x.elements_.resize(loads.size());
  x.blocks_.resize(loads.size());
  for (const CountedLoad& l : loads) {
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
