#include "kernels/emu/emulator.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "kernels/trace/trace_sink.h"
#include "kernels/emu/fiber.h"

namespace tilescope::emu {

thread_local ThreadContext* currentThread = nullptr;

namespace {

// Kernel frames are small (a few locals, no recursion); 64 KiB leaves a wide margin and is
// only committed where touched.
constexpr std::size_t kStackBytes = 64 * 1024;
constexpr std::size_t kGuardBytes = 4096;

enum class ThreadState : uint8_t { Runnable, AtBarrier, AsyncWait, AtWarp, Exited };

// Fiber stacks for up to 1024 threads, mapped once per grid and reused by every block.
class StackPool {
 public:
  explicit StackPool(std::size_t count) : bytes_(count * kStackBytes) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
    // A guard page below each stack: a kernel that recurses without end (the lab runs
    // students' kernels) faults there instead of writing over its neighbour's stack.
    for (std::size_t i = 0; base_ && i < count; ++i) mprotect(stack(i), kGuardBytes, PROT_NONE);
  }
  ~StackPool() {
    if (base_) munmap(base_, bytes_);
  }
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  char* stack(std::size_t i) const { return base_ + i * kStackBytes; }
  bool ok() const { return base_ != nullptr; }

 private:
  std::size_t bytes_;
  char* base_ = nullptr;
};

// The bytes a fresh shared slot holds: quiet NaN in every float lane.
void fillWithNaN(unsigned char* p, std::size_t bytes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::size_t i = 0;
  for (; i + sizeof nan <= bytes; i += sizeof nan) std::memcpy(p + i, &nan, sizeof nan);
  std::memset(p + i, 0xff, bytes - i);
}

// One block's shared memory: static declarations placed in the order threads reach them,
// then the launch's dynamic part. Reset (and NaN-filled) for every block.
class SharedArena {
 public:
  explicit SharedArena(std::size_t dynamicBytes)
      : storage_(kMaxStaticSharedBytes + dynamicBytes + 16), dynamicBytes_(dynamicBytes) {}
  void reset() {
    offsets_.fill(kUnplaced);
    used_ = 0;
    fillWithNaN(dynamic(), dynamicBytes_);
  }
  // Storage of declaration `id`; null when static shared memory would exceed its limit.
  void* place(int id, std::size_t bytes, std::size_t alignment) {
    if (id < 0 || id >= int(offsets_.size())) return nullptr;
    if (offsets_[std::size_t(id)] == kUnplaced) {
      const std::size_t at = (used_ + alignment - 1) / alignment * alignment;
      if (at + bytes > kMaxStaticSharedBytes) return nullptr;
      fillWithNaN(base() + at, bytes);
      offsets_[std::size_t(id)] = at;
      used_ = at + bytes;
    }
    return base() + offsets_[std::size_t(id)];
  }
  unsigned char* dynamic() { return base() + kMaxStaticSharedBytes; }
  std::size_t dynamicBytes() const { return dynamicBytes_; }

 private:
  static constexpr std::size_t kUnplaced = ~std::size_t(0);
  unsigned char* base() {  // 16-byte aligned, as __shared__ storage is
    auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    return storage_.data() + ((16 - address % 16) % 16);
  }
  std::vector<unsigned char> storage_;
  std::size_t dynamicBytes_;
  std::array<std::size_t, kMaxSharedArrays> offsets_{};  // one per shared declaration
  std::size_t used_ = 0;
};

}  // namespace

// Runs the threads of one block at a time.
struct BlockRunner {
  Report* report = nullptr;
  ThreadBody* body = nullptr;
  Fiber scheduler;  // runs runBlock for every block of the grid (runGrid, GridRun)
  std::vector<Fiber> fibers;
  std::vector<ThreadContext> contexts;
  std::vector<ThreadState> states;
  std::vector<int> barrierLines;
  std::vector<void*> warpData;   // per thread: what it brought to its warp's meeting
  std::vector<int> warpArrived;  // per warp: lanes at its meeting so far
  std::size_t running = 0;  // index of the thread whose fiber is executing
  uint64_t clock = 0;
  uint64_t progress = 0;  // mbarrier arrivals and completed copies so far in this block
  int stopAfterBarriers = 0;  // runGrid's limit (0: none)
  alignas(16) unsigned char scratch[16] = {};  // stands in for out-of-bounds cells
  std::unique_ptr<SharedArena> shared;
  std::vector<std::unique_ptr<unsigned char[]>> overflowStorage;  // past the static limit

