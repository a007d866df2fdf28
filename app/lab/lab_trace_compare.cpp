// The GPU's trace of a lab kernel against the interpreter's (lab_trace_compare.h): event for
// event in canonical order, allowing only what a GPU leaves undefined.
#include "lab_trace_compare.h"

#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

namespace tilescope::lab {

namespace {

std::string eventText(const Event& e) {
  std::ostringstream s;
  s << opName(e.op) << " at line " << e.line << " by block (" << e.blockX << "," << e.blockY << ") thread tx="
    << e.threadX << ", ty=" << e.threadY << ", phase " << e.phase;
  if (e.op == Op::LoadM || e.op == Op::LoadN || e.op == Op::StoreP)
    s << ", element (" << e.globalRow << "," << e.globalCol << ")";
  if (e.sharedRow >= 0) s << ", slot [" << e.sharedRow << "][" << e.sharedCol << "]";
  if (e.op != Op::Barrier) s << ", value " << e.value;
  return s.str();
}

// Whether a global load read outside its matrix's allocation: undefined on a GPU.
bool outsideAllocation(const Event& e, const KernelLaunch& L) {
  const long rows = e.op == Op::LoadM ? L.j : L.k, cols = e.op == Op::LoadM ? L.k : L.l;
  const long index = long(e.globalRow) * cols + e.globalCol;
  return !zeroFilled(e) && (index < 0 || index >= rows * cols);
}

// What a block's shared slot holds, as far as a GPU guarantees it.
struct Slot {
  bool written = false, undefined = false;
  int interval = -1, writer = -1;
};

// Per block (its events are contiguous in canonical order): whether the value event `a`
// carries is one a GPU defines. A shared read is defined once its slot was written in an
// earlier barrier interval, or by the reading thread itself; a sum that took in an undefined
// value is undefined. `race`: the kernel has a hazard, so no shared read is defined.
class Definedness {
 public:
  Definedness(const KernelLaunch& launch, bool race) : launch_(launch), race_(race) {}
  bool undefined(const Event& a) {
    const int block = int(a.blockY) * int(launch_.gridX) + a.blockX;
    if (block != block_) block_ = block, slots_.clear(), interval_.clear(), undefinedSum_.clear();
    const int thread = linearThread(a, launch_.blockX);
    const int now = interval_[thread];
    switch (a.op) {
      case Op::LoadM:
      case Op::LoadN: {
        const bool outside = outsideAllocation(a, launch_);
        if (a.sharedRow >= 0) {
          Slot& s = slots_[{int(a.op), a.sharedRow, a.sharedCol}];
          const bool writeWrite = s.written && s.interval == now && s.writer != thread;
          s = {true, outside || writeWrite, now, thread};
        } else if (outside) {
          undefinedSum_[thread] = true;
        }
        return outside;
      }
      case Op::ReadM:
      case Op::ReadN: {
        const Slot& s = slots_[{int(a.op == Op::ReadM ? Op::LoadM : Op::LoadN), a.sharedRow, a.sharedCol}];
        const bool undefined = race_ || !s.written || s.undefined || (s.interval == now && s.writer != thread);
        if (undefined) undefinedSum_[thread] = true;
        return undefined;
      }
      case Op::StoreP: return undefinedSum_[thread];
      case Op::Barrier: ++interval_[thread]; return false;
      default: return false;
    }
  }

 private:
  const KernelLaunch& launch_;
  bool race_;
  int block_ = -1;
  std::map<std::tuple<int, int, int>, Slot> slots_;  // (load op, sharedRow, sharedCol)
  std::map<int, int> interval_;
  std::map<int, bool> undefinedSum_;
};

bool sameEvent(const Event& a, const Event& b, bool undefined, double tolerance) {
  bool same = a.op == b.op && a.flags == b.flags && a.line == b.line && a.blockX == b.blockX && a.blockY == b.blockY &&
              a.threadX == b.threadX && a.threadY == b.threadY && a.phase == b.phase && a.k == b.k &&
              a.sharedRow == b.sharedRow && a.sharedCol == b.sharedCol;
  if (a.op != Op::Barrier) same = same && a.globalRow == b.globalRow && a.globalCol == b.globalCol;
  if (!same || undefined || a.op == Op::Barrier) return same;
  if (std::isnan(a.value) || std::isnan(b.value)) return std::isnan(a.value) && std::isnan(b.value);
  // A sum: the GPU contracts a multiply and an add into one FMA, the interpreter does not.
  if (a.op == Op::StoreP || a.op == Op::LoadW || a.op == Op::StoreW)
    return std::fabs(double(a.value) - b.value) <= tolerance * std::max(1.0, std::fabs(double(a.value)));
  return a.value == b.value;
}

}  // namespace

TraceDifference compareWithGpu(const Trace& interpreted, const Trace& gpu, bool race) {
  TraceDifference d;
  const KernelLaunch& L = interpreted.launch;
  const double tolerance = 2e-6 * (L.k + 1);
  Definedness definedness(L, race);
  const std::size_t common = std::min(interpreted.events.size(), gpu.events.size());
  for (std::size_t i = 0; i < common; ++i) {
    const Event& a = interpreted.events[i];
    const Event& b = gpu.events[i];
    if (sameEvent(a, b, definedness.undefined(a), tolerance)) continue;
    if (d.differences++ == 0)
      d.first = "event " + std::to_string(i + 1) + " is " + eventText(a) + " in the lab's run and " + eventText(b) +
                " on the GPU";
  }
  if (interpreted.events.size() != gpu.events.size()) {
    const std::size_t extra = std::max(interpreted.events.size(), gpu.events.size()) - common;
    if (d.differences == 0) {
      const bool gpuLonger = gpu.events.size() > common;
      const Event& e = gpuLonger ? gpu.events[common] : interpreted.events[common];
      d.first = "the " + std::string(gpuLonger ? "GPU" : "lab") + "'s run records " + std::to_string(extra) +
                " more events, the first " + eventText(e);
    }
    d.differences += long(extra);
  }
  return d;
}

}  // namespace tilescope::lab
