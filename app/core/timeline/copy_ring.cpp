#include "core/timeline/copy_ring.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>

#include "kernels/catalog.h"

namespace tilescope {
namespace {

bool isPipelineStep(Op op) {  // the events the schedule places itself (copy_ring.h, "When")
  return op == Op::CopyM || op == Op::CopyN || op == Op::MbarrierArrive || op == Op::MbarrierWait;
}

}  // namespace

std::string_view stageStateName(StageState s) {
  switch (s) {
    case StageState::Empty: return "empty";
    case StageState::Filling: return "filling";
    case StageState::Full: return "full";
    case StageState::Reading: return "being read";
    case StageState::Released: return "released";
  }
  return "?";
}

std::string RingBarrier::name() const {
  return std::string(role == BarrierRole::Full ? "full[" : "empty[") + std::to_string(index) + "]";
}

std::string RingBarrier::text() const {
  const std::string n = name() + ": ";
  if (!initialised) return n + "not initialised yet";
  const std::string last = "phase " + std::to_string(completed - 1) + " complete, ";
  if (role == BarrierRole::Full) {
    // A full barrier that also waits for threads' arrivals (rung 11's producers write N's tile
    // themselves) says how many are in, beside the bytes.
    const std::string of = needed > 1 ? ", " + std::to_string(arrivals) + " of " + std::to_string(needed) + " arrivals" : "";
    if (arrivals > 0)
      return n + "phase " + std::to_string(completed) + " filling, " + std::to_string(bytesArrived) + " of " +
             std::to_string(bytesExpected) + " bytes" + of;
    const std::string all = needed > 1 ? ", " + std::to_string(needed) + " of " + std::to_string(needed) + " arrivals" : "";
    if (completed > 0) return n + last + std::to_string(lastBytes) + " of " + std::to_string(lastBytes) + " bytes" + all;
    return n + "phase 0, no copy issued yet";
  }
  if (arrivals > 0 || completed == 0)
    return n + "phase " + std::to_string(completed) + ", " + std::to_string(arrivals) + " of " + std::to_string(needed) +
           " consumers done";
  return n + last + std::to_string(needed) + " of " + std::to_string(needed) + " consumers done";
}

std::string CopyRing::waitText() const {
  if (waitBarrier < 0) return "no consumer has reached a wait on a full barrier yet";
  return std::to_string(waiting) + " consumer" + (waiting == 1 ? "" : "s") + " waiting on full[" +
         std::to_string(waitBarrier) + "], parity " + std::to_string(waitParity) + "; " + std::to_string(passed) +
         " passed it";
}

// Builds the schedule: the block's events per thread, the barriers and their roles, then a
// walk in the order of the moments at which things happen (copy_ring.h, "When").
struct CopyScheduleBuilder {
  CopyScheduleBuilder(const Timeline& t, const BlockTimeline& b, CopySchedule& out) : timeline(t), block(b), s(out) {}
  const Timeline& timeline;
  const BlockTimeline& block;
  CopySchedule& s;
  const std::vector<Event, EventAllocator<Event>>& events = timeline.trace().events;
  std::size_t begin = 0;
  std::vector<int> stepOf;                     // per event of the block: its timeline step
  std::vector<std::vector<uint32_t>> program;  // per thread: its events, program order
  std::map<std::pair<int, int>, int> barrierOf;  // (array, index) -> into s.barriers_

  // The walk's state.
  struct Live {
    int pending = 0;
    long long tx = 0;
    int phase = 0;
    std::vector<int> waiters;  // threads blocked on it
  };
  struct Thread {
    std::size_t next = 0;      // into program[t]
    int txBarrier = -1;        // the barrier its copies' bytes complete (its last expect_tx)
    int lastWait = -1;         // the barrier it last waited on
    std::size_t blockedStep = 0;
  };
  struct Item {
    Moment at;
    uint64_t seq;
    int thread;  // -1: a copy landing
    int copy;
    bool operator>(const Item& o) const { return std::tie(at, seq) > std::tie(o.at, o.seq); }
  };
  std::vector<Live> live;
  std::vector<Thread> threads;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  uint64_t seq = 0;

