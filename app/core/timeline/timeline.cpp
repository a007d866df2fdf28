#include "core/timeline/timeline.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/timeline/block_geometry.h"
#include "core/timeline/race_index.h"
#include "core/timeline/step_keys.h"
#include "core/trace/memory_layout.h"
#include "kernels/trace/step_rules.h"

namespace tilescope {
namespace {

using timeline_detail::KeyWalker;

// Per-thread exact counts are kept only while they stay small; past this the counters of a
// partly done step are interpolated (step totals stay exact).
constexpr std::size_t kMaxStepThreadEntries = std::size_t(1) << 21;

enum CountField { kLoads, kZeroFills, kOutOfBounds, kSharedReads, kFmas, kStores };

// Real order takes a step per thread and part of each interval; past this many steps the
// timeline would be too long to walk, and a race is drawn in lockstep with a note instead.
constexpr uint64_t kMaxRealOrderKeys = uint64_t(1) << 20;

void add(Counters& c, const std::array<uint32_t, 6>& n) {
  c.globalLoads += n[kLoads];
  c.zeroFills += n[kZeroFills];
  c.outOfBounds += n[kOutOfBounds];
  c.sharedReads += n[kSharedReads];
  c.fmas += n[kFmas];
  c.stores += n[kStores];
}

// Counts elements: a 128-bit access is four. A value staged through registers counts as a
// global load at its read (kStagedRead), not again at its shared write. A tensor-map copy
// (rungs 8 and 9: no thread loads, the producer's copy engine does) counts the elements of M or
// N its box reads (copiedBytes: zero-filled ones excluded), at the producer's step.
void countEvent(std::array<uint32_t, 6>& n, const Event& e, uint32_t fmas, const KernelLaunch& launch) {
  const bool zero = zeroFilled(e);
  const uint32_t width = uint32_t(eventWidth(e.flags));
  if (!zero && !inBounds(e) && e.op != Op::Barrier && !(e.flags & kStagedWrite)) n[kOutOfBounds] += width;
  n[kFmas] += fmas;
  switch (e.op) {
    case Op::LoadM:
    case Op::LoadN:
      if (e.flags & kStagedWrite) break;
      n[zero ? kZeroFills : kLoads] += width;
      break;
    case Op::ReadM:
    case Op::ReadN: n[kSharedReads] += width; break;
    case Op::StoreP: n[kStores] += width; break;
    case Op::CopyM:
    case Op::CopyN: n[kLoads] += uint32_t(copiedBytes(e, launch) / kElementBytes); break;
    case Op::LoadW:  // the workspace: neither loads of M or N nor stores of P
    case Op::StoreW:
    default: break;
  }
}

// The events of each block in turn, each with its dense step key (KeyWalker).
template <class Visit>
void walkKeys(const Trace& trace, const std::vector<std::size_t>& blockBegin, KeyWalker& walker, Visit&& visit) {
  const auto& events = trace.events;
  for (std::size_t b = 0; b + 1 < blockBegin.size(); ++b) {
    walker.startBlock();
    for (std::size_t i = blockBegin[b]; i < blockBegin[b + 1]; ++i)
      visit(i, events[i], walker.key(events[i], linearThread(events[i], trace.launch.blockX)));
  }
}

// Pass 1: where each block's events begin, the largest k and the most barriers any thread
// passes; with `mixed`, also which blocks the stale-read scan must look at (IntervalMix).
struct BlockScan {
  int maxK = -1;
  uint32_t maxBarriers = 0;
  int maxPhase = 0;
  bool ring = false;  // some thread waited on an mbarrier: phases come from the ring (KeyWalker)
  uint64_t phaseSpan() const { return ring ? uint64_t(maxPhase) + 1 : 1; }
};
BlockScan scanBlocks(const Trace& trace, int threadsPerBlock, std::vector<std::size_t>& blockBegin,
                     std::vector<uint8_t>* mixed) {
  const KernelLaunch& launch = trace.launch;
  const std::size_t nBlocks = std::size_t(launch.gridX) * launch.gridY;
  const auto& events = trace.events;
  blockBegin.assign(nBlocks + 1, events.size());
  if (mixed) mixed->assign(nBlocks, 0);
  BlockScan scan;
  std::vector<uint32_t> barriers(std::size_t(threadsPerBlock), 0);
  IntervalMix mix;
  std::size_t current = SIZE_MAX;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    const std::size_t b = std::size_t(e.blockY) * launch.gridX + e.blockX;
    if (b != current) {
      if (mixed && current != SIZE_MAX) (*mixed)[current] |= mix.mixed();
      current = b;
      blockBegin[b] = i;
      std::fill(barriers.begin(), barriers.end(), 0);
      mix.startBlock();
    }
    scan.maxK = std::max(scan.maxK, int(e.k));
    scan.maxPhase = std::max(scan.maxPhase, int(e.phase));
    scan.ring = scan.ring || e.op == Op::MbarrierWait;
    uint32_t& passed = barriers[std::size_t(linearThread(e, launch.blockX))];
    if (e.op == Op::Barrier) scan.maxBarriers = std::max(scan.maxBarriers, ++passed);
    else if (mixed) mix.add(e, passed);
  }
  if (mixed && current != SIZE_MAX) (*mixed)[current] |= mix.mixed();
  // Blocks without events start where the next block does.
  for (std::size_t b = nBlocks; b-- > 0;)
    if (blockBegin[b] == events.size() || blockBegin[b] > blockBegin[b + 1]) blockBegin[b] = blockBegin[b + 1];
  return scan;
}

// Pass 2's findings per key: whether it occurs, the kinds of step it holds, its phase.
struct KeyInfo {
  bool used = false;
  uint8_t ops = 0;  // bit per StepKind seen
  uint32_t opBits = 0;  // bit per Op seen
  int phase = 0;
};
static_assert(kOpCount <= 32, "KeyInfo::opBits holds a bit per Op");

// An mbarrier step names no kind (StepKind): a ring's waits and arrivals sit beside the
// copies and the k steps they order, which name the step. (Only rings have such events.)
void noteKey(KeyInfo& k, const Event& e) {
  if (!k.used) k.phase = e.phase;
  k.used = true;
  k.opBits |= 1u << unsigned(e.op);
  StepKind kind = StepKind::Mixed;
  switch (activityOf(e)) {
    case ThreadState::Idle: return;
    case ThreadState::Loading: kind = StepKind::Load; break;
    case ThreadState::Computing: kind = StepKind::Compute; break;
    case ThreadState::Waiting: kind = StepKind::Barrier; break;
    case ThreadState::Stored: kind = StepKind::Store; break;
    default: break;
  }
  k.ops |= uint8_t(1u << int(kind));
}

// The steps: one per used key, in key order, with its interval, thread (real order), k, phase
// and kind; keyToStep maps each key to its step (-1 unused).
std::vector<StepInfo> stepsOfKeys(const std::vector<KeyInfo>& info, uint64_t keySpan, uint64_t phaseSpan, uint64_t tpb,
                                  bool realOrder, int maxK, std::vector<int>& keyToStep) {
  std::vector<StepInfo> steps;
  keyToStep.assign(info.size(), -1);
  for (uint64_t key = 0; key < info.size(); ++key) {
    if (!info[key].used) continue;
    StepInfo s;
    s.interval = int(key / keySpan / phaseSpan / (realOrder ? tpb : 1));
    if (realOrder) s.thread = int(key / keySpan / phaseSpan % tpb);
    const uint64_t sub = key % keySpan;
    s.k = (sub >= 1 && sub <= uint64_t(maxK) + 1) ? int(sub - 1) : -1;
    s.phase = info[key].phase;
    s.opBits = info[key].opBits;
    const uint8_t ops = info[key].ops;
    s.kind = (ops == 0 || (ops & (ops - 1))) ? StepKind::Mixed : StepKind(std::countr_zero(unsigned(ops)));
    keyToStep[key] = int(steps.size());
    steps.push_back(s);
  }
  if (steps.empty()) steps.push_back(StepInfo{});  // an empty trace still has a cursor
  // In real order every thread's arrival is a step of its own: they share the interval's number.
  for (std::size_t s = 0, count = 0, lastInterval = SIZE_MAX; s < steps.size(); ++s) {
    if (s > 0 && steps[s].phase != steps[s - 1].phase) count = 0;
    if (steps[s].kind != StepKind::Barrier) continue;
    if (std::size_t(steps[s].interval) != lastInterval) ++count;
    lastInterval = std::size_t(steps[s].interval);
    steps[s].barrierOfPhase = int(count);
  }
  return steps;
}

// Groups: a new group starts where the grouping key changes. The P store is its own phase group
// so that "step phase" ends on it rather than folding it into the last phase.
void buildGroups(const std::vector<StepInfo>& steps, int threadsPerBlock,
                 std::array<std::vector<int>, kGranularityCount>& groupOf,
                 std::array<std::vector<int>, kGranularityCount>& groupEnd) {
  for (int g = 0; g < kGranularityCount; ++g) {
    auto keyOf = [&](const StepInfo& s) -> int64_t {
      switch (Granularity(g)) {
        case Granularity::Phase: return s.kind == StepKind::Store ? -1 : s.phase;
        case Granularity::Interval: return int64_t(s.interval) * threadsPerBlock + std::max(s.thread, 0);
        case Granularity::KStep: break;
      }
      return 0;
    };
    auto& of = groupOf[std::size_t(g)];
    auto& end = groupEnd[std::size_t(g)];
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const bool fresh = s == 0 || Granularity(g) == Granularity::KStep || keyOf(steps[s]) != keyOf(steps[s - 1]);
      if (fresh) end.push_back(int(s));
      end.back() = int(s);
      of.push_back(int(end.size()) - 1);
    }
  }
}

