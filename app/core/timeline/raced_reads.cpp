#include "core/timeline/raced_reads.h"

#include <algorithm>

#include "core/timeline/block_geometry.h"

namespace tilescope {
namespace {

bool isSharedWrite(const Event& e) { return IntervalMix::writesSlot(e); }
bool isSharedRead(const Event& e) { return IntervalMix::readsSlot(e); }

// One block's slots, Mds then Nds, as a flat table sized by the slots its events touch.
struct SlotTable {
  int cols = 0, mRows = 0;
  std::size_t index(bool isN, const GridCell& at) const {
    return (std::size_t(isN ? mRows : 0) + std::size_t(at.row)) * std::size_t(cols) + std::size_t(at.col);
  }
};

struct SlotHistory {
  int64_t last = -1, previous = -1;  // the last two writes, event indices
  uint32_t lastInterval = 0;         // the barrier interval of `last`
  std::vector<uint32_t> pending;     // reads of this interval that saw an older phase's write
};

void scanBlock(const Trace& trace, std::size_t first, std::size_t last, std::vector<RacedRead>& out) {
  const auto& events = trace.events;
  const unsigned blockX = trace.launch.blockX;
  int rows[2] = {0, 0}, cols = 0;
  for (std::size_t i = first; i < last; ++i) {
    const Event& e = events[i];
    if (!isSharedWrite(e) && !isSharedRead(e)) continue;
    const bool isN = e.op == Op::LoadN || e.op == Op::ReadN;
    for (const GridCell& at : slotsOf(e)) rows[isN] = std::max(rows[isN], at.row + 1), cols = std::max(cols, at.col + 1);
  }
  if (cols == 0) return;
  const SlotTable table{cols, rows[0]};
  std::vector<SlotHistory> slots(std::size_t(rows[0] + rows[1]) * std::size_t(cols));
  std::vector<uint32_t> barriers(std::size_t(std::max(1u, trace.launch.blockX * trace.launch.blockY)), 0);
  std::vector<std::size_t> touched;  // slots with pending reads, cleared at each interval's end
  uint32_t interval = 0;
  auto threadOf = [&](const Event& e) { return linearThread(e, blockX); };
  for (std::size_t i = first; i < last; ++i) {
    const Event& e = events[i];
    const int thread = threadOf(e);
    if (barriers[std::size_t(thread)] != interval) {  // the canonical order moved on to the next interval
      interval = barriers[std::size_t(thread)];
      for (std::size_t s : touched) slots[s].pending.clear();
      touched.clear();
    }
    if (e.op == Op::Barrier) {
      ++barriers[std::size_t(thread)];
      continue;
    }
    const bool write = isSharedWrite(e);
    if (!write && !isSharedRead(e)) continue;
    const bool isN = e.op == Op::LoadN || e.op == Op::ReadN;
    for (const GridCell& at : slotsOf(e)) {
      SlotHistory& slot = slots[table.index(isN, at)];
      if (write) {
        // Reads of this interval, by other threads, that wanted this write and came first.
        auto& p = slot.pending;
        for (auto it = p.begin(); it != p.end();) {
          const Event& r = events[*it];
          if (r.phase == e.phase && threadOf(r) != thread) {
            out.push_back({*it, uint32_t(i), false, e.value});
            it = p.erase(it);
          } else {
            ++it;
          }
        }
        slot.previous = slot.last;
        slot.last = int64_t(i);
        slot.lastInterval = interval;
        continue;
      }
      const Event* seen = slot.last >= 0 ? &events[std::size_t(slot.last)] : nullptr;
      if (seen && slot.lastInterval == interval && seen->phase > e.phase && threadOf(*seen) != thread) {
        // Overwritten: a later phase's load, in this same interval, by another thread.
        const float expected = slot.previous >= 0 ? events[std::size_t(slot.previous)].value : 0.0f;
        out.push_back({uint32_t(i), uint32_t(slot.last), true, expected});
      } else if (!seen || seen->phase != e.phase) {
        slot.pending.push_back(uint32_t(i));
        touched.push_back(table.index(isN, at));
      }
    }
  }
}

}  // namespace

std::vector<RacedRead> findRacedReads(const Trace& trace) {
  // Blocks are independent (their shared memory is their own): each block's range is scanned
  // on its own, then the finds are sorted by read. One thread: a second one saved 4 of 41 ms
  // at 64^3, and the page's build has no threads.
  const auto& events = trace.events;
  const unsigned gridX = trace.launch.gridX;
  std::vector<std::size_t> begins{0};
  std::vector<uint8_t> mixed;
  std::vector<uint32_t> barriers(std::size_t(std::max(1u, trace.launch.blockX * trace.launch.blockY)), 0);
  IntervalMix mix;
  auto blockOf = [&](const Event& e) { return std::size_t(e.blockY) * gridX + e.blockX; };
  for (std::size_t i = 0; i <= events.size(); ++i) {
    if (i == events.size() || (i > begins.back() && blockOf(events[i]) != blockOf(events[begins.back()]))) {
      begins.push_back(i);
      mixed.push_back(mix.mixed());
      mix.startBlock();
      std::fill(barriers.begin(), barriers.end(), 0);
    }
    if (i == events.size()) break;
    uint32_t& interval = barriers[std::size_t(linearThread(events[i], trace.launch.blockX))];
    if (events[i].op == Op::Barrier) ++interval;
    else mix.add(events[i], interval);
  }
  return findRacedReads(trace, begins, mixed);
}

std::vector<RacedRead> findRacedReads(const Trace& trace, std::span<const std::size_t> blockBegin,
                                      std::span<const uint8_t> mixed) {
  std::vector<RacedRead> out;
  for (std::size_t b = 0; b + 1 < blockBegin.size() && b < mixed.size(); ++b)
    if (mixed[b] && blockBegin[b] < blockBegin[b + 1]) scanBlock(trace, blockBegin[b], blockBegin[b + 1], out);
  std::sort(out.begin(), out.end(), [](const RacedRead& a, const RacedRead& b) { return a.readEvent < b.readEvent; });
  return out;
}

}  // namespace tilescope
