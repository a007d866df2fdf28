#include "trace.h"

#include <sys/mman.h>

#include <algorithm>
#include <thread>

#include "backend.h"
#include "kernels/step_rules.h"
#include "launch_config.h"

namespace tilescope {

std::string_view opName(Op op) {
  switch (op) {
    case Op::LoadM: return "load_m";
    case Op::LoadN: return "load_n";
    case Op::ReadM: return "read_m";
    case Op::ReadN: return "read_n";
    case Op::Barrier: return "barrier";
    case Op::StoreP: return "store_p";
    case Op::None: break;
  }
  return "none";
}

namespace {
// Copies one block's events into `out` in canonical order, deriving each event's phase and
// k step (kernels/step_rules.h); `used[t]` is thread t's count.
struct DecodeScratch {
  std::vector<unsigned> cursor, intervalEnd;
  std::vector<IntervalScan> scans;
  std::vector<ThreadSteps> steps;
};

void decodeBlock(const Event* blockSlots, unsigned slotsPerThread, const unsigned* used, unsigned threads,
                 Event* out, DecodeScratch& d) {
  d.cursor.assign(threads, 0);
  d.intervalEnd.assign(threads, 0);
  d.scans.assign(threads, IntervalScan{});
  d.steps.assign(threads, ThreadSteps{});
  BlockPhase block;
  for (;;) {  // one barrier interval per pass
    bool any = false, anyWrites = false, anyWritesAfterCompute = false;
    for (unsigned t = 0; t < threads; ++t) {
      const Event* thread = blockSlots + std::size_t(t) * slotsPerThread;
      IntervalScan scan;
      unsigned end = d.cursor[t];
      while (end < used[t]) {
        const Event& e = thread[end];
        scan.add(e, end - d.cursor[t]);
        ++end;
        if (e.op == Op::Barrier) break;
      }
      any = any || end > d.cursor[t];
      anyWrites = anyWrites || scan.writes();
      anyWritesAfterCompute = anyWritesAfterCompute || scan.writesAfterCompute();
      d.intervalEnd[t] = end;
      d.scans[t] = scan;
    }
    if (!any) return;
    const bool newPhase = block.beginInterval(anyWrites, anyWritesAfterCompute);
    bool computedInPhase = false;
    for (unsigned t = 0; t < threads; ++t) {
      const Event* thread = blockSlots + std::size_t(t) * slotsPerThread;
      d.steps[t].beginInterval(d.scans[t], block, newPhase);
      for (unsigned i = d.cursor[t]; i < d.intervalEnd[t]; ++i) {
        *out = thread[i];
        computedInPhase = d.steps[t].derive(*out++, i - d.cursor[t], block) || computedInPhase;
      }
      d.cursor[t] = d.intervalEnd[t];
    }
    block.endInterval(computedInPhase);
  }
}
}  // namespace

void* allocateEventStorage(std::size_t bytes) {
  constexpr std::size_t kHugePage = std::size_t(2) << 20;
  if (bytes < 32 * kHugePage) {
    if (void* p = std::malloc(std::max<std::size_t>(bytes, 1))) return p;
    throw std::bad_alloc();
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
  madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages it is just slower
  return p;
}

namespace {
Status checkOverflow(const LaunchPlan& plan, bool overflowed) {
  if (overflowed)
    return failure("trace overflow: a thread recorded more than the " + std::to_string(plan.slotsPerThread) +
                   " events planned for it (a kernel/plan mismatch)");
  return Ok{};
}
}  // namespace

Status checkCanonicalOrder(const Trace& trace) {
  const KernelLaunch& L = trace.launch;
  const std::size_t threads = std::size_t(L.blockX) * L.blockY;
  std::vector<uint32_t> barriersPassed(threads, 0);
  long previousBlock = -1;
  uint32_t interval = 0;
  long lastThread = -1;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    auto broken = [&](const std::string& why) {
      return failure("event " + std::to_string(i) + " breaks the canonical trace order: " + why);
    };
    if (e.blockX >= L.gridX || e.blockY >= L.gridY || e.threadX >= L.blockX || e.threadY >= L.blockY)
      return broken("its block or thread is outside the launch");
    const long block = long(e.blockY) * long(L.gridX) + e.blockX;
    if (block != previousBlock) {
      if (block < previousBlock) return broken("blocks must come in y-major order, each once");
      previousBlock = block;
      std::fill(barriersPassed.begin(), barriersPassed.end(), 0u);
      interval = 0;
      lastThread = -1;
    }
    const std::size_t t = std::size_t(linearThread(e, L.blockX));
    if (barriersPassed[t] < interval) return broken("a thread's event comes after a later barrier interval began");
    if (barriersPassed[t] > interval) {
      interval = barriersPassed[t];
      lastThread = -1;
    }
    if (long(t) < lastThread) return broken("threads must come in linear order inside an interval");
    lastThread = long(t);
    if (e.op == Op::Barrier) ++barriersPassed[t];
  }
  return Ok{};
}

Result<Trace> finishTrace(const LaunchPlan& plan, EventVector&& slots, const LaunchOutcome& outcome) {
  if (!outcome.slotsDecoded) return decodeTrace(plan, slots, outcome.traceOverflowed);
  if (auto s = checkOverflow(plan, outcome.traceOverflowed); !s) return s.error();
  if (slots.size() > plan.traceSlots)
    return failure("the backend returned " + std::to_string(slots.size()) + " events, more than the " +
                   std::to_string(plan.traceSlots) + " slots of the plan");
  Trace trace;
  trace.launch = plan.launch;
  trace.phases = plan.phases;
  trace.events = std::move(slots);
  return trace;
}

Result<Trace> decodeTrace(const LaunchPlan& plan, const EventVector& slots, bool overflowed) {
  if (auto s = checkOverflow(plan, overflowed); !s) return s.error();
  if (slots.size() != plan.traceSlots)
    return failure("trace buffer holds " + std::to_string(slots.size()) + " slots, expected " +
                   std::to_string(plan.traceSlots));
  const KernelLaunch& L = plan.launch;
  const unsigned threadsPerBlock = L.blockX * L.blockY;
  const std::size_t blocks = std::size_t(L.gridX) * L.gridY;
  const unsigned spt = plan.slotsPerThread;

  // Pass 1: events per thread (a thread's slots are filled from the front) and per block.
  std::vector<unsigned> used(std::size_t(plan.threads));
  std::vector<std::size_t> blockStart(blocks + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::size_t total = 0;
    for (unsigned t = 0; t < threadsPerBlock; ++t) {
      const std::size_t thread = b * threadsPerBlock + t;
      const Event* s = slots.data() + thread * spt;
      unsigned n = 0;
      while (n < spt && s[n].op != Op::None) ++n;
      used[thread] = n;
      total += n;
    }
    blockStart[b + 1] = blockStart[b] + total;
  }

  Trace trace;
  trace.launch = L;
  trace.phases = plan.phases;
  trace.events.resize(blockStart[blocks]);

  // Pass 2: blocks are independent, so large traces decode on every core.
  const unsigned workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                                                           unsigned(std::min<std::size_t>(blocks, 64))));
  auto work = [&](unsigned w) {
    DecodeScratch scratch;
    for (std::size_t b = w; b < blocks; b += workers)
      decodeBlock(slots.data() + b * threadsPerBlock * spt, spt, used.data() + b * threadsPerBlock, threadsPerBlock,
                  trace.events.data() + blockStart[b], scratch);
  };
  if (workers == 1 || trace.events.size() < (1u << 16)) {
    for (unsigned w = 0; w < workers; ++w) work(w);
  } else {
    std::vector<std::thread> pool;
    for (unsigned w = 0; w < workers; ++w) pool.emplace_back(work, w);
    for (auto& t : pool) t.join();
  }
  return trace;
}

}  // namespace tilescope
