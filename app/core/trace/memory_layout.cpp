#include "core/trace/memory_layout.h"

#include <algorithm>

namespace tilescope {

namespace {
uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

GlobalLayout globalLayout(const KernelLaunch& L) {
  GlobalLayout g;
  g.j = L.j;
  g.k = L.k;
  g.l = L.l;
  // Start above zero so that no address is mistaken for "none"; any multiple of 256 works.
  g.baseM = kAllocationAlignment;
  g.baseN = alignUp(g.baseM + uint64_t(L.j) * L.k * kElementBytes, kAllocationAlignment);
  g.baseP = alignUp(g.baseN + uint64_t(L.k) * L.l * kElementBytes, kAllocationAlignment);
  return g;
}

SharedLayout sharedLayout(const KernelLaunch& L) { return kernelSharedTiles(L); }

bool wideReadOfMSpansK(const KernelLaunch& L) {
  if (L.labTiles) return false;  // a lab kernel's tiles are described by what it wrote, not by facts
  for (const SharedArrayFacts& a : kernelSharedArrays(L))
    if (a.matrix == MatrixRole::M) return a.tileRowIsMatrixRow;
  return false;
}

std::optional<uint64_t> globalAddress(const Event& e, const GlobalLayout& g) {
  // A fill reads nothing; a staged write's global read was its own event (kStagedRead).
  if ((e.op == Op::LoadM || e.op == Op::LoadN) && !readsGlobal(e)) return std::nullopt;
  switch (e.op) {
    case Op::LoadM:
      return g.baseM + (uint64_t(e.globalRow) * g.k + uint64_t(e.globalCol)) * kElementBytes;
    case Op::LoadN:
      return g.baseN + (uint64_t(e.globalRow) * g.l + uint64_t(e.globalCol)) * kElementBytes;
    case Op::StoreP:
      return g.baseP + (uint64_t(e.globalRow) * g.l + uint64_t(e.globalCol)) * kElementBytes;
    case Op::LoadW:  // the workspace lies beside M, N and P: none of their traffic
    case Op::StoreW:
    default:
      return std::nullopt;
  }
}

bool writesShared(const Event& e) { return (e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow >= 0; }
bool readsShared(const Event& e) { return e.op == Op::ReadM || e.op == Op::ReadN; }

std::optional<uint32_t> sharedAddress(const Event& e, const SharedLayout& s) {
  if (!writesShared(e) && !readsShared(e)) return std::nullopt;
  const bool m = e.op == Op::LoadM || e.op == Op::ReadM;
  if (e.sharedRow < 0 || e.sharedCol < 0) return std::nullopt;
  const uint32_t stride = uint32_t(m ? s.strideM : s.strideN);
  const uint32_t address =
      (m ? s.baseM : s.baseN) + (uint32_t(e.sharedRow) * stride + uint32_t(e.sharedCol)) * kElementBytes;
  // Past the kernel's shared memory: not an address the analyses can place (a trace that
  // did not come from this launch).
  if (address >= s.bytes) return std::nullopt;
  return address;
}

char matrixOf(const Event& e) {
  switch (e.op) {
    case Op::LoadM:
    case Op::ReadM: return 'M';
    case Op::LoadN:
    case Op::ReadN: return 'N';
    case Op::StoreP: return 'P';
    default: return '-';
  }
}

uint64_t copiedBytes(const Event& e, const KernelLaunch& L) {
  if (e.op != Op::CopyM && e.op != Op::CopyN) return 0;
  const bool m = e.op == Op::CopyM;
  const int64_t boxRows = m ? L.tiling.bm : L.tiling.bk, boxCols = m ? L.tiling.bk : L.tiling.bn;
  const int64_t rows = m ? L.j : L.k, cols = m ? L.k : L.l;
  const int64_t inRows = std::clamp<int64_t>(rows - e.globalRow, 0, boxRows);
  const int64_t inCols = std::clamp<int64_t>(cols - e.globalCol, 0, boxCols);
  return uint64_t(inRows * inCols) * kElementBytes;
}

}  // namespace tilescope
