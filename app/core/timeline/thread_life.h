// One thread's whole life, read from the trace, the way the book's fig. 5.8 tabulates it for
// the four threads of its 4x4 example: per phase, the elements it loads from M and N and the
// shared slots they go to, the barriers it waits at, the operands it multiplies at each k
// step, and at the end the P element it stores. The Hopper rungs add what their threads do
// instead of loading: the copies a producer asks the copy engine for (with their stage), the
// mbarriers it initialises, arrives at and waits on (with their stage and the parity waited
// for), and rung 9's reads and writes of the workspace and its waits on another block's flag.
// Rung 11's tensor cores read both operands through matrix descriptors, and the trace records
// those reads in the names of the warpgroup's threads: they are listed as what they are, reads
// for the warpgroup's MMA, never as the thread's products. Nothing the thread did is left
// out: every event of the thread is in exactly one entry. The
// app's Thread life panel draws it for the followed thread, with the cursor's step
// highlighted. GUI-free, so it is tested against the book's table and hand counts.
//
// Products. The trace records reads, not multiply-adds: a k step's products are the outer
// product of the M values and the N values the thread read for that k (KStepProducts, the
// Counters' rule), so a register tile's TM reads of Mds and TN of Nds at one k are TM x TN
// products, each M read with each N read of the same k, never paired by the order they came.
// Up to four single-value products are listed one by one; more (a register tile's 8 x 8, a
// float4's four k steps) are one entry that says how many.
#pragma once
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/timeline/timeline.h"

namespace tilescope {

// "M(1,2)" and "Mds[1][0]": the names the captions and the life table use.
std::string elementName(const char* matrix, int row, int col);
std::string slotName(const char* tile, int row, int col);

struct LifeEntry {
  enum class Kind {
    Load, Barrier, Multiply, Store,
    Copy,                                          // a tensor-map copy the thread issued
    MbarrierInit, MbarrierArrive, MbarrierWait,    // rung 8's mbarriers
    WorkspaceRead, WorkspaceWrite,                 // rung 9's partial sums
    FlagWait, FlagPublish,                         // rung 9's flags between blocks
    Mma,                                           // rung 10: the lane's part of one mma.sync
    // Rung 11: a 128-bit read of an operand that the tensor cores made through a matrix
    // descriptor for the whole warpgroup, recorded in this thread's name (the trace shares the
    // reads out over the warpgroup's threads). Not the thread's own operand: it multiplies nothing.
    DescriptorRead,
  };
  Kind kind = Kind::Load;
  int step = -1;   // the timeline step it happens in
  int phase = 0;
  int k = -1;      // Multiply: the dot-product step
  int line = 0;    // the kernel source line (the barrier's, for a Barrier)
  // Load: the global element and the slot it goes to (slot -1 for kernels without tiles),
  // whether a boundary check wrote 0 instead, and whether it lies outside its matrix.
  // Store: the P element. Multiply: the M operand (slot, or global element without tiles).
  // Copy: the box's first element and first slot.
  bool isN = false;
  int row = -1, col = -1, slotRow = -1, slotCol = -1;
  bool zeroFilled = false, outOfBounds = false;
  int width = 1;   // elements of a 128-bit access (4), else 1
  // Multiply: the N operand, like the M one.
  int row2 = -1, col2 = -1, slotRow2 = -1, slotCol2 = -1;
  float value = 0;  // Store: the value stored; Multiply: the running Pvalue after it
  // Multiply: the operands' values as read, when the step is one M times one N value.
  bool hasValues = false;
  float mValue = 0, nValue = 0;
  // Multiply: the multiply-adds the entry stands for and the reads they take (1, 1, 1 for
  // one product); more than one product: the first M and N operands above.
  int products = 1, mReads = 1, nReads = 1;
  // Copy: the box (rows x cols), its stage (-1: no ring) and bytes. Mbarrier: its name
  // ("full[1]"), the arrivals an init asks for, the bytes an arrival announces, the parity a
  // wait waited for (and the stage: the index). Workspace and flags: the element's index.
  int boxRows = 0, boxCols = 0, stage = -1, bytes = 0, parity = -1, arrivals = 0, index = -1;
  std::string barrier;
  // Mma: the operand elements the lane holds, as the PTX ISA's fragment tables place them
  // (row, column in A 16 x 8, B 8 x 8 and the 16 x 8 sums), in the order the trace has them.
  std::vector<std::pair<int, int>> fragmentA, fragmentB, fragmentC;
  std::string text() const;
  // Multiply: "2 x 1.5, Pvalue = 3.5", the values read and the running sum ("" without them).
  std::string valuesText() const;  // "M(1,2) -> Mds[1][0]", "Mds[1][1] x Nds[1][0]", "P(1,0) = 3.5"
};

struct LifePhase {
  int phase = 0;
  std::vector<LifeEntry> entries;  // in program order: loads, barriers, multiplies, ...
};

struct ThreadLife {
  int thread = -1;  // linear index in its block
  std::vector<LifePhase> phases;
  std::vector<LifeEntry> stores;  // usually one, after the last phase
  int events = 0;    // the thread's events in the trace: every one is in an entry
  int products = 0;  // multiply-adds, by the Counters' rule
};

// Where an entry stands at a cursor: done (its step is behind), current (its step is the
// cursor's), or ahead.
enum class LifeTime { Done, Current, Ahead };
LifeTime lifeTime(const LifeEntry& e, const Timeline& timeline, Cursor c);

// Linear thread `thread` of the block `block` shows.
ThreadLife threadLife(const Timeline& timeline, const BlockTimeline& block, int thread);

// The lines of the launch's kernel whose text calls `call` ("wgmmaTf32(": rung 11's descriptor
// reads are recorded at that line), read from the kernel's own source; none for a lab kernel.
std::set<int> kernelLinesCalling(const KernelLaunch& launch, std::string_view call);

}  // namespace tilescope
