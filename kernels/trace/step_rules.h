// Phases and k steps, derived from what the threads did; no kernel declares them.
//
// The decoder (app/core/run/trace_decode.cpp on the host, kernels/cuda/decode_trace.cu on the GPU)
// walks a block interval by interval (between barriers) and applies these rules, so both
// executors' traces carry the same derived fields.
//
// Phase (per block): a phase is loading tiles into shared memory and then computing on
// them. A new phase starts when, after the block has computed in the current phase, a
// thread writes shared memory again (a tile load, or a boundary check's fill). A thread
// enters the new phase at that write: its events before it (bug-sync-in-k's store of P,
// tiled-no-second-sync's last reads of the old tiles) stay in the old phase. A thread that
// writes nothing there (tiled-rect's idle loaders) enters it at the interval's start when
// the block had computed before the interval, else at the next interval. Kernels without
// shared memory have one phase, 0.
//
// Ring phase (per thread): a kernel that hands tiles over through mbarriers (rungs 8 and 9: a
// producer's tensor-map copies into a ring of stages, consumers waiting on the stage's `full`
// barrier) has no barrier between its tiles and no thread that writes shared memory, so the
// rule above sees one phase. There a thread enters its next phase at an mbarrier wait that
// follows its work of the current phase: a consumer's wait for the next stage after it
// computed on the last (a compute read), the producer's wait for a free stage after it issued
// the copies of the last (Op::CopyM / CopyN). So a consumer's n-th wait on a full barrier
// starts its phase n (its first wait, before any compute, stays in phase 0), and the
// producer's n-th fill (its wait for the stage, its expect_tx arrival, its two copies) is in
// phase n: both are the n-th k tile the block takes through the ring (rung 9: the n-th of its
// share, in the order it walks it). A wait with no work before it (the producer's first, a
// consumer's first) starts nothing, and plain arrivals never do. Threads of a ring are in
// different phases at once, which the trace shows as it is: each event carries its thread's
// phase. A thread's phase is the block's (above) plus the ring phases it entered, so a kernel
// without mbarrier waits decodes exactly as the block rule alone says.
//
// k step (per thread, reset when it enters a phase): the compute reads (shared reads, and
// global reads that were not loads into shared memory) in program order, grouped into
// steps: a step reads M's side and N's side, and a new step begins when the thread returns
// to a side it already read in this step after reading the other. So Mds Nds Mds Nds is
// k = 0 0 1 1, and a register tile's M M M N N N M... is k = 0 0 0 0 0 0 1. A thread's second
// MMA of a step (its fragment events, Op::MmaA to MmaC, after another MMA's) starts a step too:
// an MMA is one k step of 8. Rung 10 reads both sides for each MMA, so the side rule already
// moves on; rung 11 reads its A fragments for the tile's four MMAs first (all at k = 0) and
// then, at each MMA, B's descriptor chunks only (threads 0..63), which the side rule alone put
// at k = 0 for all four: they are k = 0, 1, 2, 3, as the kernel issues the MMAs. Loads, fills,
// barriers, copies, mbarrier steps, fragments and stores have k = -1.
#pragma once
#include "kernels/host_device.h"
#include "kernels/trace/trace_event.h"