  static void threadMain(void* arg) {
    auto* runner = static_cast<BlockRunner*>(arg);
    (*runner->body)();
    runner->states[runner->running] = ThreadState::Exited;
    switchFiber(runner->fibers[runner->running], runner->scheduler);
  }

  bool wakeAfterMeeting(std::size_t n);
  bool reportStuckWarp(std::size_t n, Dim3 blockIdx);

  void runBlock(Dim3 grid, Dim3 block, Dim3 blockIdx, const StackPool& stacks) {
    const std::size_t n = std::size_t(block.x) * block.y * block.z;
    for (std::size_t t = 0; t < n; ++t) {
      ThreadContext& c = contexts[t];
      c.threadIdx = {unsigned(t % block.x), unsigned((t / block.x) % block.y), unsigned(t / (block.x * block.y))};
      c.blockIdx = blockIdx;
      c.blockDim = block;
      c.gridDim = grid;
      c.runner = this;
      states[t] = ThreadState::Runnable;
      initFiber(fibers[t], stacks.stack(t), kStackBytes, &BlockRunner::threadMain, this);
    }
    warpArrived.assign((n + 31) / 32, 0);
    clock = 0;
    shared->reset();
    progress = 0;
    int released = 0;  // barriers this block has passed
    for (;;) {
      // One barrier interval: every runnable thread, in threadIdx order, runs to the next
      // barrier or to its end (or to an mbarrier wait that cannot pass yet).
      const uint64_t progressBefore = progress;
      for (std::size_t t = 0; t < n; ++t) {
        if (states[t] != ThreadState::Runnable) continue;
        running = t;
        currentThread = &contexts[t];
        switchFiber(scheduler, fibers[t]);
      }
      currentThread = nullptr;
      // A warp's meeting completed after some of its lanes' turns this round: they run on in
      // the next one (and threads waiting on an mbarrier ask again).
      if (wakeAfterMeeting(n)) continue;
      // Threads waiting on an mbarrier try again once anything moved one on; if nothing did,
      // none of them ever can: a deadlock, reported like a barrier some threads never reach.
      int asyncWaiting = 0, asyncLine = 0;
      for (std::size_t t = 0; t < n; ++t)
        if (states[t] == ThreadState::AsyncWait) {
          if (asyncWaiting++ == 0) asyncLine = barrierLines[t];
        }
      if (asyncWaiting > 0) {
        if (progress != progressBefore) {
          for (std::size_t t = 0; t < n; ++t)
            if (states[t] == ThreadState::AsyncWait) states[t] = ThreadState::Runnable;
          continue;
        }
        int exitedNow = 0;
        for (std::size_t t = 0; t < n; ++t) exitedNow += states[t] == ThreadState::Exited;
        report->divergences.push_back({blockIdx, int(n) - exitedNow, exitedNow, asyncLine, 0});
        return;
      }
      if (reportStuckWarp(n, blockIdx)) return;
      int waiting = 0, exited = 0, firstLine = 0, otherLine = 0, atFirst = 0, atOther = 0;
      for (std::size_t t = 0; t < n; ++t) {
        if (states[t] == ThreadState::Exited) {
          ++exited;
          continue;
        }
        ++waiting;
        if (firstLine == 0) firstLine = barrierLines[t];
        else if (barrierLines[t] != firstLine && otherLine == 0) otherLine = barrierLines[t];
        atFirst += barrierLines[t] == firstLine;
        atOther += otherLine != 0 && barrierLines[t] == otherLine;
      }
      if (waiting == 0) return;  // every thread finished
      if (exited > 0 || otherLine != 0) {
        // The waiting fibers are abandoned: kernel frames hold only trivially destructible
        // locals, and the stacks are reused by the next block.
        report->divergences.push_back({blockIdx, waiting, exited, firstLine, otherLine, atFirst, atOther});
        return;
      }
      if (stopAfterBarriers > 0 && ++released == stopAfterBarriers) {
        // Every thread has arrived at the last barrier asked for: the block stops there, its
        // fibers abandoned as above.
        ++report->blocksStopped;
        return;
      }
      for (std::size_t t = 0; t < n; ++t) states[t] = ThreadState::Runnable;  // release the barrier
    }
  }
};

