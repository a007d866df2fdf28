// The timeline: a trace cut into steps the app can walk, and the "state at cursor" queries
// the panels draw from.
//
// Steps. Every event of a thread falls in a barrier interval (the barriers it passed
// before it). Inside an interval the events split into: the ones before the dot-product
// loop (k < 0, e.g. the tile loads), one step per k of the loop, the ones after it (the P
// store), and the barrier arrivals that close the interval. Those are the fine steps (the
// "k step" granularity); "barrier interval" groups them by interval and "phase" by tiled
// phase, with the P store on its own. All blocks share one step list: the app shows the
// grid as if every block ran in lockstep with the selected one, which is what the chapter's
// figures draw and is a legal schedule (blocks never wait for each other). A ring (rungs 8
// and 9: a trace with mbarrier waits) has all its phases in one barrier interval: there the
// steps are per interval and phase (step_rules.h's ring phases), the copies of a phase its
// "load tiles" step, and its k steps start again at 0.
//
// Cursor. (step, threads): every step before `step` is done, and in `step` the threads of
// each block whose linear index is below `threads` are done, in canonical order. Playback
// moves `threads` smoothly, so barrier arrivals visibly accumulate.
//
// Real order. For a trace the emulator made, in which a race changed what a thread read
// (raced_reads.h), lockstep would draw the race away: every thread would load before any
// computes. There the fine steps are (barrier interval, thread, part): each thread runs its
// interval to the barrier, loads, k steps and all, before the next thread starts, which is
// what the emulator did (and the trace's canonical order inside an interval). The "interval"
// granularity then steps one thread's run to its barrier at a time. A GPU trace has no such
// order (its canonical order is a sort), so it stays in lockstep and says why (orderNote); so
// does a ring, whose threads the emulator lets take turns at their mbarrier waits.
//
// Cost. Timeline::build walks the trace three times (done once per run, off the UI thread:
// the blocks and their barriers; each event's step key; the counts, P stores, stale reads' steps
// and running sums together), and the stale-read scan (raced_reads.h) a fourth time, which
// compares slots only in blocks where an interval both writes and reads shared memory;
// BlockTimeline::build walks one block (done when the selection changes). Per-frame queries
// touch at most one step's events of one block, or one entry per P element.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/timeline/raced_reads.h"
#include "core/trace/trace.h"

namespace tilescope {

enum class Granularity : uint8_t { Phase, Interval, KStep };
inline constexpr int kGranularityCount = 3;
std::string_view granularityName(Granularity g);  // "phase", "interval", "k"

enum class StepKind : uint8_t { Load, Barrier, Compute, Store, Mixed };

struct StepInfo {
  int interval = 0;  // barrier interval
  int phase = 0;     // the tiled phase of its events (0 for kernels without phases)
  int k = -1;        // the dot-product step, or -1
  StepKind kind = StepKind::Mixed;
  int barrierOfPhase = 0;  // for Barrier steps: 1 for the phase's first barrier, 2 for the second...
  int thread = -1;         // real order: the one linear thread whose events the step holds
  uint32_t opBits = 0;     // bit (1 << Op) per kind of event it holds
};

// A thread's running dot product after one of its k steps: `Pvalue += M x N` (fig. 5.8).
struct PartialSum {
  int step = 0;
  float m = 0, n = 0;  // the operands of this step, as read
  float sum = 0;       // Pvalue after it
};

// Event counts over the whole grid.
struct Counters {
  uint64_t globalLoads = 0;  // reads of M or N from global memory (zero-fills excluded)
  uint64_t zeroFills = 0;    // shared slots a boundary check filled with 0 instead
  uint64_t outOfBounds = 0;  // accesses outside their matrix (that were not zero-filled)
  uint64_t sharedReads = 0;  // reads of Mds or Nds
  uint64_t fmas = 0;         // multiply-adds of the dot products
  uint64_t stores = 0;       // P elements stored
  uint64_t bytesLoaded() const { return globalLoads * 4; }
  uint64_t flops() const { return fmas * 2; }
  // What the naive kernel loads from global memory for the same multiply-adds.
  uint64_t naiveLoads() const { return fmas * 2; }
  double flopsPerByte() const { return globalLoads ? double(flops()) / double(bytesLoaded()) : 0.0; }
};

struct Cursor {
  int step = 0;
  int threads = 0;  // threads per block done in `step`, 0..threadsPerBlock
  bool operator==(const Cursor&) const = default;
};

enum class ThreadState : uint8_t { Idle, Loading, Waiting, Released, Computing, Stored };
std::string_view threadStateName(ThreadState s);
// What a thread is doing at one of its events (a load, the k loop, a barrier, its store).
ThreadState activityOf(const Event& e);

class Timeline {
 public:
  // Cuts `trace` into steps. The Timeline keeps a pointer to `trace`: keep it alive.
  // `emulated`: the trace's order within an interval is what ran (the emulator's), so a race's
  // stale reads are found and drawn in real order; false for a GPU trace.
  static Timeline build(const Trace& trace, bool emulated = true);