  int barrierIndex(const Event& e) const { return barrierOf.at({e.sharedCol, e.sharedRow}); }
  Moment anchor(uint32_t i, int thread) const { return {stepOf[i - begin], thread + 1}; }

  void collect();
  void findBarriers();
  void push(int thread, Moment after);
  void complete(int b, Moment at);
  void runThread(int thread, Moment at);
  void land(int copy, Moment at);
  void walk();
  void linkStages();
};

void CopyScheduleBuilder::collect() {
  const auto [b, e] = timeline.blockRange(block.bx(), block.by());
  begin = b;
  stepOf.assign(e - b, 0);
  for (int step = 0; step < timeline.steps(); ++step)
    for (uint32_t i : block.stepEvents(step)) stepOf[i - b] = step;
  program.assign(std::size_t(timeline.threadsPerBlock()), {});
  const unsigned blockX = timeline.trace().launch.blockX;
  for (std::size_t i = b; i < e; ++i) program[std::size_t(linearThread(events[i], blockX))].push_back(uint32_t(i));
}

// Each mbarrier once, its role from its array's arrivals: an array one of whose barriers has an
// arrival that announces transaction bytes counts the copies' bytes ("full"); the others count
// consumers done ("empty"). By array, not by barrier: a stage the launch never fills (more
// stages than k tiles) still has a full barrier, with no copy issued. Full ones first.
void CopyScheduleBuilder::findBarriers() {
  std::map<std::pair<int, int>, CopySchedule::Barrier> found;
  std::set<int> fullArrays;
  for (const auto& thread : program)
    for (uint32_t i : thread) {
      const Event& e = events[i];
      if (e.op != Op::MbarrierInit && e.op != Op::MbarrierArrive && e.op != Op::MbarrierWait) continue;
      CopySchedule::Barrier& bar = found[{e.sharedCol, e.sharedRow}];
      bar.array = e.sharedCol;
      bar.index = e.sharedRow;
      if (e.op == Op::MbarrierInit) bar.needed = int(e.value);
      if (e.op == Op::MbarrierArrive && e.value > 0) fullArrays.insert(e.sharedCol);
    }
  for (auto& [key, bar] : found)
    if (fullArrays.count(bar.array)) bar.role = BarrierRole::Full;
  for (BarrierRole role : {BarrierRole::Full, BarrierRole::Empty})
    for (auto& [key, bar] : found)
      if (bar.role == role) {
        barrierOf[key] = int(s.barriers_.size());
        s.barriers_.push_back(bar);
      }
  live.assign(s.barriers_.size(), {});
}

// Queues the thread's next copy, mbarrier step or initialisation, ready once `after` is
// reached. The events the timeline places (reads, the barrier, stores) are passed over here, at
// their places: they only move the thread's moment on, and a block has hundreds of thousands.
void CopyScheduleBuilder::push(int thread, Moment after) {
  Thread& t = threads[std::size_t(thread)];
  const auto& mine = program[std::size_t(thread)];
  for (; t.next < mine.size(); ++t.next) {
    const uint32_t i = mine[t.next];
    if (isPipelineStep(events[i].op)) break;
    const Moment placed = anchor(i, thread);
    if (placed < after) ++s.outOfOrder_;  // the timeline has it before its wait could pass
    after = std::max(placed, after);
    if (events[i].op == Op::MbarrierInit) break;
  }
  if (t.next < mine.size()) queue.push({after, seq++, thread, -1});
}

// A phase completes when its arrivals are all in and no announced byte is still on its way;
// the threads blocked on it whose parity now passes go on at that moment.
void CopyScheduleBuilder::complete(int b, Moment at) {
  Live& l = live[std::size_t(b)];
  CopySchedule::Barrier& bar = s.barriers_[std::size_t(b)];
  if (bar.initialised == kNever || l.pending > 0 || l.tx > 0) return;
  bar.completions.push_back(at);
  ++l.phase;
  l.pending = bar.needed;
  std::vector<int> still;
  for (int thread : l.waiters) {
    CopySchedule::Step& w = s.steps_[threads[std::size_t(thread)].blockedStep];
    if (l.phase % 2 == int(events[w.event].value)) {
      still.push_back(thread);
      continue;
    }
    w.at = at;
    w.phase = l.phase - 1;
    ++threads[std::size_t(thread)].next;
    push(thread, at);
  }
  l.waiters = std::move(still);
}

void CopyScheduleBuilder::land(int copy, Moment at) {
  CopySchedule::Copy& c = s.copies_[std::size_t(copy)];
  const int b = s.steps_[c.step].barrier;
  if (b < 0) return;  // bytes no arrival announced: nothing counts them
  c.landed = at;
  c.fillPhase = live[std::size_t(b)].phase;
  live[std::size_t(b)].tx -= c.bytes;
  complete(b, at);
}

// The thread's next event happens at `at` (or, a wait whose phase has not completed, blocks).
void CopyScheduleBuilder::runThread(int thread, Moment at) {
  Thread& t = threads[std::size_t(thread)];
  const uint32_t i = program[std::size_t(thread)][t.next];
  const Event& e = events[i];
  if (!isPipelineStep(e.op)) {
    if (e.op == Op::MbarrierInit) {
      const int b = barrierIndex(e);
      s.barriers_[std::size_t(b)].initialised = at;
      live[std::size_t(b)].pending = s.barriers_[std::size_t(b)].needed;
    }
    ++t.next;
    push(thread, at);
    return;
  }
  CopySchedule::Step step{i, thread, at, at};
  if (e.op == Op::MbarrierWait) {
    step.barrier = barrierIndex(e);
    Live& l = live[std::size_t(step.barrier)];
    t.lastWait = step.barrier;
    if (l.phase % 2 == int(e.value)) {  // the phase of that parity is not the last completed
      step.at = kNever;
      t.blockedStep = s.steps_.size();
      s.steps_.push_back(step);
      l.waiters.push_back(thread);
      return;
    }
    step.phase = l.phase - 1;
  } else if (e.op == Op::MbarrierArrive) {
    step.barrier = barrierIndex(e);
    Live& l = live[std::size_t(step.barrier)];
    step.phase = l.phase;
    --l.pending;
    l.tx += (long long)e.value;
    if (e.value > 0) {
      t.txBarrier = step.barrier;
      // The stage this arrival fills is released by the barrier the thread waited on before it.
      s.stageEmptyOf_[step.barrier] = t.lastWait;
    }
  } else {  // a copy: its bytes land one step later (copy_ring.h, "When")
    step.barrier = t.txBarrier;
    const Tiling& tiling = timeline.trace().launch.tiling;
    const bool isN = e.op == Op::CopyN;
    CopySchedule::Copy c{s.steps_.size(), e.sharedRow / (isN ? tiling.bk : tiling.bm),
                         (isN ? e.globalRow : e.globalCol) / tiling.bk, int(e.value), isN, zeroFilled(e)};
    const Moment lands{std::min(at.step + 1, timeline.steps() - 1), timeline.threadsPerBlock()};
    queue.push({lands, seq++, -1, int(s.copies_.size())});
    s.copies_.push_back(c);
  }
  s.steps_.push_back(step);
  if (step.barrier >= 0 && e.op == Op::MbarrierArrive) complete(step.barrier, at);
  ++t.next;
  push(thread, at);
}

void CopyScheduleBuilder::walk() {
  threads.assign(program.size(), {});
  for (int t = 0; t < int(program.size()); ++t) push(t, Moment{0, 0});
  while (!queue.empty()) {
    const Item item = queue.top();
    queue.pop();
    if (item.thread < 0) land(item.copy, item.at);
    else runThread(item.thread, item.at);
  }
}

// Per stage its full barrier (the one its copies complete) and its empty one; per consumer
// wait, when the thread next arrives on that stage's empty barrier: it has released the stage
// then. Not at its next arrival of any kind: with a group of MMAs in flight (rung 11) a consumer
// waits for stage t's tiles, then hands back stage t - 1, and never the last stage.
void CopyScheduleBuilder::linkStages() {
  s.stageFull_.assign(std::size_t(s.stageCount_), -1);
  s.stageEmpty_.assign(std::size_t(s.stageCount_), -1);
  for (const CopySchedule::Copy& c : s.copies_) {
    if (c.stage < 0 || c.stage >= s.stageCount_) continue;
    const int full = s.steps_[c.step].barrier;
    s.stageFull_[std::size_t(c.stage)] = full;
    if (auto it = s.stageEmptyOf_.find(full); it != s.stageEmptyOf_.end()) s.stageEmpty_[std::size_t(c.stage)] = it->second;
  }
  s.byThread_.assign(program.size(), {});
  for (std::size_t i = 0; i < s.steps_.size(); ++i) s.byThread_[std::size_t(s.steps_[i].thread)].push_back(i);
  std::vector<bool> consumer(program.size(), false);
  for (auto& mine : s.byThread_) {
    // Steps were recorded as they happened, which for one thread is program order.
    std::sort(mine.begin(), mine.end(), [&](std::size_t a, std::size_t b) { return s.steps_[a].event < s.steps_[b].event; });
    for (std::size_t k = 0; k < mine.size(); ++k) {
      CopySchedule::Step& w = s.steps_[mine[k]];
      if (events[w.event].op != Op::MbarrierWait || s.barriers_[std::size_t(w.barrier)].role != BarrierRole::Full) continue;
      consumer[std::size_t(w.thread)] = true;
      const auto emptyOf = s.stageEmptyOf_.find(w.barrier);
      const int empty = emptyOf == s.stageEmptyOf_.end() ? -1 : emptyOf->second;
      for (std::size_t n = k + 1; n < mine.size(); ++n)
        if (events[s.steps_[mine[n]].event].op == Op::MbarrierArrive &&
            (empty < 0 || s.steps_[mine[n]].barrier == empty)) {
          w.release = s.steps_[mine[n]].at;
          break;
        }
    }
  }
  s.consumers_ = int(std::count(consumer.begin(), consumer.end(), true));
  if (!s.copies_.empty()) s.producer_ = s.steps_[s.copies_.front().step].thread;
  // N's tile written by threads, where no copy brings it (rung 11): its stage from the slot's
  // row (Nds holds bn rows a stage), its k tile from the element's row of N, at the timeline's step.
  const bool nCopied = std::any_of(s.copies_.begin(), s.copies_.end(), [](const CopySchedule::Copy& c) { return c.isN; });
  const Tiling& tiling = timeline.trace().launch.tiling;
  if (nCopied || tiling.bn <= 0 || tiling.bk <= 0) return;
  const unsigned blockX = timeline.trace().launch.blockX;
  for (std::size_t i = begin; i < begin + stepOf.size(); ++i) {
    const Event& e = events[i];
    if (e.op == Op::LoadN && e.sharedRow >= 0 && e.globalRow >= 0)
      s.nWrites_.push_back({e.sharedRow / tiling.bn, e.globalRow / tiling.bk, anchor(uint32_t(i), linearThread(e, blockX))});
  }
}

CopySchedule CopySchedule::build(const Timeline& timeline, const BlockTimeline& block) {
  CopySchedule s;
  s.timeline_ = &timeline;
  const KernelLaunch& L = timeline.trace().launch;
  // The ring's depth from the launch's shared layout (the kernel's facts): Mds holds a bm x bk
  // tile per stage, and Nds starts after the last.
  const SharedTileLayout tiles = kernelSharedTiles(L);
  const int tileBytes = L.tiling.bm * L.tiling.bk * 4;
  s.stageCount_ = tileBytes > 0 ? int((tiles.baseN - tiles.baseM) / uint32_t(tileBytes)) : 0;
  CopyScheduleBuilder b(timeline, block, s);
  b.collect();
  b.findBarriers();
  b.walk();
  b.linkStages();
  return s;
}

// The newest filling issued into the stage at c, and where it stands.
void CopySchedule::fillStage(RingStage& st, Cursor c) const {
  int tile = -1;
  for (const Copy& k : copies_)
    if (k.stage == st.index && reached(steps_[k.step].at, c)) tile = std::max(tile, k.tile);
  fillThreadWrites(st, c);
  if (tile < 0) return;  // empty: nothing issued into it yet
  int fillPhase = -1;
  bool landed = true;
  for (const Copy& k : copies_) {
    if (k.stage != st.index || k.tile != tile || !reached(steps_[k.step].at, c)) continue;
    const Event& e = timeline_->trace().events[steps_[k.step].event];
    RingCopy& r = k.isN ? st.n : st.m;
    r = {k.tile, e.threadX, e.threadY, k.bytes, k.zeroFill, reached(k.landed, c)};
    st.bytesExpected += k.bytes;
    st.bytesArrived += r.landed ? k.bytes : 0;
    landed = landed && r.landed;
    fillPhase = k.fillPhase;
  }
  landed = landed && (!st.n.byThreads || st.n.bytesWritten == st.n.bytes);
  // Full once its barrier's phase completed: the copies' bytes landed and, where the barrier
  // also counts threads (rung 11's producers writing N's tile), every arrival is in.
  const int full = stageFull_[std::size_t(st.index)];
  bool complete = full < 0;  // bytes no arrival announced: landing is all there is
  if (full >= 0) {
    const std::vector<Moment>& completions = barriers_[std::size_t(full)].completions;
    complete = fillPhase >= 0 && fillPhase < int(completions.size()) && reached(completions[std::size_t(fillPhase)], c);
  }
  if (!landed || !complete) {
    st.state = StageState::Filling;
    return;
  }
  int passed = 0;
  for (const Step& w : steps_)
    if (w.barrier == full && w.phase == fillPhase && w.thread != producer_ &&
        timeline_->trace().events[w.event].op == Op::MbarrierWait && reached(w.at, c)) {
      ++passed;
      st.released += reached(w.release, c) ? 1 : 0;
    }
  st.readers = passed - st.released;
  st.state = consumers_ > 0 && st.released == consumers_ ? StageState::Released
             : passed > 0                                ? StageState::Reading
                                                         : StageState::Full;
}

// N's tile in the stage where the block's threads write it (nWrites_): the newest k tile any of
// its writes reached at c, and how many of that tile's bytes are in.
void CopySchedule::fillThreadWrites(RingStage& st, Cursor c) const {
  int tile = -1;
  for (const ThreadWrite& w : nWrites_)
    if (w.stage == st.index && reached(w.at, c)) tile = std::max(tile, w.tile);
  if (tile < 0) return;
  RingCopy& n = st.n;
  n.tile = tile;
  n.byThreads = true;
  for (const ThreadWrite& w : nWrites_)
    if (w.stage == st.index && w.tile == tile) {
      n.bytes += 4;
      n.bytesWritten += reached(w.at, c) ? 4 : 0;
    }
  n.landed = n.bytesWritten == n.bytes;
}

// The consumers at their frontmost wait on a full barrier: the n-th such wait of its thread
// that any consumer has reached; how many passed it and how many are blocked there.
void CopySchedule::fillWaits(CopyRing& ring, Cursor c) const {
  const auto& events = timeline_->trace().events;
  auto fullWaits = [&](int thread) {
    std::vector<std::size_t> out;
    for (std::size_t i : byThread_[std::size_t(thread)])
      if (events[steps_[i].event].op == Op::MbarrierWait && barriers_[std::size_t(steps_[i].barrier)].role == BarrierRole::Full)
        out.push_back(i);
    return out;
  };
  std::vector<std::vector<std::size_t>> waits(byThread_.size());
  int front = -1;
  for (std::size_t t = 0; t < byThread_.size(); ++t) {
    waits[t] = fullWaits(int(t));
    for (std::size_t n = 0; n < waits[t].size(); ++n)
      if (reached(steps_[waits[t][n]].ready, c)) front = std::max(front, int(n));
  }
  if (front < 0) return;
  for (const auto& mine : waits) {
    if (int(mine.size()) <= front) continue;
    const Step& w = steps_[mine[std::size_t(front)]];
    ring.waitBarrier = barriers_[std::size_t(w.barrier)].index;
    ring.waitParity = int(events[w.event].value);
    if (reached(w.at, c)) ++ring.passed;
    else if (reached(w.ready, c)) ++ring.waiting;
  }
}

// The copies' issuer in words: blocked on an empty barrier, issuing, or done. Where threads
// take turns at the copies (rung 11's two producer warpgroups), the one that issues the next
// copy, and all of them once every copy is issued.
void CopySchedule::fillProducer(CopyRing& ring, Cursor c) const {
  if (producer_ < 0) return;
  const auto& events = timeline_->trace().events;
  std::vector<int> issuers;           // linear threads, in the order of their first copy
  std::string issuerNames;            // "tx=128 and tx=256"
  std::size_t next = copies_.size();  // the first copy not yet issued at c
  for (std::size_t i = 0; i < copies_.size(); ++i) {
    const Step& st = steps_[copies_[i].step];
    if (std::find(issuers.begin(), issuers.end(), st.thread) == issuers.end()) {
      issuerNames = issuerNames.empty() ? "" : issuerNames + " and ";
      issuerNames += "tx=" + std::to_string(events[st.event].threadX);
      issuers.push_back(st.thread);
    }
    if (next == copies_.size() && !reached(st.at, c)) next = i;
  }
  const Step& issuing = steps_[copies_[next == copies_.size() ? 0 : next].step];
  ring.producerX = events[issuing.event].threadX;
  ring.producerY = events[issuing.event].threadY;
  const int producer = issuing.thread;
  std::string who = threadName(ring.producerX, ring.producerY);
  if (issuers.size() > 1) {
    if (next == copies_.size()) {
      ring.producer = "threads " + issuerNames + ", taking turns, have issued all " + std::to_string(ring.copiesTotal) + " copies";
      return;
    }
    who += " (of threads " + issuerNames + ", taking turns at the copies)";
  }
  for (std::size_t i : byThread_[std::size_t(producer)]) {
    const Step& st = steps_[i];
    if (reached(st.at, c)) continue;
    if (!reached(st.ready, c)) {
      ring.producer = who + " has issued " + std::to_string(ring.copiesIssued) + " copies so far";
      return;
    }
    const Event& e = timeline_->trace().events[st.event];
    const Barrier& b = barriers_[std::size_t(st.barrier)];
    const RingBarrier named{b.role, b.index};
    std::string what = "the consumers release its stage";
    for (int s = 0; s < stageCount_; ++s)
      if (stageEmpty_[std::size_t(s)] == st.barrier && ring.stages[std::size_t(s)].m.tile >= 0)
        what = "the consumers release stage " + std::to_string(s) + " (k tile " +
               std::to_string(ring.stages[std::size_t(s)].m.tile) + ")";
    ring.producer = who + " waits on " + named.name() + ", parity " + std::to_string(int(e.value)) + ", until " + what;
    return;
  }
  ring.producer = who + " has issued all " + std::to_string(ring.copiesTotal) + " copies";
}

CopyRing CopySchedule::at(Cursor c) const {
  CopyRing ring;
  ring.applies = applies();
  if (!ring.applies) return ring;
  const Tiling& t = timeline_->trace().launch.tiling;
  ring.stageCount = stageCount_;
  ring.bm = t.bm;
  ring.bn = t.bn;
  ring.bk = t.bk;
  ring.consumers = consumers_;
  ring.outOfOrder = outOfOrder_;
  ring.copiesTotal = int(copies_.size());
  ring.nByThreads = !nWrites_.empty();
  for (const Copy& k : copies_) ring.copiesIssued += reached(steps_[k.step].at, c) ? 1 : 0;
  for (int s = 0; s < stageCount_; ++s) {
    RingStage st;
    st.index = s;
    fillStage(st, c);
    ring.stages.push_back(st);
  }
  const auto& events = timeline_->trace().events;
  for (std::size_t b = 0; b < barriers_.size(); ++b) {
    const Barrier& bar = barriers_[b];
    RingBarrier r{bar.role, bar.index, reached(bar.initialised, c)};
    r.needed = bar.needed;
    for (Moment m : bar.completions) r.completed += reached(m, c) ? 1 : 0;
    for (const Step& st : steps_) {
      if (st.barrier != int(b) || events[st.event].op != Op::MbarrierArrive) continue;
      const int bytes = int(events[st.event].value);
      if (st.phase == r.completed - 1) r.lastBytes += bytes;
      if (st.phase != r.completed || !reached(st.at, c)) continue;
      ++r.arrivals;
      r.bytesExpected += bytes;
    }
    for (const Copy& k : copies_)
      if (steps_[k.step].barrier == int(b) && k.fillPhase == r.completed && reached(k.landed, c)) r.bytesArrived += k.bytes;
    ring.barriers.push_back(r);
  }
  fillWaits(ring, c);
  fillProducer(ring, c);
  return ring;
}

}  // namespace tilescope
