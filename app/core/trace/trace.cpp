#include "core/trace/trace.h"

#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <utility>

namespace tilescope {

std::string_view opName(Op op) {
  switch (op) {
    case Op::LoadM: return "load_m";
    case Op::LoadN: return "load_n";
    case Op::ReadM: return "read_m";
    case Op::ReadN: return "read_n";
    case Op::Barrier: return "barrier";
    case Op::StoreP: return "store_p";
    case Op::CopyM: return "copy_m";
    case Op::CopyN: return "copy_n";
    case Op::MbarrierInit: return "mbarrier_init";
    case Op::MbarrierArrive: return "mbarrier_arrive";
    case Op::MbarrierWait: return "mbarrier_wait";
    case Op::LoadW: return "load_w";
    case Op::StoreW: return "store_w";
    case Op::MmaA: return "mma_a";
    case Op::MmaB: return "mma_b";
    case Op::MmaC: return "mma_c";
    case Op::None: break;
  }
  return "none";
}

namespace {

constexpr std::size_t kHugePage = std::size_t(2) << 20;
constexpr std::size_t kKeptTrace = std::size_t(1) << 20;  // below this, plain malloc
constexpr std::size_t kLargeTrace = 32 * kHugePage;       // of these, only one is kept
// In a page (wasm) there are no page faults to save: the heap's memory is zeroed once, as it
// grows, and malloc reuses what is freed for any size. A kept trace there would only hold
// memory that the heap never gives back (a page's peak is what it keeps).
#if defined(__EMSCRIPTEN__)
constexpr bool kKeepFreedTraces = false;
#else
constexpr bool kKeepFreedTraces = true;
#endif

std::size_t roundedToHugePages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

// The storage of the last two traces freed, for the next (EventAllocator's comment says why):
// the newest, and the one before it unless both are large (a second gigabyte idle is too much).
struct KeptStorage {
  struct Block {
    void* p = nullptr;
    std::size_t bytes = 0;
  };
  std::mutex mutex;
  Block newest, older;
};
KeptStorage& keptStorage() {
  static KeptStorage kept;
  return kept;
}

// A kept block that holds `rounded` bytes without wasting more than as much again.
void* takeKept(std::size_t rounded) {
  KeptStorage& k = keptStorage();
  std::lock_guard lock(k.mutex);
  for (KeptStorage::Block* b : {&k.newest, &k.older}) {
    if (!b->p || b->bytes < rounded || b->bytes > 2 * rounded) continue;
    b->bytes = 0;
    return std::exchange(b->p, nullptr);
  }
  return nullptr;
}

// Keeps `p`; returns what no longer fits, for the caller to free outside the lock.
KeptStorage::Block keep(void* p, std::size_t rounded) {
  KeptStorage& k = keptStorage();
  std::lock_guard lock(k.mutex);
  KeptStorage::Block dropped = std::exchange(k.older, k.newest);
  k.newest = {p, rounded};
  if (k.older.p && k.older.bytes >= kLargeTrace && rounded >= kLargeTrace) {
    if (dropped.p) std::free(std::exchange(dropped.p, nullptr));
    dropped = std::exchange(k.older, KeptStorage::Block{});
  }
  return dropped;
}

}  // namespace

void* allocateEventStorage(std::size_t bytes) {
  if (bytes < kKeptTrace || !kKeepFreedTraces) {
    if (void* p = std::malloc(std::max<std::size_t>(bytes, 1))) return p;
    throw std::bad_alloc();
  }
  const std::size_t rounded = roundedToHugePages(bytes);
  if (void* p = takeKept(rounded)) return p;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (!p) throw std::bad_alloc();
  // Advice only: without huge pages it is just slower. Not for the mid-sized ones, kept for
  // reuse anyway, whose first touch should not wait for the kernel to assemble huge pages.
  if (rounded >= kLargeTrace) madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void releaseEventStorage(void* p, std::size_t bytes) {
  if (!p) return;
  if (bytes < kKeptTrace || !kKeepFreedTraces) {
    std::free(p);
    return;
  }
  std::free(keep(p, roundedToHugePages(bytes)).p);
}

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

}  // namespace tilescope