  const Trace& trace() const { return *trace_; }
  int steps() const { return int(steps_.size()); }
  const StepInfo& step(int s) const { return steps_[std::size_t(s)]; }
  std::string stepLabel(int s) const;  // "phase 1 - load tiles", "phase 0 - k = 1", "store P"
  int threadsPerBlock() const { return threadsPerBlock_; }
  int blocks() const { return int(blockBegin_.size()) - 1; }
  int phases() const { return int(phaseLastStep_.size()); }
  // Events of block (bx, by) are trace().events[begin, end).
  std::pair<std::size_t, std::size_t> blockRange(int bx, int by) const;

  // --- cursor moves ---------------------------------------------------------------------
  Cursor begin() const { return {0, 0}; }
  Cursor end() const;
  Cursor normalize(Cursor c) const;  // clamps; (s, 0) becomes (s - 1, all), except at begin
  bool atEnd(Cursor c) const { return normalize(c) == end(); }
  Cursor stepForward(Cursor c, Granularity g) const;  // to the end of the next group
  Cursor stepBack(Cursor c, Granularity g) const;     // to the end of the previous group
  // The end of the first step of phase `p` (its tiles are in shared memory then).
  Cursor seekPhase(int p) const;
  Cursor stepEnd(int s) const { return normalize({s, threadsPerBlock_}); }
  // Playback position in steps (a step and a fraction of its threads), and back.
  double position(Cursor c) const;
  Cursor atPosition(double position) const;
  // Which group of granularity `g` holds step s, and how many groups there are.
  int groupOf(int s, Granularity g) const { return groupOf_[int(g)][std::size_t(s)]; }
  int groups(Granularity g) const { return int(groupEnd_[int(g)].size()); }
  int groupEndStep(int group, Granularity g) const { return groupEnd_[int(g)][std::size_t(group)]; }

  // --- state at a cursor, over the whole grid -------------------------------------------
  bool done(Cursor c, int s, int thread) const { return s < c.step || (s == c.step && thread < c.threads); }
  Counters countersAt(Cursor c) const;
  int phasesDone(Cursor c) const;
  // Block (bx, by)'s own phases: in a ring, the k tiles it took (rung 9: its share; the grid's
  // phases() are the longest share), else phases(); and how many of them are done at c.
  int phases(int bx, int by) const;
  int phasesDone(Cursor c, int bx, int by) const;
  // Whether P[row][col] has been stored at `c`, and the event that stores it (-1: never).
  bool pStored(Cursor c, int row, int col) const;
  int64_t pStoreEvent(int row, int col) const { return pStoreEvent_[std::size_t(row) * std::size_t(pCols_) + col]; }

  // Calls visit(eventIndex, step) for every event of the trace, block by block in canonical
  // order (LoadIndex sorts the grid's global loads by step with it). Each event's step is
  // worked out once, by build(): this reads it back.
  template <class Visit>
  void forEachEventStep(Visit&& visit) const {
    for (std::size_t i = 0; i < eventStep_.size(); ++i) visit(i, eventStep_[i]);
  }
  // The step of event i of the trace.
  int eventStep(std::size_t i) const { return eventStep_[i]; }
  // The events that load an element of M or N from global memory inside its matrix, in
  // canonical order (LoadIndex's, found in build's walk so that it need not walk the trace).
  std::span<const uint32_t> globalLoadEvents() const { return loadEvents_; }

