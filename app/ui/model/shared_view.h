// What the Shared memory panel shows at one cursor, as plain data (issue 25): the selected
// block's Mds and Nds slots (fill, ring, marks), who reads each, the slots a race read stale,
// the followed thread's (and its warp's) slots, the tiles' captions as the kernel declares
// them. Built once per cursor move (state/view_cache.h); the panel lays it out. No ImGui here.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/timeline/block_geometry.h"
#include "core/timeline/cell_marks.h"
#include "ui/model/thread_story.h"
#include "ui/model/tile_state.h"
#include "ui/theme.h"

namespace tilescope::ui {

// One of Mds (index 0) and Nds (index 1).
struct SharedTileView {
  std::string name;     // "Mds", "Nds": the grid's name on screen and in the layout file
  std::string caption;  // its declaration, read the way the kernel indexes it
  TileDims dims;
  std::vector<gfx::CellStyle> cells;
  std::vector<CellMark> stale;             // slots read stale in this barrier interval so far
  std::vector<CellIndex> staleCells;       // the same, as cells to frame
  std::vector<CellIndex> warpReads;        // the ladder: every slot the followed thread's warp reads
  std::vector<CellIndex> written, read;    // the followed thread's slots: written this phase, read now
};

struct SharedViewOptions {
  int followed = -1;  // linear in the block (-1: none)
  bool operator==(const SharedViewOptions&) const = default;
};

struct SharedView {
  bool noShared = false;    // the kernel reads M and N straight from global memory
  std::string kernelName;   // for that sentence
  int bx = 0, by = 0;
  int blockX = 1;           // linear thread -> (tx, ty) for the readers' names
  bool reading = false;     // the cursor's step reads shared memory
  int buffers = 1;          // the ladder's double buffer: halves one above the other
  bool ladder = false;      // drawn as declared (ladderSharedShape)
  bool wideM = false;       // the ladder's Mds is wider than high (stacks when it is a tie)
  bool following = false;
  TileState tiles;          // each slot's load event and readers (the tooltips)
  std::array<SharedTileView, 2> tile;  // Mds, Nds
};

SharedView sharedView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme,
                      const SharedViewOptions& options);

}  // namespace tilescope::ui