// The last step of each phase (the P store left out).
std::vector<int> phaseLastSteps(const std::vector<StepInfo>& steps, int phases) {
  std::vector<int> last(std::size_t(std::max(phases, 0)), -1);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const StepInfo& st = steps[s];
    if (st.kind != StepKind::Store && st.phase >= 0 && st.phase < int(last.size())) last[std::size_t(st.phase)] = int(s);
  }
  return last;
}

}  // namespace

std::string_view granularityName(Granularity g) {
  switch (g) {
    case Granularity::Phase: return "phase";
    case Granularity::Interval: return "interval";
    case Granularity::KStep: return "k";
  }
  return "?";
}

std::string_view threadStateName(ThreadState s) {
  switch (s) {
    case ThreadState::Idle: return "idle";
    case ThreadState::Loading: return "loading";
    case ThreadState::Waiting: return "waiting at barrier";
    case ThreadState::Released: return "released";
    case ThreadState::Computing: return "computing";
    case ThreadState::Stored: return "stored";
  }
  return "?";
}

ThreadState activityOf(const Event& e) {
  switch (e.op) {
    case Op::LoadM:
    case Op::LoadN: return e.k >= 0 ? ThreadState::Computing : ThreadState::Loading;
    case Op::ReadM:
    case Op::ReadN: return ThreadState::Computing;
    case Op::Barrier: return ThreadState::Waiting;
    case Op::StoreP: return ThreadState::Stored;
    case Op::LoadW: return ThreadState::Loading;  // reads another block's partial sums from global memory
    case Op::CopyM:  // the producer loads a ring stage's tiles through the copy engine
    case Op::CopyN: return ThreadState::Loading;
    default: return ThreadState::Idle;
  }
}

