// The comparison behind "the picture is the GPU's": a GPU trace against the emulator's,
// event for event in canonical order, allowing only what a GPU leaves undefined (see
// gpu_equals_emulator_test.cpp for the list). Shared by the built-in kernels' test and the
// lab's (lab_gpu_test.cpp). `race`: a kernel with a barrier removed on purpose, whose shared
// reads all count as undefined.
#pragma once
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "core/trace/trace.h"

namespace tilescope::testing {

inline std::string describeEvent(const Event& e) {
  std::ostringstream s;
  s << opName(e.op) << " block(" << e.blockX << "," << e.blockY << ") thread(" << e.threadX << "," << e.threadY
    << ") phase " << e.phase << " k " << e.k << " global(" << e.globalRow << "," << e.globalCol << ") shared("
    << e.sharedRow << "," << e.sharedCol << ") line " << e.line << " flags " << int(e.flags) << " value " << e.value;
  return s.str();
}

// Whether a global load read outside its matrix's allocation (row-major, so a column past
// the edge that still lands inside the allocation reads a real, well-defined element).
inline bool loadOutsideAllocation(const Event& e, const KernelLaunch& L) {
  const long rows = e.op == Op::LoadM ? L.j : L.k;
  const long cols = e.op == Op::LoadM ? L.k : L.l;
  const long index = long(e.globalRow) * cols + e.globalCol;
  return !zeroFilled(e) && (index < 0 || index >= rows * cols);
}

struct Comparison {
  long differences = 0;
  long undefinedValues = 0;  // events whose value is undefined on a GPU (not compared)
  std::string first;         // the first difference, described
};

// What a block's shared slot holds, as far as a GPU guarantees it.
struct SlotState {
  bool written = false;  // some load of this block wrote it
  bool undefined = false;
  int interval = -1;     // barrier interval of the last write
  int writer = -1;       // linear thread number of the last writer
};

// The row length of the shared array holding `role`'s tiles (0 when none says).
inline int rowStrideOf(const KernelLaunch& L, MatrixRole role) {
  for (const SharedArrayFacts& a : kernelSharedArrays(L))
    if (a.matrix == role) return a.rowStride;
  return 0;
}

inline Comparison compareTraces(const Trace& emu, const Trace& gpu, bool race) {
  const KernelLaunch& L = emu.launch;
  const double tolerance = 2e-6 * (L.k + 1);
  // Per block (its events are contiguous in canonical order): the slots' state, each
  // thread's barrier interval, and which threads' sums took in an undefined value.
  std::map<std::tuple<int, int, int>, SlotState> slots;  // (matrix, sharedRow, sharedCol)
  std::map<int, int> interval;
  std::map<int, bool> undefinedSum;
  // Slots the copy engine fills (rung 8): a copy's box covers its rows of the array's row
  // stride from its first slot. Canonical order puts the consumers' reads before the
  // producer's copies (one barrier interval, threads in order), but the mbarrier each reader
  // waits on orders a copy before them (the emulator's waits hold to that): defined.
  std::set<std::tuple<int, int, int, int>> copiedSlots;  // (block, matrix, sharedRow, sharedCol)
  for (const Event& a : emu.events) {
    if (a.op != Op::CopyM && a.op != Op::CopyN) continue;
    const int stride = rowStrideOf(L, a.op == Op::CopyM ? MatrixRole::M : MatrixRole::N);
    const int rows = stride > 0 ? int(a.value) / 4 / stride : 0;
    const int thisBlock = int(a.blockY) * int(L.gridX) + a.blockX;
    const int load = int(a.op == Op::CopyM ? Op::LoadM : Op::LoadN);
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < stride; ++c) copiedSlots.insert({thisBlock, load, a.sharedRow + r, a.sharedCol + c});
  }
  int block = -1;
  Comparison out;
  for (std::size_t i = 0; i < emu.events.size(); ++i) {
    const Event& a = emu.events[i];
    const Event& b = gpu.events[i];
    const int thisBlock = int(a.blockY) * int(L.gridX) + a.blockX;
    if (thisBlock != block) {
      block = thisBlock;
      slots.clear();
      interval.clear();
      undefinedSum.clear();
    }
    const int thread = linearThread(a, L.blockX);
    const int now = interval[thread];
    bool undefined = false;
    // Stream-k's workspace: partial sums the GPU computed with FMAs (and arrival counts),
    // read and written, compared as sums are.
    const bool workspace = a.op == Op::LoadW || a.op == Op::StoreW;
    if (workspace) {
    } else if (a.op == Op::LoadM || a.op == Op::LoadN) {
      undefined = loadOutsideAllocation(a, L);
      if (a.sharedRow >= 0) {
        SlotState& slot = slots[{int(a.op), a.sharedRow, a.sharedCol}];
        const bool writeWrite = slot.written && slot.interval == now && slot.writer != thread;
        slot = {true, undefined || writeWrite, now, thread};
      } else if (undefined) {
        undefinedSum[thread] = true;
      }
    } else if (a.op == Op::ReadM || a.op == Op::ReadN) {
      const int load = int(a.op == Op::ReadM ? Op::LoadM : Op::LoadN);
      const SlotState& slot = slots[{load, a.sharedRow, a.sharedCol}];
      const bool copied = copiedSlots.count({thisBlock, load, a.sharedRow, a.sharedCol}) > 0;
      undefined = copied ? race : !slot.written || slot.undefined || (slot.interval == now && slot.writer != thread) || race;
      if (undefined) undefinedSum[thread] = true;
    } else if (a.op == Op::StoreP) {
      undefined = undefinedSum[thread];
    } else if (a.op == Op::Barrier) {
      ++interval[thread];
    }
    if (undefined) ++out.undefinedValues;

    bool same = a.op == b.op && a.flags == b.flags && a.line == b.line && a.blockX == b.blockX &&
                a.blockY == b.blockY && a.threadX == b.threadX && a.threadY == b.threadY && a.phase == b.phase &&
                a.k == b.k && a.sharedRow == b.sharedRow && a.sharedCol == b.sharedCol;
    if (a.op != Op::Barrier) same = same && a.globalRow == b.globalRow && a.globalCol == b.globalCol;
    if (same && !undefined && a.op != Op::Barrier) {
      if (std::isnan(a.value) || std::isnan(b.value)) same = std::isnan(a.value) && std::isnan(b.value);
      else if (a.op == Op::StoreP || a.op == Op::MmaC || workspace)  // sums: the order inside an MMA is the GPU's
        same = std::fabs(double(a.value) - b.value) <= tolerance * std::max(1.0, std::fabs(double(a.value)));
      else same = a.value == b.value;
    }
    if (!same && out.differences++ == 0)
      out.first = "event " + std::to_string(i) + ":\n  emulator " + describeEvent(a) + "\n  gpu      " + describeEvent(b);
  }
  return out;
}

}  // namespace tilescope::testing
