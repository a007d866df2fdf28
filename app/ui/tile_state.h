// What the selected block has in shared memory at the cursor, and who is reading it: the
// view model the Matrices and Shared memory panels share. Built per frame from one load
// step and one read step of one block, so it is cheap.
#pragma once
#include <vector>

#include "core/timeline.h"
#include "run_worker.h"

namespace tilescope::ui {

struct SlotState {
  int64_t loadEvent = -1;    // the event that filled the slot in the current phase
  bool loaded = false;       // that event is done at the cursor
  std::vector<int> readers;  // linear threads that read the slot at the current step (done)
};

struct TileState {
  int loadStep = -1;          // the step whose loads fill the tiles (-1: nothing loaded yet)
  int rows = 0, cols = 0;     // slots per tile
  std::vector<SlotState> mds, nds;  // row-major rows x cols
  bool reading = false;       // the cursor's step reads shared memory
  std::vector<int64_t> directLoads;  // kernels without tiles: this step's global loads (done)
  SlotState& slot(bool m, int r, int c) { return (m ? mds : nds)[std::size_t(r) * std::size_t(cols) + std::size_t(c)]; }
  const SlotState& slot(bool m, int r, int c) const {
    return (m ? mds : nds)[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
  }
};

TileState tileStateAt(const LoadedRun& run, const BlockTimeline& block, Cursor cursor);

}  // namespace tilescope::ui