Timeline Timeline::build(const Trace& trace, bool emulated) {
  Timeline t;
  t.trace_ = &trace;
  const KernelLaunch& launch = trace.launch;
  t.threadsPerBlock_ = int(std::max(1u, launch.blockX * launch.blockY));
  std::vector<uint8_t> mixed;
  const BlockScan scan = scanBlocks(trace, t.threadsPerBlock_, t.blockBegin_, emulated ? &mixed : nullptr);
  t.keySpan_ = uint64_t(scan.maxK + 1) + 3;
  t.phaseSpan_ = scan.phaseSpan();
  t.phaseCount_ = scan.ring ? scan.maxPhase + 1 : trace.phases;
  const uint64_t lockstepKeys = (uint64_t(scan.maxBarriers) + 1) * t.phaseSpan_ * t.keySpan_;
  // In a ring (threads wait on mbarriers) the emulator interleaves threads at their waits, so
  // the canonical order is not the order that ran and cannot tell a stale read: rung 11's
  // consumers come before the producers whose writes of N's tile they waited for. The
  // mbarriers order a ring (copy_ring.h), which is drawn in lockstep by its phases.
  if (emulated && scan.ring) t.orderNote_ = "a ring's threads take turns at their mbarrier waits: drawn in lockstep by its phases";
  else if (emulated) t.stale_ = findRacedReads(trace, t.blockBegin_, mixed);
  else t.orderNote_ = "a GPU trace records what each thread did, not the order threads ran in: drawn in lockstep";
  if (!t.stale_.empty()) {
    t.realOrder_ = lockstepKeys * uint64_t(t.threadsPerBlock_) <= kMaxRealOrderKeys;
    if (!t.realOrder_) t.orderNote_ = "too many threads to draw one at a time: drawn in lockstep";
  }
  const uint64_t tpb = uint64_t(t.threadsPerBlock_);
  const uint64_t keys = lockstepKeys * (t.realOrder_ ? tpb : 1);

  // Pass 2: which keys occur, with their ops and phase; the steps they make. Each event's key
  // is kept (in eventStep_, which pass 3 turns into its step): keys fit: see kMaxRealOrderKeys.
  std::vector<KeyInfo> info(keys);
  KeyWalker walker(t.keySpan_, t.threadsPerBlock_, t.realOrder_, t.phaseSpan_);
  t.eventStep_.resize(trace.events.size());
  walkKeys(trace, t.blockBegin_, walker, [&](std::size_t i, const Event& e, uint64_t key) {
    noteKey(info[key], e);
    t.eventStep_[i] = int32_t(key);
  });
  t.steps_ = stepsOfKeys(info, t.keySpan_, t.phaseSpan_, tpb, t.realOrder_, scan.maxK, t.keyToStep_);
  t.countSteps();
  return t;
}