namespace tilescope {

HOST_DEVICE bool writesSharedSlot(const Event& e) {
  return (e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow >= 0;
}
HOST_DEVICE bool isComputeRead(const Event& e) {
  if (e.op == Op::ReadM || e.op == Op::ReadN) return true;
  // A global read staged into shared memory through registers feeds no multiply-add itself.
  return (e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow < 0 && !(e.flags & kStagedRead);
}
// A thread's work of a ring phase: it computed, or it issued a tensor-map copy into a stage.
HOST_DEVICE bool isRingWork(const Event& e) { return isComputeRead(e) || e.op == Op::CopyM || e.op == Op::CopyN; }

inline constexpr unsigned kNoEvent = ~0u;

// An element of a tensor-core MMA's fragment (rungs 10 and 11): the MMA it belongs to is issued.
HOST_DEVICE bool isMmaFragment(const Event& e) { return e.op == Op::MmaA || e.op == Op::MmaB || e.op == Op::MmaC; }

// One thread's events of one interval, seen before any is decoded.
struct IntervalScan {
  unsigned firstWrite = kNoEvent;              // index (in the interval) of its first shared write
  unsigned firstWriteAfterCompute = kNoEvent;  // ... of its first one after a compute read
  bool computed = false;
  HOST_DEVICE void add(const Event& e, unsigned i) {
    if (writesSharedSlot(e)) {
      if (firstWrite == kNoEvent) firstWrite = i;
      if (computed && firstWriteAfterCompute == kNoEvent) firstWriteAfterCompute = i;
    }
    computed = computed || isComputeRead(e);
  }
  HOST_DEVICE bool writes() const { return firstWrite != kNoEvent; }
  HOST_DEVICE bool writesAfterCompute() const { return firstWriteAfterCompute != kNoEvent; }
};

struct BlockPhase {
  int16_t phase = 0;
  bool computed = false;        // the block computed in the current phase
  bool computedBefore = false;  // ... as it stood when this interval began
  // With the OR over the block's threads of their scans: whether this interval starts a phase.
  HOST_DEVICE bool beginInterval(bool anyWrites, bool anyWritesAfterCompute) {
    computedBefore = computed;
    if (!(anyWrites && (computed || anyWritesAfterCompute))) return false;
    ++phase;
    computed = false;
    return true;
  }
  HOST_DEVICE void endInterval(bool anyComputedInPhase) { computed = computed || anyComputedInPhase; }
};

struct ThreadSteps {
  int16_t phase = 0;      // the block's phase the thread is in (BlockPhase's rule)
  int16_t ringPhase = 0;  // ring phases it entered (the ring rule): its events' phase is the sum
  int16_t k = -1;
  uint8_t sidesInStep = 0;  // 1: M's side read in this step, 2: N's
  uint8_t lastSide = 0;
  bool ringWork = false;         // it computed or copied since it entered its phase
  bool mmaInStep = false;        // it issued an MMA in this step
  bool inMma = false;            // its last event was an MMA's fragment element
  unsigned switchAt = kNoEvent;  // where in this interval the thread enters block.phase

  HOST_DEVICE void beginInterval(const IntervalScan& scan, const BlockPhase& block, bool newPhase) {
    switchAt = kNoEvent;
    if (phase == block.phase) return;
    if (!newPhase) switchAt = 0;  // a phase it did not enter by writing: from here on
    else if (block.computedBefore) switchAt = scan.writes() ? scan.firstWrite : 0;
    else switchAt = scan.firstWriteAfterCompute;  // kNoEvent: it enters at the next interval
  }

  // Fills e.phase and e.k for the i-th event of the interval; true when it is a compute
  // read of the block's current phase.
  HOST_DEVICE bool derive(Event& e, unsigned i, const BlockPhase& block) {
    if (i == switchAt) {
      phase = block.phase;
      enterPhase();
    }
    if (e.op == Op::MbarrierWait && ringWork) {
      ++ringPhase;
      enterPhase();
    }
    ringWork = ringWork || isRingWork(e);
    e.phase = int16_t(phase + ringPhase);
    e.k = -1;
    const bool fragment = isMmaFragment(e);
    if (fragment && !inMma) {  // an MMA issued: its first fragment element
      if (mmaInStep && k >= 0) newStep();
      mmaInStep = true;
    }
    inMma = fragment;
    if (!isComputeRead(e)) return false;
    const uint8_t side = (e.op == Op::ReadN || e.op == Op::LoadN) ? 2 : 1;
    if (k < 0 || ((sidesInStep & side) && lastSide != side)) newStep();
    sidesInStep |= side;
    lastSide = side;
    e.k = k;
    return phase == block.phase;
  }

 private:
  HOST_DEVICE void enterPhase() {
    k = -1;
    sidesInStep = lastSide = 0;
    ringWork = mmaInStep = inMma = false;
  }
  HOST_DEVICE void newStep() {
    ++k;
    sidesInStep = 0;
    mmaInStep = false;
  }
};

}  // namespace tilescope
