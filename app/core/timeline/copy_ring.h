// Rung 8's ring of stages at a cursor, for the Copy engine panel: which k tile of M and of N
// each stage holds, whether the copy engine is still filling it, whether the consumers are
// reading it or have released it, each mbarrier's phase, and who is waiting. GUI-free, so it is
// tested against hand counts of the kernel's text.
//
// Everything comes from the selected block's trace events; the kernel describes nothing. A
// tensor-map copy (Op::CopyM / CopyN) names its issuing thread, its box (so its k tile) and
// its first slot (so its stage); an mbarrier step names its barrier. Which barrier a copy's
// bytes complete is read from the issuing thread's program order: the copies after an
// arrive.expect_tx, until their bytes add up to what it announced. A barrier whose arrivals
// announce bytes is a "full" barrier (the tiles have arrived), the others "empty" ones (the
// consumers are done); consumers are the threads that wait on a full barrier.
//
// When. The trace says what each thread did, not when: the timeline's lockstep steps place
// the producer's copies and every mbarrier step beside the loop, where no legal run has them.
// So this schedule places them itself, by the mbarriers' rules, around what the timeline does
// place (the consumers' shared reads, the barrier, the stores): each thread's steps in program
// order; an arrival, a copy or an initialisation as soon as the thread's previous event is
// done; a wait once its phase has completed (try_wait.parity passes when the phase of that
// parity is the last one completed). A copy's bytes land at the end of the timeline step after
// the one it was issued in: the trace has no clock for the copy engine, and one step is the
// least that lets a class see a stage being filled. The producer thus runs as far ahead as the
// ring lets it, which is what the ring is for.
#pragma once
#include <climits>
#include <map>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/timeline/timeline.h"

namespace tilescope {

// A point on the timeline: reached at cursor c once c is past step `step` or in it with at
// least `threads` of its threads done (Timeline::done's rule for thread threads - 1).
struct Moment {
  int step = 0, threads = 0;
  auto operator<=>(const Moment&) const = default;
};
inline constexpr Moment kNever{INT_MAX, INT_MAX};
inline bool reached(Moment m, Cursor c) { return c.step > m.step || (c.step == m.step && c.threads >= m.threads); }

enum class StageState : uint8_t { Empty, Filling, Full, Reading, Released };
std::string_view stageStateName(StageState s);  // "empty", "filling", "full", "being read", "released"

enum class BarrierRole : uint8_t { Full, Empty };

// One tensor-map copy into a stage.
struct RingCopy {
  int tile = -1;  // the k tile it holds (-1: no copy into this stage yet)
  int issuerX = -1, issuerY = -1;
  int bytes = 0;
  bool zeroFill = false;  // part of the box lies outside the matrix
  bool landed = false;    // its bytes have arrived at the cursor
  // Not a copy: the block's own threads write this tile into the stage (rung 11's producers
  // write N's tile, turned, which TMA cannot do); bytes are those of the tile's writes,
  // bytesWritten those done at the cursor.
  bool byThreads = false;
  int bytesWritten = 0;
};

struct RingStage {
  int index = 0;
  StageState state = StageState::Empty;
  RingCopy m, n;  // the newest copies of M's and N's tile issued into it at the cursor
  int bytesExpected = 0, bytesArrived = 0;  // of that filling
  int readers = 0;   // consumers that passed their wait on that filling and have not released it
  int released = 0;  // consumers that released it (arrived on its empty barrier)
};

struct RingBarrier {
  BarrierRole role = BarrierRole::Full;
  int index = 0;
  bool initialised = false;
  int completed = 0;           // phases completed: the phase in progress is this number
  int arrivals = 0, needed = 0;  // of the phase in progress
  int bytesExpected = 0, bytesArrived = 0;  // transaction bytes of the phase in progress
  int lastBytes = 0;           // the last completed phase's bytes
  std::string name() const;    // "full[1]"
  std::string text() const;    // "full[1]: phase 2 complete, 3072 of 3072 bytes"
};

struct CopyRing {
  bool applies = false;  // the block's trace holds tensor-map copies
  int stageCount = 0, bm = 0, bn = 0, bk = 0;
  int consumers = 0;
  std::vector<RingStage> stages;
  std::vector<RingBarrier> barriers;  // full[0..], then empty[0..]
  // The consumers at their frontmost wait on a full barrier: how many passed it, how many
  // are blocked there (reached it, phase not completed), on which barrier and parity.
  int waiting = 0, passed = 0;
  int waitBarrier = -1, waitParity = -1;  // index into full[] (-1: no consumer has reached one)
  int copiesIssued = 0, copiesTotal = 0;
  bool nByThreads = false;  // N's tiles are written by the block's threads, not copied (RingCopy::byThreads)
  int producerX = -1, producerY = -1;
  std::string producer;  // what the copies' issuer does at the cursor, in words
  // Consumer reads the timeline places before their wait could pass (0 for a sound trace).
  int outOfOrder = 0;
  std::string waitText() const;  // "128 consumers waiting on full[0], parity 0; 0 passed"
};

// The schedule of one block's copies and mbarrier steps, built once per selected block.
class CopySchedule {
 public:
  static CopySchedule build(const Timeline& timeline, const BlockTimeline& block);
  bool applies() const { return !copies_.empty(); }
  CopyRing at(Cursor c) const;

  // Internal records, public for the builder in copy_ring.cpp.
  struct Step {        // one copy or mbarrier step of one thread
    uint32_t event = 0;
    int thread = 0;
    Moment at = kNever;  // when it is done
    Moment ready;        // when the thread's previous event was done: it has reached this one
    int barrier = -1;    // index into barriers_ (a copy: the barrier its bytes complete)
    int phase = -1;      // arrival, landing: the phase it counted in; wait: the phase it saw complete
    Moment release = kNever;  // a consumer's wait: when the thread next arrives (releases the stage)
  };
  struct Copy {
    std::size_t step = 0;  // into steps_
    int stage = 0, tile = 0, bytes = 0;
    bool isN = false, zeroFill = false;
    Moment landed = kNever;
    int fillPhase = -1;  // the phase of its full barrier that its bytes complete
  };
  struct ThreadWrite {  // a thread's write of an element of N's tile into a stage
    int stage = 0, tile = 0;
    Moment at;
  };
  struct Barrier {
    BarrierRole role = BarrierRole::Empty;
    int array = 0, index = 0, needed = 0;
    Moment initialised = kNever;
    std::vector<Moment> completions;
  };

 private:
  friend struct CopyScheduleBuilder;
  const Timeline* timeline_ = nullptr;
  int stageCount_ = 0, consumers_ = 0;
  int producer_ = -1;  // linear thread of the copies' issuer
  int outOfOrder_ = 0;
  std::vector<Step> steps_;
  std::vector<Copy> copies_;
  std::vector<ThreadWrite> nWrites_;  // only where no copy brings N's tile
  std::vector<Barrier> barriers_;
  std::vector<std::vector<std::size_t>> byThread_;  // into steps_, program order
  std::vector<int> stageFull_, stageEmpty_;          // per stage: its barriers (indices into barriers_)
  std::map<int, int> stageEmptyOf_;                  // full barrier -> the empty one waited on before filling it
  void fillStage(RingStage& s, Cursor c) const;
  void fillThreadWrites(RingStage& s, Cursor c) const;
  void fillWaits(CopyRing& ring, Cursor c) const;
  void fillProducer(CopyRing& ring, Cursor c) const;
};

}  // namespace tilescope
