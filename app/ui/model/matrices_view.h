// What the Matrices panel shows at one cursor, as plain data (issue 25: a panel draws from a
// view it is handed). Built by matricesView() once per cursor move (state/view_cache.h keeps
// it), then the panel only lays it out: each cell's fill, ring and marks for M, N and P, the
// marks the layout file records, the P elements a race spoiled, the running sums, the tiles
// every block loads at this step, the followed thread's footprint. No ImGui here.
#pragma once
#include <cstdint>
#include <vector>

#include "core/timeline/cell_marks.h"
#include "core/timeline/load_index.h"
#include "ui/model/loaded_run.h"
#include "ui/model/thread_story.h"
#include "ui/theme.h"

namespace tilescope::ui {

struct GridExtent {
  int rows = 0, cols = 0;
};

// A running Pvalue (fig. 5.8's last column) and the fill of its cell, which decides its ink.
struct RunningSum {
  int row = 0, col = 0;
  float sum = 0.0f;
  Rgba fill = 0;
  Rgba ink = 0;  // black or white, whichever reads on `fill` (readableOn)
};

struct MatricesOptions {
  bool shading = false;  // load-count shading of M and N (loadShadingOn)
  int followed = -1;     // the followed thread, linear in the block (-1: none)
  bool operator==(const MatricesOptions&) const = default;
};

// A cell of M or N coloured by the thread that loaded it, in a block of more threads than the
// palette has colours: the number written in it keeps the thread's identity where the hue repeats.
struct ThreadLabel {
  bool isN = false;
  int row = 0, col = 0;
  int thread = 0;  // linear in the block
  Rgba fill = 0;
};

struct MatricesView {
  // Tiled kernels are shown padded to whole tiles, so a boundary phase's elements outside the
  // matrix (fig. 5.11) have cells to land in.
  GridExtent m, n, p;
  int j = 0, k = 0, l = 0;  // the matrices' real sizes (M is j x k, N k x l, P j x l)
  int bx = 0, by = 0;       // the selected block
  std::vector<gfx::CellStyle> mCells, nCells, pCells;  // row-major over the padded extents
  std::vector<CellMark> marks;       // out-of-bounds loads, wrong P elements, a race's spoiled ones
  std::vector<CellIndex> spoiled;    // P elements whose running sum took a stale value
  std::vector<RunningSum> sums;      // every P element with a running sum at the cursor
  std::vector<ThreadLabel> threadLabels;  // thread-coloured cells where the palette repeats
  bool shading = false;
  int loadStep = -1;                 // the selected block's load step of the current tiles
  std::vector<TileBox> tileBoxes;    // shading: every block's tiles of that load step
  uint32_t mostLoads = 0;            // shading: the most any element of M has been loaded so far
  bool realOrder = false;            // the trace's own order (a race can show)
  bool following = false;            // options.followed >= 0: footprint and links hold its cells
  ThreadFootprint footprint;
  std::vector<FollowLink> links;     // its loads of this phase, element to slot (the arrows over every window)
};

// Builds the view at `cursor` into `v`, reusing its cells' storage (the cache's way). `life`:
// the followed thread's, built once per run, block and thread (followLinks); null: built there.
void buildMatricesView(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme,
                       const MatricesOptions& options, const ThreadLife* life = nullptr);
MatricesView matricesView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme,
                          const MatricesOptions& options);

}  // namespace tilescope::ui