// Pass 3: counts per step and thread, who stores each P element when, and the race and
// running-sum index (race_index.h), in one walk.
void Timeline::countSteps() {
  const Trace& trace = *trace_;
  const KernelLaunch& launch = trace.launch;
  const std::size_t nSteps = steps_.size(), tpb = std::size_t(threadsPerBlock_);
  const bool perThread = nSteps * tpb <= kMaxStepThreadEntries;
  // Per thread when kept (the step's total is their sum, taken after), else per step.
  std::vector<std::array<uint32_t, 6>> stepTotals(nSteps, std::array<uint32_t, 6>{});
  if (perThread) stepThreadCounts_.assign(nSteps * tpb, {});
  pCols_ = launch.l;
  pStoreEvent_.assign(std::size_t(launch.j) * std::size_t(launch.l), -1);
  pStoreStep_.assign(pStoreEvent_.size(), -1);
  KStepProducts products(wideReadOfMSpansK(launch));
  const std::size_t threads = std::size_t(launch.gridX) * launch.gridY * tpb;
  timeline_detail::RaceIndexBuilder races(stale_, threads, trace.events.size(), staleStep_, firstStale_);
  for (std::size_t b = 0; b + 1 < blockBegin_.size(); ++b)
    for (std::size_t i = blockBegin_[b]; i < blockBegin_[b + 1]; ++i) {
      const Event& e = trace.events[i];
      const int s = keyToStep_[std::size_t(eventStep_[i])];
      eventStep_[i] = s;
      const std::size_t thread = std::size_t(linearThread(e, launch.blockX));
      const uint32_t fmas = products.add(e);
      countEvent(perThread ? stepThreadCounts_[std::size_t(s) * tpb + thread] : stepTotals[std::size_t(s)], e, fmas, launch);
      if (e.op == Op::StoreP && inBounds(e))
        for (const GridCell& at : elementsOf(e)) {
          if (at.col >= launch.l) continue;
          const std::size_t cell = std::size_t(at.row) * std::size_t(launch.l) + std::size_t(at.col);
          pStoreEvent_[cell] = int64_t(i);
          pStoreStep_[cell] = s;
        }
      races.visit(i, e, s, (std::size_t(e.blockY) * launch.gridX + e.blockX) * tpb + thread);
      if (readsGlobal(e) && inBounds(e)) loadEvents_.push_back(uint32_t(i));
    }
  races.finish(threads, sumBegin_, sums_);
  if (perThread)
    for (std::size_t s = 0; s < nSteps; ++s)
      for (std::size_t thread = 0; thread < tpb; ++thread) {
        const auto& n = stepThreadCounts_[s * tpb + thread];
        for (std::size_t f = 0; f < n.size(); ++f) stepTotals[s][f] += n[f];
      }
  cumulative_.assign(nSteps + 1, Counters{});
  for (std::size_t s = 0; s < nSteps; ++s) {
    cumulative_[s + 1] = cumulative_[s];
    add(cumulative_[s + 1], stepTotals[s]);
  }
  buildGroups(steps_, threadsPerBlock_, groupOf_, groupEnd_);
  phaseLastStep_ = phaseLastSteps(steps_, phaseCount_);
  if (phaseSpan_ > 1) {
    blockPhases_.assign(blockBegin_.size() - 1, 0);
    for (std::size_t b = 0; b + 1 < blockBegin_.size(); ++b)
      for (std::size_t i = blockBegin_[b]; i < blockBegin_[b + 1]; ++i)
        blockPhases_[b] = std::max(blockPhases_[b], int(trace.events[i].phase) + 1);
  }
  buildCellThreads();
}

