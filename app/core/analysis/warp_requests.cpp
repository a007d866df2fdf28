#include "warp_requests.h"

#include <unordered_map>

#include "core/trace/memory_layout.h"

namespace tilescope {

namespace {
// Packs (warp, op, line, phase, k) of one block: 6 + 3 + 16 + 16 + 16 bits.
uint64_t requestKey(const Event& e, unsigned warp) {
  return (uint64_t(warp) << 51) | (uint64_t(e.op) << 48) | (uint64_t(e.line) << 32) |
         (uint64_t(uint16_t(e.phase)) << 16) | uint64_t(uint16_t(e.k));
}

struct Open {
  std::size_t request;  // index into the output
  uint32_t laneMask;    // lanes already in it
};

// A thread's n-th execution of one instruction in one (phase, k) joins the other lanes' n-th:
// register-tiled kernels run one line several times per step (a loop over the fragment).
uint64_t instanceKey(uint64_t key, uint32_t occurrence) { return key * 0x9E3779B97F4A7C15ull ^ occurrence; }
}  // namespace

std::vector<WarpRequest> groupWarpRequests(const Trace& trace, MemorySpace space) {
  const KernelLaunch& L = trace.launch;
  const GlobalLayout global = globalLayout(L);
  const SharedLayout shared = sharedLayout(L);
  std::vector<WarpRequest> out;
  std::unordered_map<uint64_t, Open> open;  // requests of the current block, by instance
  struct ThreadKeyHash {
    std::size_t operator()(const std::pair<uint64_t, int>& p) const {
      return std::hash<uint64_t>{}(p.first * 1025u + uint64_t(p.second));
    }
  };
  std::unordered_map<std::pair<uint64_t, int>, uint32_t, ThreadKeyHash> seen;  // executions so far, this block
  int blockX = -1, blockY = -1;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    if (e.blockX != blockX || e.blockY != blockY) {
      open.clear();  // requests never span blocks
      seen.clear();
      blockX = e.blockX;
      blockY = e.blockY;
    }
    uint64_t address = 0;
    bool write = false;
    if (space == MemorySpace::Global) {
      auto a = globalAddress(e, global);
      if (!a) continue;
      address = *a;
      write = e.op == Op::StoreP;
    } else {
      auto a = sharedAddress(e, shared);
      if (!a) continue;
      address = *a;
      write = writesShared(e);
    }
    const int thread = linearThread(e, L.blockX);
    const unsigned warp = unsigned(thread / kWarpSize);
    const uint8_t lane = uint8_t(thread % kWarpSize);
    const uint64_t instruction = requestKey(e, warp);
    const uint64_t key = instanceKey(instruction, seen[{instruction, thread}]++);
    auto it = open.find(key);
    if (it == open.end() || (it->second.laneMask >> lane & 1u)) {
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
      it = open.insert_or_assign(key, Open{out.size() - 1, 0u}).first;
    }
    it->second.laneMask |= 1u << lane;
    out[it->second.request].lanes.push_back({lane, uint32_t(i), address, uint8_t(4 * eventWidth(e.flags))});
  }
  return out;
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
