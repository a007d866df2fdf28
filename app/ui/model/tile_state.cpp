#include "ui/model/tile_state.h"

#include <algorithm>

#include "core/timeline/block_geometry.h"

namespace tilescope::ui {

std::vector<int> currentLoadSteps(const Timeline& timeline, const BlockTimeline& block, Cursor c) {
  c = timeline.normalize(c);
  const int load = block.loadStepAt(c.step);
  if (load < 0 || !timeline.realOrder()) return {load};
  // Real order: every thread's load step of that barrier interval, done or not.
  std::vector<int> out;
  const int interval = timeline.step(load).interval;
  for (int s = 0; s < timeline.steps(); ++s)
    if (timeline.step(s).interval == interval && timeline.step(s).kind == StepKind::Load) out.push_back(s);
  return out;
}

TileState tileStateAt(const LoadedRun& run, const BlockTimeline& block, Cursor cursor) {
  const Timeline& timeline = run.timeline;
  const auto& events = timeline.trace().events;
  const KernelLaunch& L = timeline.trace().launch;
  const unsigned blockX = L.blockX;
  const Cursor c = timeline.normalize(cursor);
  TileState t;
  t.loadStep = block.loadStepAt(c.step);
  const auto loads = block.stepEvents(t.loadStep);
  const auto reads = block.stepEvents(c.step);

  // Tile extent: the ladder's kernels say theirs (padding and both buffers included); the
  // chapter's use the slots their events touch, at least the tile width.
  const auto shape = ladderSharedShape(L);
  if (shape) {
    t.m = {shape->mRows, shape->mCols};
    t.n = {shape->nRows, shape->nCols};
  } else {
    int rows = L.tile, cols = L.tile;
    auto extend = [&](const Event& e) {
      for (const GridCell& at : slotsOf(e)) rows = std::max(rows, at.row + 1), cols = std::max(cols, at.col + 1);
    };
    for (uint32_t i : loads) extend(events[i]);
    for (uint32_t i : reads) extend(events[i]);
    t.m = t.n = {rows, cols};
  }
  t.mds.resize(std::size_t(t.m.rows) * std::size_t(t.m.cols));
  t.nds.resize(std::size_t(t.n.rows) * std::size_t(t.n.cols));
  auto inside = [&](bool isM, const GridCell& at) { return at.row < t.dims(isM).rows && at.col < t.dims(isM).cols; };

  // A double buffer keeps the other half's tiles while this one loads: the load step before
  // is drawn first, then the current one over it.
  const int previous = shape && shape->buffers > 1 && t.loadStep > 0 ? block.loadStepAt(t.loadStep - 1) : -1;
  std::vector<std::pair<uint32_t, int>> writes;  // event, its step
  if (previous >= 0)
    for (uint32_t i : block.stepEvents(previous)) writes.push_back({i, previous});
  if (timeline.realOrder()) {
    // A race, drawn in the order the emulator ran it: shared memory holds whatever was written
    // last, so a slot its thread has not reloaded yet still shows the previous phase's value,
    // which is what an early reader gets. Replayed from the block's first step (racy traces
    // are small: real order is refused past a million steps).
    writes.clear();
    for (int s = 0; s <= c.step; ++s)
      for (uint32_t i : block.stepEvents(s)) writes.push_back({i, s});
  } else {
    for (uint32_t i : loads) writes.push_back({i, t.loadStep});
  }
  for (const auto& [i, step] : writes) {
    const Event& e = events[i];
    if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
    const bool done = timeline.done(c, step, linearThread(e, blockX));
    if (timeline.realOrder() && !done) continue;  // not written yet: the slot keeps what it held
    if (e.sharedRow < 0) {
      // A read staged into registers is shown where its shared write lands (kStagedWrite).
      if (done && step == c.step && !(e.flags & kStagedRead)) t.directLoads.push_back(i);
      continue;
    }
    const bool isM = e.op == Op::LoadM;
    for (const GridCell& at : slotsOf(e)) {  // four slots for a 128-bit store
      if (!inside(isM, at)) continue;
      SlotState& s = t.slot(isM, at.row, at.col);
      s.loadEvent = i;
      s.loaded = done;
    }
  }
  for (uint32_t i : reads) {
    const Event& e = events[i];
    if ((e.op != Op::ReadM && e.op != Op::ReadN) || e.sharedRow < 0) continue;
    t.reading = true;
    const int thread = linearThread(e, blockX);
    if (!timeline.done(c, c.step, thread)) continue;
    const bool isM = e.op == Op::ReadM;
    for (const GridCell& at : slotsOf(e))
      if (inside(isM, at)) t.slot(isM, at.row, at.col).readers.push_back(thread);
  }
  return t;
}

}  // namespace tilescope::ui