std::pair<std::size_t, std::size_t> Timeline::blockRange(int bx, int by) const {
  const std::size_t b = std::size_t(by) * trace_->launch.gridX + std::size_t(bx);
  if (b + 1 >= blockBegin_.size()) return {0, 0};
  return {blockBegin_[b], blockBegin_[b + 1]};
}

std::string Timeline::stepLabel(int s) const {
  const StepInfo& st = step(s);
  const bool phased = trace_->phases > 0;
  std::string phase = phased ? "phase " + std::to_string(st.phase) + " \xc2\xb7 " : "";
  if (st.thread >= 0) {  // real order: one thread at a time
    const int bx = int(std::max(1u, trace_->launch.blockX));
    phase += "thread tx=" + std::to_string(st.thread % bx) + ", ty=" + std::to_string(st.thread / bx) + " \xc2\xb7 ";
  }
  switch (st.kind) {
    case StepKind::Load: return phase + "load tiles";
    case StepKind::Barrier: {
      // A barrier before any step protects what the kernel set up before it (tma-pipeline's
      // mbarriers): written, then read by every thread, a read-after-write too.
      const bool first = s == 0 || (s == 1 && step(0).opBits == 1u << unsigned(Op::MbarrierInit));
      const bool afterLoads = s > 0 && step(s - 1).kind == StepKind::Load;
      return phase + "barrier " + std::to_string(st.barrierOfPhase) +
             (first ? " (set up: read-after-write)"
                    : afterLoads ? " (tiles loaded: read-after-write)" : " (reads done: write-after-read)");
    }
    case StepKind::Compute: return phase + "k = " + std::to_string(st.k);
    case StepKind::Store: return "store P";
    case StepKind::Mixed: break;
  }
  // A ring's steps of its own (step_rules.h): rung 9's fix-up of split tiles, where one block
  // leaves its partial sums while another adds them and stores P, and the mbarriers' set-up.
  auto has = [&](Op op) { return (st.opBits >> unsigned(op)) & 1u; };
  if (has(Op::LoadW) || has(Op::StoreW)) return phase + (has(Op::StoreP) ? "partial sums, store P" : "partial sums");
  if (has(Op::MbarrierInit)) return phase + "set up the mbarriers";
  return phase + "step " + std::to_string(s);
}

Cursor Timeline::end() const { return {steps() - 1, threadsPerBlock_}; }