bool BlockRunner::wakeAfterMeeting(std::size_t n) {
  bool any = false;
  for (std::size_t t = 0; t < n && !any; ++t) any = states[t] == ThreadState::Runnable;
  if (!any) return false;
  for (std::size_t t = 0; t < n; ++t)
    if (states[t] == ThreadState::AsyncWait) states[t] = ThreadState::Runnable;
  return true;
}

// Lanes still at a warp meeting when nothing else can run: some lane of their warp never comes.
bool BlockRunner::reportStuckWarp(std::size_t n, Dim3 blockIdx) {
  int meeting = 0, exited = 0, line = 0, otherLine = 0, atLine = 0, atOther = 0;
  for (std::size_t t = 0; t < n; ++t) {
    if (states[t] == ThreadState::Exited) ++exited;
    else if (states[t] == ThreadState::AtWarp && (line == 0 || barrierLines[t] == line)) {
      line = barrierLines[t];
      ++meeting;
    }
  }
  if (meeting == 0) return false;
  for (std::size_t t = 0; t < n; ++t)
    if (states[t] != ThreadState::Exited && barrierLines[t] != line) {
      if (otherLine == 0) otherLine = barrierLines[t];
      atOther += barrierLines[t] == otherLine;
    }
  atLine = meeting;
  report->divergences.push_back({blockIdx, int(n) - exited, exited, line, otherLine, atLine, atOther});
  return true;
}

void warpCollective(int line, void* laneData, WarpMeet meet) { groupCollective(line, laneData, meet, 32); }
void warpgroupCollective(int line, void* laneData, WarpMeet meet) { groupCollective(line, laneData, meet, 128); }

// A meeting of `size` consecutive threads (a warp, a warpgroup): its count is kept in the
// counter of its first warp.
void groupCollective(int line, void* laneData, WarpMeet meet, std::size_t size) {
  BlockRunner* runner = currentThread->runner;
  const std::size_t t = runner->running, n = runner->states.size();
  const std::size_t first = t / size * size, lanes = std::min<std::size_t>(size, n - first);
  runner->warpData[t] = laneData;
  runner->barrierLines[t] = line;
  int& arrived = runner->warpArrived[first / 32];
  bool sameLine = true;
  if (++arrived == int(lanes))
    for (std::size_t u = first; u < first + lanes; ++u) sameLine = sameLine && runner->barrierLines[u] == line;
  if (arrived < int(lanes) || !sameLine) {
    // Parked until the warp's last lane arrives (one that meets at another line never does).
    runner->states[t] = ThreadState::AtWarp;
    switchFiber(runner->fibers[t], runner->scheduler);
    currentThread = &runner->contexts[t];
    return;
  }
  arrived = 0;
  meet(&runner->warpData[first], int(lanes));
  for (std::size_t u = first; u < first + lanes; ++u)
    if (u != t) runner->states[u] = ThreadState::Runnable;
}

void syncThreads(int line) {
  BlockRunner* runner = currentThread->runner;
  const std::size_t t = runner->running;
  runner->states[t] = ThreadState::AtBarrier;
  runner->barrierLines[t] = line;
  switchFiber(runner->fibers[t], runner->scheduler);
  // Resumed by the scheduler: every thread of the block has arrived.
  currentThread = &runner->contexts[t];
}

void waitForAsync(int line) {
  BlockRunner* runner = currentThread->runner;
  const std::size_t t = runner->running;
  runner->states[t] = ThreadState::AsyncWait;
  runner->barrierLines[t] = line;
  switchFiber(runner->fibers[t], runner->scheduler);
  currentThread = &runner->contexts[t];
}

void asyncProgress() { ++currentThread->runner->progress; }

void* outOfBoundsAccess(const char* array, long long index, long long count, bool isWrite, int line,
                        std::size_t elementBytes) {
  BlockRunner* runner = currentThread->runner;
  Report& report = *runner->report;
  if (report.outOfBounds.size() < Report::kMaxRecordedOutOfBounds)
    report.outOfBounds.push_back(
        {array, index, count, isWrite, line, currentThread->blockIdx, currentThread->threadIdx});
  ++report.outOfBoundsTotal;
  // A read past the array has no defined value: NaN makes its use visible downstream.
  if (elementBytes == sizeof(double)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::memcpy(runner->scratch, &nan, sizeof nan);
  } else {
    fillWithNaN(runner->scratch, sizeof runner->scratch);
  }
  return runner->scratch;
}

