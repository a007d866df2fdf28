// What a hovered cell's tooltip says, as plain data (issue 25: no draw function computes trace
// facts): the words for an element of M, N or P or a slot of Mds or Nds at a cursor, and for P
// the block and thread a click picks. Built by the view cache once per hovered cell and cursor
// (state/view_cache.h: shownCellTip), not per frame, and only while a cell is hovered. No ImGui.
#pragma once
#include <string>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"
#include "ui/model/shared_view.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {

// The block and the thread that compute P(row, col): from the trace (the thread that stores
// it), else from the block tiling.
struct CellOwner {
  int bx = 0, by = 0, tx = 0, ty = 0;
};
CellOwner ownerOfP(const LoadedRun& run, CellIndex at);

struct CellTip {
  std::string text;
  CellOwner owner;  // P only: what a click selects and follows
};

// The tooltip of `grid` ("M", "N" or "P") at `at`, with the selected block's events at `cursor`.
CellTip matricesTip(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, char grid, CellIndex at);
// The tooltip of a slot of Mds (`tile` 0) or Nds (1) of the Shared memory view `view`.
CellTip sharedTip(const LoadedRun& run, const SharedView& view, int tile, CellIndex at);

}  // namespace tilescope::ui
