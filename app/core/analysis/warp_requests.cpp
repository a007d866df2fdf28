#include "warp_requests.h"

#include <algorithm>
#include <bit>

#include "core/trace/memory_layout.h"

namespace tilescope {

namespace {
// Packs (warp, op, line, phase, k) of one block: 6 + 3 + 16 + 16 + 16 bits.
uint64_t requestKey(const Event& e, unsigned warp) {
  return (uint64_t(warp) << 51) | (uint64_t(e.op) << 48) | (uint64_t(e.line) << 32) |
         (uint64_t(uint16_t(e.phase)) << 16) | uint64_t(uint16_t(e.k));
}
constexpr uint64_t kNoKey = ~uint64_t(0);  // no instruction packs to it (warps < 32)

// One block's instructions (requestKey) numbered densely in order of first sight: a flat
// open-addressing table, emptied per block by resetting only the slots it used.
class InstructionIds {
 public:
  uint32_t idOf(uint64_t key) {
    if (2 * (keys_.size() + 1) > table_.size()) grow();
    const std::size_t mask = table_.size() - 1;
    // The product's top bits depend on every bit of the key (its low bits only on the key's low bits).
    for (std::size_t h = std::size_t((key * 0x9E3779B97F4A7C15ull) >> shift_);; h = (h + 1) & mask) {
      Slot& s = table_[h];
      if (s.key == key) return s.id;
      if (s.key != kNoKey) continue;
      s = Slot{key, uint32_t(keys_.size())};
      keys_.push_back(key);
      used_.push_back(h);
      return s.id;
    }
  }
  std::size_t size() const { return keys_.size(); }
  void clear() {
    for (std::size_t h : used_) table_[h] = Slot{};
    used_.clear();
    keys_.clear();
  }

 private:
  struct Slot {
    uint64_t key = kNoKey;
    uint32_t id = 0;
  };
  void grow() {
    const std::vector<uint64_t> keys = std::move(keys_);
    table_.assign(std::max<std::size_t>(1024, table_.size() * 2), Slot{});
    shift_ = 64 - std::countr_zero(table_.size());
    used_.clear();
    keys_.clear();
    for (uint64_t k : keys) idOf(k);  // same ids: re-inserted in their order
  }
  std::vector<Slot> table_;
  std::vector<uint64_t> keys_;     // by id
  std::vector<std::size_t> used_;  // table slots in use
  int shift_ = 64;                 // 64 - log2 of the table's size
};

// The grouping of one memory space, block by block. A request is the n-th execution of one
// warp instruction by each of its lanes (a register-tiled kernel runs a line several times per
// step): `executions` counts them per instruction and lane, `requests` holds per instruction the
// request of each execution number. All flat, reused across blocks: nothing is allocated per event.
struct SpaceGrouping {
  std::vector<WarpRequest> out;
  std::vector<uint32_t> executions;           // [id * 32 + lane]
  std::vector<std::vector<uint32_t>> requests;  // [id][execution] -> index into out
  std::vector<uint32_t> laneMask;             // per index into out: lanes already in it
  InstructionIds ids;

  void startBlock() {
    std::fill(executions.begin(), executions.begin() + std::ptrdiff_t(ids.size() * kWarpSize), 0u);
    for (std::size_t id = 0; id < ids.size(); ++id) requests[id].clear();
    ids.clear();
  }
  void add(const Event& e, std::size_t index, unsigned warp, uint8_t lane, uint64_t address, bool write) {
    const uint32_t id = ids.idOf(requestKey(e, warp));
    if (ids.size() > requests.size()) {
      requests.resize(ids.size());
      executions.resize(ids.size() * kWarpSize, 0u);
    }
    const uint32_t execution = executions[std::size_t(id) * kWarpSize + lane]++;
    auto& byExecution = requests[id];
    if (execution >= byExecution.size()) byExecution.resize(execution + 1, UINT32_MAX);
    uint32_t& at = byExecution[execution];
    if (at == UINT32_MAX || (laneMask[at] >> lane & 1u)) {
      WarpRequest r;
      r.blockX = e.blockX;
      r.blockY = e.blockY;
      r.warp = uint16_t(warp);
      r.op = e.op;
      r.line = e.line;
      r.phase = e.phase;
      r.k = e.k;
      r.write = write;
      r.lanes.reserve(kWarpSize);  // one growth instead of six
      out.push_back(std::move(r));
      laneMask.push_back(0u);
      at = uint32_t(out.size() - 1);
    }
    laneMask[at] |= 1u << lane;
    out[at].lanes.push_back({lane, uint32_t(index), address, uint8_t(4 * eventWidth(e.flags))});
  }
};
}  // namespace

namespace {
WarpRequests groupSpaces(const Trace& trace, bool wantGlobal, bool wantShared) {
  const KernelLaunch& L = trace.launch;
  const GlobalLayout global = globalLayout(L);
  const SharedLayout shared = sharedLayout(L);
  SpaceGrouping g, s;
  int blockX = -1, blockY = -1;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    if (e.blockX != blockX || e.blockY != blockY) {  // requests never span blocks
      g.startBlock();
      s.startBlock();
      blockX = e.blockX;
      blockY = e.blockY;
    }
    const auto globalAt = wantGlobal ? globalAddress(e, global) : std::nullopt;
    const auto sharedAt = wantShared ? sharedAddress(e, shared) : std::nullopt;
    if (!globalAt && !sharedAt) continue;
    const int thread = linearThread(e, L.blockX);
    const unsigned warp = unsigned(thread / kWarpSize);
    const uint8_t lane = uint8_t(thread % kWarpSize);
    if (globalAt) g.add(e, i, warp, lane, *globalAt, e.op == Op::StoreP);
    if (sharedAt) s.add(e, i, warp, lane, *sharedAt, writesShared(e));
  }
  return WarpRequests{std::move(g.out), std::move(s.out)};
}
}  // namespace

WarpRequests groupAllWarpRequests(const Trace& trace) { return groupSpaces(trace, true, true); }

std::vector<WarpRequest> groupWarpRequests(const Trace& trace, MemorySpace space) {
  const bool global = space == MemorySpace::Global;
  WarpRequests one = groupSpaces(trace, global, !global);
  return std::move(global ? one.global : one.shared);
}

std::string requestArray(Op op, MemorySpace space) {
  const bool shared = space == MemorySpace::Shared;
  switch (op) {
    case Op::LoadM:
    case Op::ReadM: return shared ? "Mds" : "M";
    case Op::LoadN:
    case Op::ReadN: return shared ? "Nds" : "N";
    case Op::StoreP: return "P";
    case Op::LoadW:
    case Op::StoreW: return "workspace";
    default: return "?";
  }
}

}  // namespace tilescope
