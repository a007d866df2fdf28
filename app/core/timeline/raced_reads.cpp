#include "core/timeline/raced_reads.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/timeline/block_geometry.h"
#include "kernels/catalog.h"

namespace tilescope {
namespace {

bool isSharedWrite(const Event& e) { return IntervalMix::writesSlot(e); }
bool isSharedRead(const Event& e) { return IntervalMix::readsSlot(e); }
bool ofN(const Event& e) { return e.op == Op::LoadN || e.op == Op::ReadN || e.op == Op::CopyN; }
// What a write put in its slot: a load's or a fill's value; a copy's event holds its bytes, not
// the elements (NaN: unknown).
float valueWritten(const Event& e) { return e.op == Op::CopyM || e.op == Op::CopyN ? std::nanf("") : e.value; }

// The slots an access touches, into `out`: a tensor-map copy's box fills value / 4 floats of
// whole rows of its array from its first slot (rowLength: Mds's and Nds's, from the kernel's
// shared tiles), any other access its one or four slots.
void slotsTouched(const Event& e, const int (&rowLength)[2], std::vector<GridCell>& out) {
  out.clear();
  if (e.op != Op::CopyM && e.op != Op::CopyN) {
    for (const GridCell& at : slotsOf(e)) out.push_back(at);
    return;
  }
  const int length = rowLength[ofN(e)];
  if (length <= 0) return;
  for (int r = 0; r < int(e.value) / 4 / length; ++r)
    for (int c = 0; c < length; ++c) out.push_back({e.sharedRow + r, c});
}

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

// Where a block's threads wait on mbarriers (a ring), the order its events ran in: the
// emulator's own turns (kernels/emu/emulator.cpp), replayed from the trace. In each round every
// runnable thread, in linear order, runs on until it reaches a barrier, its end, or an mbarrier
// wait whose phase has not completed (kernels/trace/mbarrier.h's rules: a phase completes when
// its arrivals are in and the bytes its arrive.expect_tx announced have landed; a copy's bytes
// complete the barrier of its thread's last arrive.expect_tx, as copy_ring.h reads them). A
// thread that waited then tries again in the next round, once something moved on. So a read
// after a wait comes after the arrivals that completed the phase it waited for, whatever its
// place in the canonical order (consumers, the low threads, first). Warps meeting for an MMA
// are not in the trace: the replay lets a thread run on past them, which moves no read across
// an mbarrier. Events left when no thread can move on (none in a trace that ran to its end)
// follow in canonical order.
std::vector<uint32_t> ringOrder(const Trace& trace, std::size_t first, std::size_t last) {
  const auto& events = trace.events;
  const unsigned blockX = trace.launch.blockX;
  std::vector<std::vector<uint32_t>> program(std::size_t(std::max(1u, blockX * trace.launch.blockY)));
  for (std::size_t i = first; i < last; ++i) program[std::size_t(linearThread(events[i], blockX))].push_back(uint32_t(i));
  struct Mbarrier {
    int expected = 0, pending = 0, phase = 0;
    long long tx = 0;
  };
  std::map<std::pair<int, int>, Mbarrier> barriers;  // (array, index)
  auto barrierOf = [&](const Event& e) -> Mbarrier& { return barriers[{e.sharedCol, e.sharedRow}]; };
  auto completeIfDone = [](Mbarrier& b) {
    if (b.pending > 0 || b.tx != 0) return;
    b.phase ^= 1;
    b.pending = b.expected;
  };
  enum class Turn : uint8_t { Runs, AtBarrier, Waits, Done };
  std::vector<Turn> turn(program.size(), Turn::Runs);
  std::vector<std::size_t> next(program.size(), 0);
  std::vector<Mbarrier*> txBarrier(program.size(), nullptr);
  std::vector<uint32_t> order;
  order.reserve(last - first);
  uint64_t progress = 0;
  auto runThread = [&](std::size_t t) {
    for (; next[t] < program[t].size(); ++next[t]) {
      const uint32_t i = program[t][next[t]];
      const Event& e = events[i];
      if (e.op == Op::MbarrierWait && barrierOf(e).phase == (int(e.value) & 1)) {
        turn[t] = Turn::Waits;  // the phase of that parity has not completed yet
        return;
      }
      order.push_back(i);
      if (e.op == Op::MbarrierInit) barrierOf(e) = {int(e.value), int(e.value), 0, 0};
      if (e.op == Op::MbarrierArrive) {
        Mbarrier& b = barrierOf(e);
        b.tx += (long long)e.value;
        if (b.pending > 0) --b.pending;
        if (e.value > 0) txBarrier[t] = &b;
        completeIfDone(b);
        ++progress;
      }
      if ((e.op == Op::CopyM || e.op == Op::CopyN) && txBarrier[t]) {
        txBarrier[t]->tx -= (long long)e.value;
        completeIfDone(*txBarrier[t]);
        ++progress;
      }
      if (e.op == Op::Barrier) {
        ++next[t];
        turn[t] = Turn::AtBarrier;
        return;
      }
    }
    turn[t] = Turn::Done;
  };
  for (;;) {
    const uint64_t progressBefore = progress;
    for (std::size_t t = 0; t < program.size(); ++t)
      if (turn[t] == Turn::Runs) runThread(t);
    const bool waiting = std::count(turn.begin(), turn.end(), Turn::Waits) > 0;
    if (waiting && progress == progressBefore) break;  // no one can move on
    const Turn wakes = waiting ? Turn::Waits : Turn::AtBarrier;  // a barrier lets go once no one waits
    if (std::count(turn.begin(), turn.end(), wakes) == 0) break;  // every thread at its end
    std::replace(turn.begin(), turn.end(), wakes, Turn::Runs);
  }
  for (std::size_t t = 0; t < program.size(); ++t)
    for (; next[t] < program[t].size(); ++next[t]) order.push_back(program[t][next[t]]);
  return order;
}

bool waitsOnMbarriers(const Trace& trace, std::size_t first, std::size_t last) {
  for (std::size_t i = first; i < last; ++i)
    if (trace.events[i].op == Op::MbarrierWait) return true;
  return false;
}

void scanBlock(const Trace& trace, std::size_t first, std::size_t last, std::vector<RacedRead>& out) {
  const auto& events = trace.events;
  const unsigned blockX = trace.launch.blockX;
  const SharedTileLayout tiles = kernelSharedTiles(trace.launch);
  const int rowLength[2] = {tiles.strideM, tiles.strideN};
  std::vector<GridCell> touches;
  int rows[2] = {0, 0}, cols = 0;
  for (std::size_t i = first; i < last; ++i) {
    const Event& e = events[i];
    if (!isSharedWrite(e) && !isSharedRead(e)) continue;
    slotsTouched(e, rowLength, touches);
    for (const GridCell& at : touches) rows[ofN(e)] = std::max(rows[ofN(e)], at.row + 1), cols = std::max(cols, at.col + 1);
  }
  if (cols == 0) return;
  const SlotTable table{cols, rows[0]};
  std::vector<SlotHistory> slots(std::size_t(rows[0] + rows[1]) * std::size_t(cols));
  std::vector<uint32_t> barriers(std::size_t(std::max(1u, trace.launch.blockX * trace.launch.blockY)), 0);
  std::vector<std::size_t> touched;  // slots with pending reads, cleared at each interval's end
  uint32_t interval = 0;
  auto threadOf = [&](const Event& e) { return linearThread(e, blockX); };
  // The emulator ran a block without mbarrier waits in canonical order; a ring, in its turns.
  std::vector<uint32_t> ring;
  if (waitsOnMbarriers(trace, first, last)) ring = ringOrder(trace, first, last);
  for (std::size_t n = first; n < last; ++n) {
    const std::size_t i = ring.empty() ? n : ring[n - first];
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
    const bool isN = ofN(e);
    slotsTouched(e, rowLength, touches);
    for (const GridCell& at : touches) {
      SlotHistory& slot = slots[table.index(isN, at)];
      if (write) {
        // Reads of this interval, by other threads, that wanted this write and came first.
        auto& p = slot.pending;
        for (auto it = p.begin(); it != p.end();) {
          const Event& r = events[*it];
          if (r.phase == e.phase && threadOf(r) != thread) {
            out.push_back({*it, uint32_t(i), false, valueWritten(e)});
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
        const float expected = slot.previous >= 0 ? valueWritten(events[std::size_t(slot.previous)]) : 0.0f;
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