void* blockSharedStorage(int declaration, std::size_t bytes, std::size_t alignment) {
  BlockRunner* runner = currentThread->runner;
  if (void* p = runner->shared->place(declaration, bytes, alignment)) return p;
  // Over the limit: the launch fails (reported once), the kernel gets scratch to finish on.
  if (runner->report->error.empty())
    runner->report->error = "static shared memory over the " + std::to_string(kMaxStaticSharedBytes) +
                            "-byte limit per block (declaration " + std::to_string(declaration + 1) + " needs " +
                            std::to_string(bytes) + " more bytes)";
  runner->overflowStorage.emplace_back(new unsigned char[bytes + alignment]);
  auto* raw = runner->overflowStorage.back().get();
  return raw + (alignment - reinterpret_cast<std::uintptr_t>(raw) % alignment) % alignment;
}

void* blockDynamicShared() { return currentThread->runner->shared->dynamic(); }
std::size_t blockDynamicSharedBytes() { return currentThread->runner->shared->dynamicBytes(); }

uint64_t logicalClock() { return currentThread->runner->clock++; }

namespace {
// One grid on the scheduler's fiber: every block in turn, then back to runGrid's caller.
struct GridRun {
  Dim3 grid, block;
  BlockRunner* runner;
  const StackPool* stacks;
  Fiber caller;  // runGrid's own context, switched out while the grid runs

  static void schedulerMain(void* arg) {
    auto* run = static_cast<GridRun*>(arg);
    for (unsigned z = 0; z < run->grid.z; ++z)
      for (unsigned y = 0; y < run->grid.y; ++y)
        for (unsigned x = 0; x < run->grid.x; ++x) run->runner->runBlock(run->grid, run->block, Dim3{x, y, z}, *run->stacks);
    switchFiber(run->runner->scheduler, run->caller);  // never resumed: its stack goes with the grid
  }
};
}  // namespace

void runGrid(Dim3 grid, Dim3 block, std::size_t dynamicSharedBytes, ThreadBody body, Report& report,
             int stopAfterBarriers) {
  const std::size_t n = std::size_t(block.x) * block.y * block.z;
  if (n == 0 || n > 1024) {
    report.error = "block of " + std::to_string(n) + " threads: the limit is 1 to 1024 threads per block";
    return;
  }
  if (dynamicSharedBytes > kMaxDynamicSharedBytesOptIn) {
    report.error = "dynamic shared memory of " + std::to_string(dynamicSharedBytes) + " bytes exceeds the " +
                   std::to_string(kMaxDynamicSharedBytesOptIn) + "-byte limit per block (with the opt-in)";
    return;
  }
  StackPool stacks(n + 1);  // the threads' stacks, then the scheduler's
  if (!stacks.ok()) {
    report.error = "could not map fiber stacks for " + std::to_string(n) + " threads";
    return;
  }
  auto runner = std::make_unique<BlockRunner>();
  runner->report = &report;
  runner->body = &body;
  runner->stopAfterBarriers = stopAfterBarriers;
  runner->fibers.resize(n);
  runner->contexts.resize(n);
  runner->states.resize(n);
  runner->barrierLines.resize(n);
  runner->warpData.resize(n);
  runner->shared = std::make_unique<SharedArena>(dynamicSharedBytes);
  ThreadContext* saved = currentThread;
  // The scheduler runs on a fiber of its own, entered once per grid: a switch between it and a
  // thread then saves and restores only the scheduler's few frames. In a page (asyncify) a
  // switch unwinds and rewinds every frame of the context it leaves, and the caller's context
  // holds the page's whole frame loop; natively the two extra switches per grid cost nothing.
  GridRun run{grid, block, runner.get(), &stacks, {}};
  initFiber(runner->scheduler, stacks.stack(n), kStackBytes, &GridRun::schedulerMain, &run);
  switchFiber(run.caller, runner->scheduler);
  currentThread = saved;
}

}  // namespace tilescope::emu
