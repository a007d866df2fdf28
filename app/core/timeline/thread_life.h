// One thread's whole life, read from the trace, the way the book's fig. 5.8 tabulates it for
// the four threads of its 4x4 example: per phase, the elements it loads from M and N and the
// shared slots they go to, the barriers it waits at, the operands it multiplies at each k
// step, and at the end the P element it stores. The app's Thread life panel draws it for the
// followed thread, with the cursor's step highlighted. GUI-free, so it is tested against the
// book's table by hand.
#pragma once
#include <string>
#include <vector>

#include "core/timeline/timeline.h"

namespace tilescope {

// "M(1,2)" and "Mds[1][0]": the names the captions and the life table use.
std::string elementName(const char* matrix, int row, int col);
std::string slotName(const char* tile, int row, int col);

struct LifeEntry {
  enum class Kind { Load, Barrier, Multiply, Store };
  Kind kind = Kind::Load;
  int step = -1;   // the timeline step it happens in
  int phase = 0;
  int k = -1;      // Multiply: the dot-product step
  int line = 0;    // the kernel source line (the barrier's, for a Barrier)
  // Load: the global element and the slot it goes to (slot -1 for kernels without tiles),
  // whether a boundary check wrote 0 instead, and whether it lies outside its matrix.
  // Store: the P element. Multiply: the M operand (slot, or global element without tiles).
  bool isN = false;
  int row = -1, col = -1, slotRow = -1, slotCol = -1;
  bool zeroFilled = false, outOfBounds = false;
  // Multiply: the N operand, like the M one.
  int row2 = -1, col2 = -1, slotRow2 = -1, slotCol2 = -1;
  float value = 0;  // Store: the value stored; Multiply: the running Pvalue after it
  // Multiply: the operands' values as read, when the step is one M times one N value.
  bool hasValues = false;
  float mValue = 0, nValue = 0;
  std::string text() const;
  // Multiply: "2 x 1.5, Pvalue = 3.5", the values read and the running sum ("" without them).
  std::string valuesText() const;  // "M(1,2) -> Mds[1][0]", "Mds[1][1] x Nds[1][0]", "P(1,0) = 3.5"
};

struct LifePhase {
  int phase = 0;
  std::vector<LifeEntry> entries;  // in step order: loads, barriers, multiplies, ...
};

struct ThreadLife {
  int thread = -1;  // linear index in its block
  std::vector<LifePhase> phases;
  std::vector<LifeEntry> stores;  // usually one, after the last phase
};

// Where an entry stands at a cursor: done (its step is behind), current (its step is the
// cursor's), or ahead.
enum class LifeTime { Done, Current, Ahead };
LifeTime lifeTime(const LifeEntry& e, const Timeline& timeline, Cursor c);

// Linear thread `thread` of the block `block` shows.
ThreadLife threadLife(const Timeline& timeline, const BlockTimeline& block, int thread);

}  // namespace tilescope
