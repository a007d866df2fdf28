#include "core/run/bounds_report.h"

namespace tilescope {

std::string BoundsViolation::describe() const {
  const Event& e = event;
  std::string s = std::string(1, matrix) + "(" + std::to_string(e.globalRow) + "," + std::to_string(e.globalCol) +
                  ") by blockIdx (" + std::to_string(e.blockX) + "," + std::to_string(e.blockY) + ") threadIdx (" +
                  std::to_string(e.threadX) + "," + std::to_string(e.threadY) + ")";
  if (matrix != 'P') s += " in phase " + std::to_string(e.phase);
  s += ", line " + std::to_string(e.line) + ": ";
  if (insideAllocation)
    s += "index " + std::to_string(linearIndex) + " wraps to " + std::string(1, matrix) + "(" +
         std::to_string(wrapsToRow) + "," + std::to_string(wrapsToCol) + ")";
  else
    s += "index " + std::to_string(linearIndex) + " is outside the " + std::to_string(long(rows) * cols) +
         "-element allocation";
  return s;
}

std::vector<BoundsViolation> findBoundsViolations(const Trace& trace) {
  const KernelLaunch& L = trace.launch;
  std::vector<BoundsViolation> out;
  for (const Event& e : trace.events) {
    if (inBounds(e) || zeroFilled(e)) continue;
    BoundsViolation v;
    v.event = e;
    switch (e.op) {
      case Op::LoadM: v.matrix = 'M', v.rows = L.j, v.cols = L.k; break;
      case Op::LoadN: v.matrix = 'N', v.rows = L.k, v.cols = L.l; break;
      case Op::StoreP: v.matrix = 'P', v.rows = L.j, v.cols = L.l; break;
      case Op::LoadW:  // the workspace is always in bounds: its index is the element's own
      case Op::StoreW:
      default: continue;
    }
    v.linearIndex = long(e.globalRow) * v.cols + e.globalCol;
    v.insideAllocation = v.linearIndex >= 0 && v.linearIndex < long(v.rows) * v.cols;
    if (v.insideAllocation) {
      v.wrapsToRow = int(v.linearIndex / v.cols);
      v.wrapsToCol = int(v.linearIndex % v.cols);
    }
    out.push_back(v);
  }
  return out;
}

}  // namespace tilescope
