// What the Thread block panel shows at one cursor, as plain data (issue 25): each thread's
// state and its cell, how many threads are in each state, the barrier's arrivals. Built once
// per cursor move (state/view_cache.h); the panel lays it out. No ImGui here.
#pragma once
#include <array>
#include <vector>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"
#include "ui/theme.h"

namespace tilescope::ui {

struct ThreadBlockView {
  int bx = 0, by = 0;
  int rows = 0, cols = 0;  // the grid as drawn (threadGrid): threadIdx.y rows, or a warp per row
  bool byWarp = false;
  int threads = 0;         // per block
  int warps = 0;
  int blockX = 1;          // threadIdx.x's extent: linear thread -> (tx, ty)
  int arrivals = -1;       // threads arrived at the barrier of this step (-1: not a barrier step)
  std::vector<gfx::CellStyle> cells;  // rows x cols; past the last thread: ghost cells
  std::vector<ThreadState> states;    // by linear thread (Idle past the last)
  std::array<int, 6> counts{};        // threads in each ThreadState
  std::array<Rgba, 6> glyphInk{};     // each state's glyph: black or white, whichever reads on its colour
  bool barrier() const { return arrivals >= 0; }
  bool released() const { return arrivals == threads; }
};

// Builds the view into `v`, reusing its cells' storage (the cache's way).
void buildThreadBlockView(ThreadBlockView& v, const LoadedRun& run, const BlockTimeline& block, Cursor cursor,
                          const Theme& theme);
ThreadBlockView threadBlockView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme);

}  // namespace tilescope::ui
