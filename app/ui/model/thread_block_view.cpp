// The Thread block panel's view (thread_block_view.h).
#include "ui/model/thread_block_view.h"

#include <algorithm>

#include "core/timeline/block_geometry.h"
#include "kernels/ceil_div.h"
#include "ui/model/view_storage.h"

namespace tilescope::ui {

void buildThreadBlockView(ThreadBlockView& v, const LoadedRun& run, const BlockTimeline& block, Cursor cursor,
                          const Theme& theme) {
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  const ThreadGrid g = threadGrid(run.run.plan.launch);
  resetKeeping(v, &ThreadBlockView::cells, &ThreadBlockView::states);
  for (std::size_t s = 0; s < v.glyphInk.size(); ++s) v.glyphInk[s] = readableOn(theme.stateColour(ThreadState(s)));
  v.bx = block.bx(), v.by = block.by();
  v.rows = g.rows, v.cols = g.cols, v.byWarp = g.byWarp;
  v.threads = t.threadsPerBlock();
  v.warps = ceilDiv(v.threads, kWarpSize);
  v.blockX = std::max(int(run.run.plan.launch.blockX), 1);
  v.arrivals = block.barrierArrivals(c);
  const int cells = v.rows * v.cols;
  v.cells.resize(std::size_t(cells));
  v.states.assign(std::size_t(cells), ThreadState::Idle);
  for (int i = 0; i < cells; ++i) {
    if (i >= v.threads) {  // past the last warp's last thread
      v.cells[std::size_t(i)] = {theme.cellGhost, theme.cellOutline, 0, gfx::kMarkNone};
      continue;
    }
    const ThreadState s = block.threadState(c, i);
    v.states[std::size_t(i)] = s;
    ++v.counts[std::size_t(s)];
    // Odd warps are shaded darker (and outlined lighter), so warp boundaries show at a glance.
    Rgba fill = theme.stateColour(s);
    if ((i / kWarpSize) % 2) fill = gfx::rgba((fill & 0xff) * 3 / 4, ((fill >> 8) & 0xff) * 3 / 4, ((fill >> 16) & 0xff) * 3 / 4);
    v.cells[std::size_t(i)] = {fill, (i / kWarpSize) % 2 ? theme.warpTint : theme.cellOutline, 0, gfx::kMarkNone};
  }
}

ThreadBlockView threadBlockView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme) {
  ThreadBlockView v;
  buildThreadBlockView(v, run, block, cursor, theme);
  return v;
}

}  // namespace tilescope::ui
