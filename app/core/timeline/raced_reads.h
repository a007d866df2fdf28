// Stale reads: what a race did, read off the emulator's real execution order.
//
// The emulator runs each thread of a block until it reaches a barrier, thread after thread in
// linear order; that is exactly the trace's canonical order inside a barrier interval
// (core/trace/trace.h). So replaying a block's events in canonical order replays what the
// emulator really did, and every shared read sees the last write before it in that order.
// Where threads wait on mbarriers (a ring), the emulator also switches threads at a wait whose
// phase has not completed; those turns are replayed from the trace by the mbarriers' rules
// (raced_reads.cpp, ringOrder), so a read after a wait is ordered after the writes and arrivals
// that completed it, and a read that no wait orders after its write is still caught.
// A tensor-map copy (rungs 8 and 11) is a write, by its issuing thread, of every slot of the rows
// its box fills (the box is as wide as the array's rows: TMA cannot pad).
// A read is stale when, in its own barrier interval, another thread's write to the same slot
// decides what it sees against the kernel's intent:
//   not written yet (read-after-write): a later write of the slot, by another thread, in the
//     same interval and the reader's own phase: the read came first and took what the slot
//     held before (the previous phase's tile, or the arena's initial contents);
//   overwritten (write-after-read): the write the read saw belongs to a later phase and was
//     made by another thread in the same interval: the next tile's load came first.
// A correct kernel has none (its barriers put every such pair in different intervals), and
// neither does a GPU trace's order mean anything of the kind: the GPU's canonical order is a
// sort, not what ran, so callers ask for this only for emulator traces.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {

struct RacedRead {
  uint32_t readEvent = 0;      // the read that took the wrong value
  uint32_t writeEvent = 0;     // the write that decided it: came too late, or too early
  bool overwritten = false;    // false: not written yet (RAW); true: overwritten first (WAR)
  float expected = 0;          // the value the kernel meant it to read (NaN: a copy's, which its event does not hold)
};

// Every stale read of the trace, in canonical order of the reads.
std::vector<RacedRead> findRacedReads(const Trace& trace);

// Whether some barrier interval of a block both writes and reads shared memory. A stale read
// needs one: the write that decides it and the read share an interval (the scan compares
// only within one). A correct kernel's barriers keep them apart, so most blocks are settled
// by this, which counts nothing per slot. Fed a block's events in canonical order, each with
// its interval (the barriers its thread passed before it); barriers themselves are not fed.
class IntervalMix {
 public:
  void startBlock() {
    seen_.clear();
    mixed_ = false;
  }
  void add(const Event& e, uint32_t interval) {
    const uint8_t bit = writesSlot(e) ? 1 : readsSlot(e) ? 2 : 0;
    if (!bit || mixed_) return;
    if (interval >= seen_.size()) seen_.resize(std::size_t(interval) + 1, 0);
    mixed_ = (seen_[interval] |= bit) == 3;
  }
  bool mixed() const { return mixed_; }
  // The accesses the scan compares: writes of a slot (a load, a fill or a tensor-map copy; not
  // a global read staged through registers) and reads of one.
  static bool writesSlot(const Event& e) {
    if (e.op == Op::CopyM || e.op == Op::CopyN) return e.sharedRow >= 0;
    return (e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow >= 0 && !(e.flags & kStagedRead);
  }
  static bool readsSlot(const Event& e) { return (e.op == Op::ReadM || e.op == Op::ReadN) && e.sharedRow >= 0; }

 private:
  std::vector<uint8_t> seen_;  // per interval: 1 written, 2 read
  bool mixed_ = false;
};

// The same as findRacedReads(trace), with where each block's events begin already known
// (blockBegin[b] to blockBegin[b + 1] are block b's) and which blocks IntervalMix found mixed
// (mixed[b] != 0): only those are scanned.
std::vector<RacedRead> findRacedReads(const Trace& trace, std::span<const std::size_t> blockBegin,
                                      std::span<const uint8_t> mixed);

}  // namespace tilescope
