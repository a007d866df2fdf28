// What the selected block has in shared memory at the cursor, and who is reading it: the
// view model the Matrices and Shared memory panels share. Built per frame from one load
// step and one read step of one block, so it is cheap.
#pragma once
#include <vector>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct SlotState {
  int64_t loadEvent = -1;    // the event that filled the slot in the current phase
  bool loaded = false;       // that event is done at the cursor
  std::vector<int> readers;  // linear threads that read the slot at the current step (done)
};

struct TileDims {
  int rows = 0, cols = 0;
};

struct TileState {
  int loadStep = -1;          // the step whose loads fill the tiles (-1: nothing loaded yet)
  TileDims m, n;              // slots of Mds and Nds (the ladder's differ: bm x bk, bk x bn, ...)
  std::vector<SlotState> mds, nds;  // row-major rows x cols
  bool reading = false;       // the cursor's step reads shared memory
  std::vector<int64_t> directLoads;  // kernels without tiles: this step's global loads (done)
  const TileDims& dims(bool isM) const { return isM ? m : n; }
  bool empty() const { return m.rows == 0 || n.rows == 0; }
  SlotState& slot(bool isM, int r, int c) {
    return (isM ? mds : nds)[std::size_t(r) * std::size_t(dims(isM).cols) + std::size_t(c)];
  }
  const SlotState& slot(bool isM, int r, int c) const {
    return (isM ? mds : nds)[std::size_t(r) * std::size_t(dims(isM).cols) + std::size_t(c)];
  }
};

// The steps whose loads are the current tiles: the one load step in lockstep; in real order
// (a race) every thread's load step of the current tiles' barrier interval.
std::vector<int> currentLoadSteps(const Timeline& timeline, const BlockTimeline& block, Cursor c);

TileState tileStateAt(const LoadedRun& run, const BlockTimeline& block, Cursor cursor);

}  // namespace tilescope::ui
