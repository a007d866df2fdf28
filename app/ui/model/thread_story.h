// The classroom's words and highlights for one step, from the trace (README.md, "For
// teachers"): the step in words (the caption), and the footprint of a followed thread: what it
// loaded from M and N, the Mds and Nds slots it wrote and reads, the P element it stores.
// GUI-free (model/): the panels draw what these compute.
#pragma once
#include <string>
#include <vector>

#include "core/timeline/copy_ring.h"
#include "core/timeline/thread_life.h"
#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

// A cell of a grid on screen (row, column): what the views frame and link.
struct CellIndex {
  int row = 0, col = 0;
};

// "phase 1: thread (0,1) loads M(1,2) into Mds[1][0] and N(2,0) into Nds[1][0]",
// "phase 0: all 4 threads wait at the read-after-write barrier (line 27)",
// "phase 0, k = 1: thread (1,0): P(0,1) += Mds[0][1] x Nds[1][1]". It speaks of `thread` when
// one is followed (>= 0), else of the newest thread through the step. `ring`: the block's copy
// schedule, built once per run and block by the caller (state/view_cache.h); null: built here.
std::string stepCaption(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, int thread,
                        const CopySchedule* ring = nullptr);

struct ThreadFootprint {
  std::vector<CellIndex> mLoads, nLoads;          // elements it loaded from global memory so far
  std::vector<CellIndex> mdsWritten, ndsWritten;  // slots it wrote in the current phase (done)
  std::vector<CellIndex> mdsRead, ndsRead;        // slots it reads at the cursor's step
  CellIndex p{-1, -1};                            // the P element it stores (-1: it stores none)
  std::vector<CellIndex> pTile;                   // every P element it stores (the ladder: its TM x TN tile)
  bool stored = false;                            // and whether it has at the cursor
};
ThreadFootprint threadFootprint(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, int thread);

// The followed thread's loads of the current phase done at the cursor, each an element of M or
// N and the shared slot it went to: the views link them with an arrow. `life`: the thread's
// life, built once per run, block and thread by the caller (state/view_cache.h); null: built here.
struct FollowLink {
  bool isN = false;
  CellIndex element, slot;
};
std::vector<FollowLink> followLinks(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, int thread,
                                    const ThreadLife* life = nullptr);

}  // namespace tilescope::ui