Cursor Timeline::normalize(Cursor c) const {
  if (c.step < 0) return begin();
  if (c.step >= steps()) return end();
  c.threads = std::clamp(c.threads, 0, threadsPerBlock_);
  if (c.threads == 0 && c.step > 0) return {c.step - 1, threadsPerBlock_};
  return c;
}

Cursor Timeline::stepForward(Cursor c, Granularity g) const {
  c = normalize(c);
  int group = groupOf(c.step, g);
  const bool atGroupEnd = c.step == groupEndStep(group, g) && c.threads == threadsPerBlock_;
  if (atGroupEnd) ++group;
  if (group >= groups(g)) return end();
  return stepEnd(groupEndStep(group, g));
}

Cursor Timeline::stepBack(Cursor c, Granularity g) const {
  c = normalize(c);
  if (c == begin()) return c;
  const int group = groupOf(c.step, g);
  const bool atGroupEnd = c.step == groupEndStep(group, g) && c.threads == threadsPerBlock_;
  const int target = atGroupEnd ? group - 1 : group - 1;  // mid-group also goes to the previous end
  return target < 0 ? begin() : stepEnd(groupEndStep(target, g));
}

Cursor Timeline::seekPhase(int p) const {
  for (int s = 0; s < steps(); ++s)
    if (step(s).phase >= p && step(s).kind != StepKind::Store) return stepEnd(s);
  return end();
}

double Timeline::position(Cursor c) const {
  c = normalize(c);
  return double(c.step) + double(c.threads) / double(threadsPerBlock_);
}

Cursor Timeline::atPosition(double position) const {
  if (!(position > 0.0)) return begin();
  const double whole = std::floor(position);
  const int s = int(std::min(whole, double(steps())));
  const int threads = int(std::lround((position - whole) * threadsPerBlock_));
  return normalize({s, threads});
}

Counters Timeline::countersAt(Cursor c) const {
  c = normalize(c);
  Counters out = cumulative_[std::size_t(c.step)];
  if (c.threads >= threadsPerBlock_) {
    out = cumulative_[std::size_t(c.step) + 1];
  } else if (!stepThreadCounts_.empty()) {
    const std::size_t row = std::size_t(c.step) * std::size_t(threadsPerBlock_);
    for (int thread = 0; thread < c.threads; ++thread) add(out, stepThreadCounts_[row + std::size_t(thread)]);
  } else {
    // Interpolated: see kMaxStepThreadEntries.
    const Counters& a = cumulative_[std::size_t(c.step)];
    const Counters& b = cumulative_[std::size_t(c.step) + 1];
    const double f = double(c.threads) / double(threadsPerBlock_);
    auto lerp = [&](uint64_t x, uint64_t y) { return x + uint64_t(double(y - x) * f); };
    out = {lerp(a.globalLoads, b.globalLoads), lerp(a.zeroFills, b.zeroFills), lerp(a.outOfBounds, b.outOfBounds),
           lerp(a.sharedReads, b.sharedReads), lerp(a.fmas, b.fmas), lerp(a.stores, b.stores)};
  }
  return out;
}

int Timeline::phasesDone(Cursor c) const {
  c = normalize(c);
  int n = 0;
  for (int last : phaseLastStep_)
    if (last >= 0 && (last < c.step || (last == c.step && c.threads == threadsPerBlock_))) ++n;
  return n;
}

int Timeline::phases(int bx, int by) const {
  const std::size_t b = std::size_t(by) * trace_->launch.gridX + std::size_t(bx);
  return b < blockPhases_.size() ? blockPhases_[b] : phases();
}

int Timeline::phasesDone(Cursor c, int bx, int by) const { return std::min(phasesDone(c), phases(bx, by)); }

bool Timeline::pStored(Cursor c, int row, int col) const {
  const std::size_t cell = std::size_t(row) * std::size_t(pCols_) + std::size_t(col);
  const int s = pStoreStep_[cell];
  if (s < 0) return false;
  const Event& e = trace_->events[std::size_t(pStoreEvent_[cell])];
  return done(normalize(c), s, linearThread(e, trace_->launch.blockX));
}

}  // namespace tilescope
