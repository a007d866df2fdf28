#include "trace.h"

#include <algorithm>
#include <thread>

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
// Copies one block's events into `out` in canonical order; `used[t]` is thread t's count.
void decodeBlock(const Event* blockSlots, unsigned slotsPerThread, const unsigned* used, unsigned threads,
                 Event* out, std::vector<unsigned>& cursor) {
  cursor.assign(threads, 0);
  bool progressed = true;
  while (progressed) {  // one barrier interval per pass
    progressed = false;
    for (unsigned t = 0; t < threads; ++t) {
      const Event* thread = blockSlots + std::size_t(t) * slotsPerThread;
      unsigned& c = cursor[t];
      while (c < used[t]) {
        progressed = true;
        const Event& e = thread[c++];
        *out++ = e;
        if (e.op == Op::Barrier) break;
      }
    }
  }
}
}  // namespace

Result<Trace> decodeTrace(const LaunchPlan& plan, const std::vector<Event>& slots, bool overflowed) {
  if (overflowed)
    return failure("trace overflow: a thread recorded more than the " + std::to_string(plan.slotsPerThread) +
                   " events planned for it (a kernel/plan mismatch)");
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
    std::vector<unsigned> cursor;
    for (std::size_t b = w; b < blocks; b += workers)
      decodeBlock(slots.data() + b * threadsPerBlock * spt, spt, used.data() + b * threadsPerBlock, threadsPerBlock,
                  trace.events.data() + blockStart[b], cursor);
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