  // --- races and running sums (timeline_races.cpp) -----------------------------------------
  bool realOrder() const { return realOrder_; }
  // Why a trace with a race is drawn in lockstep anyway ("" when it is not).
  const std::string& orderNote() const { return orderNote_; }
  const std::vector<RacedRead>& staleReads() const { return stale_; }
  int staleStep(std::size_t i) const { return staleStep_[i]; }
  bool staleDone(Cursor c, std::size_t i) const;
  // The stale reads of block (bx, by) done at c in the barrier interval of c's step: the
  // slots to mark stale now. Indices into staleReads().
  std::vector<std::size_t> staleAt(Cursor c, int bx, int by) const;
  // The first stale read that went into P[row][col]'s running sum, if it is done at c (-1: none).
  int64_t spoiledBy(Cursor c, int row, int col) const;
  // The running Pvalue of the thread that stores P[row][col], after its last k step done at
  // c; null before its first (or where a thread's k step is not one M times one N value).
  const PartialSum* runningSum(Cursor c, int row, int col) const;
  // Every k step's partial sum of the thread storing P[row][col], in program order.
  std::span<const PartialSum> partialSums(int row, int col) const;

  // Internal, for BlockTimeline: the step of each dense step key.
  int stepOfKey(uint64_t key) const { return keyToStep_[std::size_t(key)]; }
  uint64_t keySpan() const { return keySpan_; }
  uint64_t phaseSpan() const { return phaseSpan_; }

 private:
  const Trace* trace_ = nullptr;
  int threadsPerBlock_ = 1;
  uint64_t keySpan_ = 1;          // keys per interval (per phase of an interval in a ring)
  uint64_t phaseSpan_ = 1;        // a ring's phases per interval in the key (1: no ring)
  int phaseCount_ = 0;            // the launch's phases, or a ring's as its trace has them
  std::vector<std::size_t> blockBegin_;
  std::vector<StepInfo> steps_;
  std::vector<int> keyToStep_;    // dense key -> step index (-1 unused)
  std::vector<int32_t> eventStep_;  // per event of the trace: its step (canonical order is block order)
  std::vector<uint32_t> loadEvents_;
  std::vector<std::array<uint32_t, 6>> stepThreadCounts_;  // [step * threadsPerBlock + thread]
  std::vector<Counters> cumulative_;                       // before each step
  std::vector<int> phaseLastStep_;
  std::vector<int> blockPhases_;  // a ring's phases per block (empty: no ring)
  std::array<std::vector<int>, kGranularityCount> groupOf_, groupEnd_;
  int pCols_ = 0;
  std::vector<int64_t> pStoreEvent_;
  std::vector<int> pStoreStep_;
  bool realOrder_ = false;
  std::string orderNote_;
  std::vector<RacedRead> stale_;
  std::vector<int> staleStep_;
  std::vector<int64_t> cellThread_;      // per P cell: the global thread that stores it (-1)
  std::vector<int64_t> firstStale_;      // per global thread: its first stale read (-1)
  std::vector<uint32_t> sumBegin_;       // per global thread: into sums_ (threads + 1 entries)
  std::vector<PartialSum> sums_;
  void countSteps();        // build's last pass (timeline.cpp)
  void buildCellThreads();  // cellThread_, once pStoreEvent_ is known (timeline_races.cpp)
};

// The selected block's view of the timeline: its events sorted by step, and each thread's
// activity per step.
class BlockTimeline {
 public:
  static BlockTimeline build(const Timeline& timeline, int bx, int by);

  int bx() const { return bx_; }
  int by() const { return by_; }
  // Indices into trace().events of this block's events in step s, in canonical order.
  std::span<const uint32_t> stepEvents(int s) const;
  // The latest step <= s in which this block loaded from global memory (-1: none yet): the
  // step whose tiles the Matrices and Shared memory panels show.
  int loadStepAt(int s) const { return loadStepAt_[std::size_t(s)]; }
  ThreadState threadState(Cursor c, int thread) const;
  // Barrier arrivals of this block at c when step c.step is a barrier step, else -1.
  int barrierArrivals(Cursor c) const;
  // The newest event done at c (-1 before the first), for the Source panel's line.
  int64_t currentEvent(Cursor c) const;
  // The newest event done at c that touched element (row, col) with one of `ops` (-1: none).
  int64_t lastEventAt(Cursor c, std::span<const Op> ops, int row, int col) const;

 private:
  const Timeline* timeline_ = nullptr;
  int bx_ = 0, by_ = 0, threads_ = 1;
  std::vector<uint32_t> order_;       // event indices sorted by step
  std::vector<uint32_t> stepBegin_;   // into order_, steps + 1 entries
  std::vector<int> loadStepAt_;
  std::vector<ThreadState> activity_;  // [step * threads + thread]: what it did in the step
  std::vector<ThreadState> before_;    // [step * threads + thread]: its state entering the step
  std::vector<int> arrivals_;          // barrier arrivals per step
  std::vector<int> arrivedBefore_;     // arrivals of the step's interval in earlier steps (real order)
};

}  // namespace tilescope
