#include "tile_state.h"

#include <algorithm>

namespace tilescope::ui {

TileState tileStateAt(const LoadedRun& run, const BlockTimeline& block, Cursor cursor) {
  const Timeline& timeline = run.timeline;
  const auto& events = timeline.trace().events;
  const unsigned blockX = timeline.trace().launch.blockX;
  const Cursor c = timeline.normalize(cursor);
  TileState t;
  t.loadStep = block.loadStepAt(c.step);
  const auto loads = block.stepEvents(t.loadStep);
  const auto reads = block.stepEvents(c.step);

  // Tile extent: the slots this kernel uses (from its events; at least the tile width).
  const int tile = timeline.trace().launch.tile;
  t.rows = t.cols = tile;
  auto extend = [&](const Event& e) {
    if (e.sharedRow < 0 || e.sharedCol < 0) return;
    t.rows = std::max(t.rows, e.sharedRow + 1);
    t.cols = std::max(t.cols, e.sharedCol + 1);
  };
  for (uint32_t i : loads) extend(events[i]);
  for (uint32_t i : reads) extend(events[i]);
  t.mds.resize(std::size_t(t.rows) * std::size_t(t.cols));
  t.nds.resize(t.mds.size());

  for (uint32_t i : loads) {
    const Event& e = events[i];
    if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
    const bool done = timeline.done(c, t.loadStep, linearThread(e, blockX));
    if (e.sharedRow < 0) {
      if (done && t.loadStep == c.step) t.directLoads.push_back(i);
      continue;
    }
    SlotState& s = t.slot(e.op == Op::LoadM, e.sharedRow, e.sharedCol);
    s.loadEvent = i;
    s.loaded = done;
  }
  for (uint32_t i : reads) {
    const Event& e = events[i];
    if ((e.op != Op::ReadM && e.op != Op::ReadN) || e.sharedRow < 0) continue;
    t.reading = true;
    const int thread = linearThread(e, blockX);
    if (timeline.done(c, c.step, thread)) t.slot(e.op == Op::ReadM, e.sharedRow, e.sharedCol).readers.push_back(thread);
  }
  return t;
}

}  // namespace tilescope::ui
