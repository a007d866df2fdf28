// The executors' per-thread slots turned into a trace in canonical order (core/trace/trace.h).
#include "core/run/trace_decode.h"

#include <algorithm>
#include <thread>

#include "kernels/trace/step_rules.h"

namespace tilescope {

namespace {
// Copies one block's events into `out` in canonical order, deriving each event's phase and
// k step (kernels/trace/step_rules.h); `used[t]` is thread t's count.
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

namespace {
Status checkOverflow(const LaunchPlan& plan, bool overflowed) {
  if (overflowed)
    return failure("trace overflow: a thread recorded more than the " + std::to_string(plan.slotsPerThread) +
                   " events planned for it (a kernel/plan mismatch)");
  return Ok{};
}

// Pass 1 of a decode: each thread's events (a thread's slots are filled from the front) and
// where each block's events begin in the trace.
struct SlotCounts {
  std::vector<unsigned> used;          // per thread
  std::vector<std::size_t> blockStart;  // per block, and the total at the end
};

Result<SlotCounts> countSlots(const LaunchPlan& plan, const EventVector& slots, bool overflowed) {
  if (auto s = checkOverflow(plan, overflowed); !s) return s.error();
  if (slots.size() != plan.traceSlots)
    return failure("trace buffer holds " + std::to_string(slots.size()) + " slots, expected " +
                   std::to_string(plan.traceSlots));
  const KernelLaunch& L = plan.launch;
  const unsigned threadsPerBlock = L.blockX * L.blockY, spt = plan.slotsPerThread;
  const std::size_t blocks = std::size_t(L.gridX) * L.gridY;
  SlotCounts c;
  c.used.resize(std::size_t(plan.threads));
  c.blockStart.assign(blocks + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b) {
    std::size_t total = 0;
    for (unsigned t = 0; t < threadsPerBlock; ++t) {
      const std::size_t thread = b * threadsPerBlock + t;
      const Event* s = slots.data() + thread * spt;
      unsigned n = 0;
      while (n < spt && s[n].op != Op::None) ++n;
      c.used[thread] = n;
      total += n;
    }
    c.blockStart[b + 1] = c.blockStart[b] + total;
  }
  return c;
}

// How many threads decode a trace of `blocks` blocks (blocks are independent).
unsigned decodeWorkers(std::size_t blocks) {
  return std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), unsigned(std::min<std::size_t>(blocks, 64))));
}

}  // namespace

// The decode on one core, in the slots' own storage: block by block in order, each block's
// slots copied aside first. Block b's events land in [blockStart[b], blockStart[b + 1]), which
// ends at or before block b + 1's slots (no thread has more events than slots), so no later
// block's slots are overwritten. It saves the second buffer the size of the trace (150 MB at
// 128^3 T=16), which a page's heap, that never shrinks, would keep for good.

Result<Trace> decodeTraceInPlace(const LaunchPlan& plan, EventVector&& slots, bool overflowed) {
  auto counts = countSlots(plan, slots, overflowed);
  if (!counts) return counts.error();
  const KernelLaunch& L = plan.launch;
  const unsigned threadsPerBlock = L.blockX * L.blockY, spt = plan.slotsPerThread;
  const std::size_t blocks = std::size_t(L.gridX) * L.gridY, blockSlots = std::size_t(threadsPerBlock) * spt;
  std::vector<Event> aside(blockSlots);
  DecodeScratch scratch;
  for (std::size_t b = 0; b < blocks; ++b) {
    std::copy_n(slots.data() + b * blockSlots, blockSlots, aside.data());
    decodeBlock(aside.data(), spt, counts->used.data() + b * threadsPerBlock, threadsPerBlock,
                slots.data() + counts->blockStart[b], scratch);
  }
  slots.resize(counts->blockStart[blocks]);  // smaller: keeps its storage, copies nothing
  Trace trace;
  trace.launch = L;
  trace.phases = plan.phases;
  trace.events = std::move(slots);
  return trace;
}

Result<Trace> finishTrace(const LaunchPlan& plan, EventVector&& slots, const LaunchOutcome& outcome) {
  if (!outcome.slotsDecoded) {
    if (decodeWorkers(std::size_t(plan.launch.gridX) * plan.launch.gridY) == 1)
      return decodeTraceInPlace(plan, std::move(slots), outcome.traceOverflowed);
    return decodeTrace(plan, slots, outcome.traceOverflowed);
  }
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
  auto counts = countSlots(plan, slots, overflowed);
  if (!counts) return counts.error();
  const std::vector<unsigned>& used = counts->used;
  const std::vector<std::size_t>& blockStart = counts->blockStart;
  const KernelLaunch& L = plan.launch;
  const unsigned threadsPerBlock = L.blockX * L.blockY;
  const std::size_t blocks = std::size_t(L.gridX) * L.gridY;
  const unsigned spt = plan.slotsPerThread;

  Trace trace;
  trace.launch = L;
  trace.phases = plan.phases;
  trace.events.resize(blockStart[blocks]);

  // Pass 2: blocks are independent, so large traces decode on every core.
  const unsigned workers = decodeWorkers(blocks);
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
