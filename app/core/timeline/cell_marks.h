// What a race did, as marks on the cells the app draws: a shared slot read stale (with its
// reader, the writer that should have come first, or the one that came too early, the value
// read and the one meant, and the line), and each P element whose running sum took a stale
// value, from that step on. Plain data, built per frame for one block at the cursor; the
// Shared memory and Matrices panels draw it and the layout file records it.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/timeline/timeline.h"

namespace tilescope {

struct CellMark {
  enum class Kind { Stale, Spoiled, OutOfBounds, Wrong };
  std::string grid;  // "Mds", "Nds", "P", "M", "N": the grid's name on screen
  int row = 0, col = 0;
  Kind kind = Kind::Stale;
  int readerX = -1, readerY = -1;  // threadIdx of the reader (stale, spoiled)
  int writerX = -1, writerY = -1;  // threadIdx of the writer it raced with
  int line = -1;                   // the read's source line
  bool overwritten = false;        // stale: overwritten too early (WAR), not written yet (RAW)
  std::optional<float> value, expected;
};
std::string_view markKindName(CellMark::Kind k);  // "stale", "spoiled", "out-of-bounds", "wrong"

// The stale slots of block (bx, by) in the barrier interval of c's step, and every P element
// spoiled by a stale read done at c (all blocks: they run in lockstep with the shown one).
std::vector<CellMark> raceMarks(const Timeline& timeline, Cursor c, int bx, int by);

// A mark in words, for its tooltip: who read what, when it should have been written, the values.
std::string describeMark(const CellMark& m);

}  // namespace tilescope
