// The timeline's step keys (internal to app/core/timeline: timeline.cpp cuts a trace into
// steps with it, block_timeline.cpp sorts one block's events by the same keys).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/trace/trace_event.h"

namespace tilescope::timeline_detail {

// Gives each event its dense step key: (interval, in real order also the thread, in a ring
// also the phase) * span + sub, where sub orders the parts of an interval: 0 before the k
// loop, 1 + k inside it, span - 2 after it, span - 1 the barrier. Walks one block at a time in
// canonical order (a thread's events of one interval are contiguous and in program order
// there). A ring (a trace with mbarrier waits, step_rules.h's ring phases) has many phases in
// one interval, each with its own k loop: there the phase is part of the key (phaseSpan > 1),
// a thread's k loop starts afresh in each phase, and its mbarrier steps after a k loop (the
// arrival that releases the stage) belong to the loop's last step, so that "after the loop"
// is what follows the thread's last phase (the P store).
class KeyWalker {
 public:
  KeyWalker(uint64_t span, int threadsPerBlock, bool perThread, uint64_t phaseSpan)
      : span_(span), threads_(uint64_t(threadsPerBlock)), phaseSpan_(phaseSpan), perThread_(perThread),
        barriers_(std::size_t(threadsPerBlock), 0) {}
  void startBlock() {
    std::fill(barriers_.begin(), barriers_.end(), 0);
    lastThread_ = -1;
  }
  uint64_t key(const Event& e, int thread) {
    const bool ring = phaseSpan_ > 1;
    if (thread != lastThread_ || (ring && e.phase != lastPhase_)) {
      lastThread_ = thread;
      lastPhase_ = e.phase;
      seenK_ = false;
      lastSub_ = 0;
    }
    const uint64_t interval = barriers_[std::size_t(thread)];
    uint64_t sub = 0;
    if (e.op == Op::Barrier) {
      sub = span_ - 1;
      ++barriers_[std::size_t(thread)];
      seenK_ = false;
    } else if (e.k >= 0) {
      sub = 1 + uint64_t(e.k);
      seenK_ = true;
    } else if (ring && seenK_ && isMbarrierStep(e) && lastSub_ < span_ - 2) {
      sub = lastSub_;  // the stage's release closes the k loop's last step
    } else {
      sub = seenK_ ? span_ - 2 : 0;
    }
    lastSub_ = sub;
    const uint64_t group = perThread_ ? interval * threads_ + uint64_t(thread) : interval;
    const uint64_t phase = ring ? uint64_t(std::max<int16_t>(e.phase, 0)) : 0;
    return (group * phaseSpan_ + phase) * span_ + sub;
  }

 private:
  static bool isMbarrierStep(const Event& e) {
    return e.op == Op::MbarrierArrive || e.op == Op::MbarrierWait || e.op == Op::MbarrierInit;
  }
  uint64_t span_, threads_, phaseSpan_;
  bool perThread_;
  std::vector<uint32_t> barriers_;
  int lastThread_ = -1;
  int16_t lastPhase_ = 0;
  bool seenK_ = false;
  uint64_t lastSub_ = 0;
};

}  // namespace tilescope::timeline_detail
