// The Matrices panel's view (matrices_view.h): everything M, N and P show at one cursor.
#include "ui/model/matrices_view.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

#include "core/timeline/block_geometry.h"
#include "ui/model/tile_state.h"
#include "ui/model/view_storage.h"

namespace tilescope::ui {
namespace {

using gfx::CellStyle;

void paddedExtents(MatricesView& v, const LoadedRun& run) {
  const KernelLaunch& L = run.run.plan.launch;
  const int phases = run.run.plan.phases;
  v.m = {L.j, L.k}, v.n = {L.k, L.l}, v.p = {L.j, L.l};
  const int depth = L.tiling.bk > 0 ? L.tiling.bk : L.tile;  // k per phase
  if (depth > 0 && phases > 0) {
    const PTile tile = blockTileOfP(L, 0, 0);
    // K rounded up to whole k tiles: not phases x depth, since a persistent block's share
    // (rung 9) can hold more k tiles than K has. J and L likewise to whole tiles of P: the
    // tile grid, which is the block grid only where each block is one tile.
    const int covK = (L.k + depth - 1) / depth * depth;
    const GridCell tiles = tileGridOfP(L);
    const int covJ = tiles.row * tile.rows, covL = tiles.col * tile.cols;
    v.m = {std::max(L.j, covJ), std::max(L.k, covK)};
    v.n = {std::max(L.k, covK), std::max(L.l, covL)};
    v.p = {std::max(L.j, covJ), std::max(L.l, covL)};
  }
}

// Every cell idle (ghost outside the matrix), in `cells`' own storage.
void baseCells(std::vector<CellStyle>& cells, GridExtent e, int realRows, int realCols, const Theme& theme) {
  cells.resize(std::size_t(e.rows) * std::size_t(e.cols));
  for (int r = 0; r < e.rows; ++r)
    for (int c = 0; c < e.cols; ++c)
      cells[std::size_t(r) * e.cols + c] = {(r < realRows && c < realCols) ? theme.cellIdle : theme.cellGhost,
                                            theme.cellOutline, 0, gfx::kMarkNone};
}

CellStyle* cellAt(std::vector<CellStyle>& cells, GridExtent e, int r, int c) {
  if (r < 0 || c < 0 || r >= e.rows || c >= e.cols) return nullptr;
  return &cells[std::size_t(r) * e.cols + c];
}

Rgba mix(Rgba a, Rgba b, float t) {
  auto channel = [&](int shift) {
    const float x = float((a >> shift) & 0xff) * (1.0f - t) + float((b >> shift) & 0xff) * t;
    return uint32_t(std::lround(x)) << shift;
  };
  return channel(0) | channel(8) | channel(16) | 0xff000000u;
}

// Load-count shading: 0 loads keeps the idle fill; 1 .. `most` (the naive kernel's count for
// the element: once per output it feeds) runs from pale to dark. A count is at most `most`
// (and rarely more, by a race): each shade is worked out once per count, not once per cell.
void shadeByLoads(std::vector<CellStyle>& cells, GridExtent e, const std::vector<uint32_t>& counts, int rows, int cols,
                  int most, const Theme& theme) {
  std::vector<Rgba> shades;
  auto shade = [&](uint32_t count) {
    if (count > uint32_t(std::max(most, 1)) * 4u)  // not a count the shading was made for: worked out alone
      return mix(theme.loadsFew, theme.loadsMany, loadShadeFraction(count, most));
    if (count >= shades.size()) {
      const std::size_t from = shades.size();
      shades.resize(std::size_t(count) + 1);
      for (std::size_t n = from; n < shades.size(); ++n)
        shades[n] = n == 0 ? theme.cellIdle : mix(theme.loadsFew, theme.loadsMany, loadShadeFraction(uint32_t(n), most));
    }
    return shades[count];
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      cells[std::size_t(r) * e.cols + c].fill = shade(counts[std::size_t(r) * cols + c]);
}

CellMark outOfBoundsMark(const Event& e, const GridCell& at) {
  CellMark mark;
  mark.grid = e.op == Op::LoadM ? "M" : "N", mark.row = at.row, mark.col = at.col;
  mark.kind = CellMark::Kind::OutOfBounds;
  mark.readerX = e.threadX, mark.readerY = e.threadY, mark.line = e.line, mark.value = e.value;
  return mark;
}

// A tensor-map copy of the current tiles (rungs 8 and 9): no thread loads its elements, the
// copy engine reads its whole box, bm x bk of M or bk x bn of N from its first element.
void ringCopiedBox(MatricesView& v, const Event& e, const KernelLaunch& L, const Theme& theme) {
  const bool isM = e.op == Op::CopyM;
  const int rows = isM ? L.tiling.bm : L.tiling.bk, cols = isM ? L.tiling.bk : L.tiling.bn;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (CellStyle* cell = cellAt(isM ? v.mCells : v.nCells, isM ? v.m : v.n, e.globalRow + r, e.globalCol + c))
        cell->highlight = theme.highlight;
}

// A ring's current tiles (rungs 8 and 9: no thread loads, the timeline has no load step for
// them): the copies of the block's latest step at or before c that issued any, the phase's.
void ringCopiedTiles(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c, const Theme& theme) {
  const auto& events = run.timeline.trace().events;
  auto isCopy = [&](uint32_t i) { return events[i].op == Op::CopyM || events[i].op == Op::CopyN; };
  for (int s = c.step; s >= 0; --s) {
    const auto mine = block.stepEvents(s);
    if (std::none_of(mine.begin(), mine.end(), isCopy)) continue;
    for (uint32_t i : mine)
      if (isCopy(i)) ringCopiedBox(v, events[i], run.run.plan.launch, theme);
    return;
  }
}

// The current tiles: every element this block loads in the current load step is ringed; the
// ones already loaded take their loader's colour (hatched when zero-filled, crossed out of bounds).
void ringCurrentTiles(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c, const Theme& theme) {
  const Timeline& timeline = run.timeline;
  const auto& events = timeline.trace().events;
  const KernelLaunch& L = run.run.plan.launch;
  for (int step : currentLoadSteps(timeline, block, c))
    for (uint32_t i : block.stepEvents(step)) {
      const Event& e = events[i];
      if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
      const bool isM = e.op == Op::LoadM;
      const bool done = timeline.done(c, step, linearThread(e, L.blockX));
      for (const GridCell& at : elementsOf(e)) {  // a 128-bit load colours its four elements
        CellStyle* cell = cellAt(isM ? v.mCells : v.nCells, isM ? v.m : v.n, at.row, at.col);
        if (!cell) continue;
        cell->highlight = theme.highlight;
        if (!done) continue;
        if (zeroFilled(e)) {
          cell->fill = theme.zeroFilled;
          cell->marks |= gfx::kMarkHatch;
        } else if (!inBounds(e)) {
          cell->fill = theme.error;
          cell->marks |= gfx::kMarkCross;
          v.marks.push_back(outOfBoundsMark(e, at));
        } else if (!v.shading) {
          cell->fill = theme.threadColour(linearThread(e, L.blockX));
          if (int(L.blockX * L.blockY) > int(std::size(theme.threadColours)))
            v.threadLabels.push_back({!isM, at.row, at.col, linearThread(e, L.blockX), cell->fill});
        }
      }
    }
}

// Elements whose shared slot is read at this k step get a dot.
void dotReadElements(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c) {
  const auto& events = run.timeline.trace().events;
  const TileState tiles = tileStateAt(run, block, c);
  for (bool isM : {true, false})
    for (int r = 0; r < tiles.dims(isM).rows && tiles.reading; ++r)
      for (int col = 0; col < tiles.dims(isM).cols; ++col) {
        const SlotState& s = tiles.slot(isM, r, col);
        if (s.readers.empty() || s.loadEvent < 0) continue;
        const Event& e = events[std::size_t(s.loadEvent)];
        // A 128-bit load filled four slots from four consecutive elements.
        const int offset = (e.flags & kWide) && e.sharedRow == r ? col - e.sharedCol : 0;
        if (CellStyle* cell = cellAt(isM ? v.mCells : v.nCells, isM ? v.m : v.n, e.globalRow, e.globalCol + offset))
          cell->marks |= gfx::kMarkDot;
      }
}

// The running sum of P(row, col) at `c` (normalized): Timeline::runningSum's answer (the last
// of the element's partial sums that is done; they are in step order, so "done" holds for a
// prefix of them). A 64x64 P asks 4096 times per cursor move, and the sums are megabytes, so
// reads of them are what it costs: the neighbouring element's count, `hint`, is tried first
// (two reads: the threads of a block do the same k steps), else the sums are halved.
const PartialSum* runningSumAt(const Timeline& t, Cursor c, int row, int col, std::size_t& hint) {
  const std::span<const PartialSum> sums = t.partialSums(row, col);
  const int64_t store = sums.empty() ? -1 : t.pStoreEvent(row, col);
  if (store < 0) return nullptr;
  const int thread = linearThread(t.trace().events[std::size_t(store)], t.trace().launch.blockX);
  auto done = [&](std::size_t i) { return t.done(c, sums[i].step, thread); };
  std::size_t n = 0;  // how many are done
  if (hint <= sums.size() && (hint == 0 || done(hint - 1)) && (hint == sums.size() || !done(hint)))
    n = hint;
  else
    n = std::size_t(std::partition_point(sums.begin(), sums.end(), [&](const PartialSum& p) { return t.done(c, p.step, thread); }) -
                    sums.begin());
  hint = n;
  return n == 0 ? nullptr : &sums[n - 1];
}

// The ink of a running sum on its cell: black or white, whichever reads (worked out once per
// fill; P's cells have three).
Rgba inkOn(Rgba fill, std::vector<std::pair<Rgba, Rgba>>& known) {
  for (const auto& [f, ink] : known)
    if (f == fill) return ink;
  known.push_back({fill, readableOn(fill)});
  return known.back().second;
}

// P: stored so far (all blocks in lockstep), wrong ones red, each running sum; a race's
// spoiled elements; the selected block's tile ringed.
void fillP(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor c, const Theme& theme) {
  const Timeline& timeline = run.timeline;
  const KernelLaunch& L = run.run.plan.launch;
  std::vector<std::pair<Rgba, Rgba>> inks;
  std::size_t hint = 0;
  for (int r = 0; r < L.j; ++r)
    for (int col = 0; col < L.l; ++col) {
      const bool stored = timeline.pStored(c, r, col), wrong = run.wrongAt(r, col);
      const Rgba fill = !stored ? theme.pPending : wrong ? theme.error : theme.pStored;
      if (const PartialSum* sum = runningSumAt(timeline, c, r, col, hint)) v.sums.push_back({r, col, sum->sum, fill, inkOn(fill, inks)});
      if (!stored) continue;
      CellStyle& cell = v.pCells[std::size_t(r) * v.p.cols + col];
      cell.fill = fill;
      if (!wrong) continue;
      cell.marks |= gfx::kMarkCross;
      CellMark mark;
      mark.grid = "P", mark.row = r, mark.col = col, mark.kind = CellMark::Kind::Wrong;
      mark.value = run.run.p.at(r, col);
      v.marks.push_back(mark);
    }
  // A race: P elements whose running sum took a stale value, from that step on (framed red,
  // before the wrong value is stored).
  for (const CellMark& mark : raceMarks(timeline, c, block.bx(), block.by()))
    if (mark.grid == "P") {
      v.spoiled.push_back({mark.row, mark.col});
      v.marks.push_back(mark);
    }
  // The tiles the block works on (bm x bn on the ladder): one, or on a persistent grid those
  // its copies and stores name (rung 9: a block may finish one tile and begin the next).
  const auto [begin, end] = timeline.blockRange(block.bx(), block.by());
  const std::span<const Event> mine(timeline.trace().events.data() + begin, end - begin);
  for (const PTile& blockTile : blockTilesOfP(L, mine, block.bx(), block.by()))
    for (int r = 0; r < blockTile.rows; ++r)
      for (int col = 0; col < blockTile.cols; ++col)
        if (CellStyle* cell = cellAt(v.pCells, v.p, blockTile.row0 + r, blockTile.col0 + col)) cell->highlight = theme.highlight;
}

}  // namespace

void buildMatricesView(MatricesView& v, const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme,
                       const MatricesOptions& options, const ThreadLife* life) {
  const KernelLaunch& L = run.run.plan.launch;
  const Cursor c = run.timeline.normalize(cursor);
  resetKeeping(v, &MatricesView::mCells, &MatricesView::nCells, &MatricesView::pCells, &MatricesView::sums);
  paddedExtents(v, run);
  v.j = L.j, v.k = L.k, v.l = L.l, v.bx = block.bx(), v.by = block.by();
  v.shading = options.shading;
  v.realOrder = run.timeline.realOrder();
  baseCells(v.mCells, v.m, L.j, L.k, theme);
  baseCells(v.nCells, v.n, L.k, L.l, theme);
  baseCells(v.pCells, v.p, L.j, L.l, theme);
  v.loadStep = block.loadStepAt(c.step);
  // Across all blocks, how often each element has come from global memory so far.
  if (v.shading) {
    const std::vector<uint32_t>& mCounts = run.loads.mCounts(c);
    shadeByLoads(v.mCells, v.m, mCounts, L.j, L.k, L.l, theme);
    for (uint32_t x : mCounts) v.mostLoads = std::max(v.mostLoads, x);
    shadeByLoads(v.nCells, v.n, run.loads.nCounts(c), L.k, L.l, L.j, theme);
    if (v.loadStep >= 0) v.tileBoxes = run.loads.tilesOfStep(v.loadStep);
  }
  ringCurrentTiles(v, run, block, c, theme);
  if (v.loadStep < 0) ringCopiedTiles(v, run, block, c, theme);
  dotReadElements(v, run, block, c);
  fillP(v, run, block, c, theme);
  v.following = options.followed >= 0;
  if (v.following) {
    v.footprint = threadFootprint(run, block, c, options.followed);
    v.links = followLinks(run, block, c, options.followed, life);
  }
}

MatricesView matricesView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, const Theme& theme,
                          const MatricesOptions& options) {
  MatricesView v;
  buildMatricesView(v, run, block, cursor, theme, options);
  return v;
}

}  // namespace tilescope::ui
