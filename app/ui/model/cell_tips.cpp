// The hovered cells' tooltips (cell_tips.h).
#include "ui/model/cell_tips.h"

#include <array>
#include <cstdio>

#include "core/timeline/block_geometry.h"
#include "core/timeline/cell_marks.h"
#include "ui/model/event_words.h"

namespace tilescope::ui {
namespace {

// "Pvalue = 3.5 after phase 1, k = 0 (+= 1.5 x 2)", the running sum of the thread computing it.
std::string runningSumText(const Timeline& timeline, Cursor c, int row, int col) {
  const PartialSum* p = timeline.runningSum(c, row, col);
  if (!p) return timeline.partialSums(row, col).empty() ? "" : "Pvalue = 0 (no product yet)";
  const StepInfo& st = timeline.step(p->step);
  char text[160];
  std::snprintf(text, sizeof text, "Pvalue = %.4g after phase %d, k = %d (+= %.4g x %.4g)", double(p->sum), st.phase,
                st.k, double(p->m), double(p->n));
  return text;
}

// M and N: the element and the event of the selected block that last touched it at the cursor.
std::string elementTip(char name, CellIndex at, int rows, int cols, const Matrix& values, const BlockTimeline& block,
                       const LoadedRun& run, Cursor c) {
  std::string text = std::string(1, name) + "(row " + std::to_string(at.row) + ", col " + std::to_string(at.col) + ")";
  if (at.row < rows && at.col < cols) {
    char v[32];
    std::snprintf(v, sizeof v, " = %.4g", double(values.at(at.row, at.col)));
    text += v;
  } else {
    text += " (outside the matrix)";
  }
  const int64_t e = block.lastEventAt(c, std::array<Op, 1>{name == 'M' ? Op::LoadM : Op::LoadN}, at.row, at.col);
  return text + (e >= 0 ? "\n" + describeEvent(run.timeline.trace().events[std::size_t(e)]) : "\nnot touched by this block yet");
}

// P: stored or not, its running sum, a race's mark, whether it is wrong, what a click does.
std::string pTip(CellIndex at, const BlockTimeline& block, const LoadedRun& run, Cursor c, const CellOwner& o) {
  const Timeline& timeline = run.timeline;
  const KernelLaunch& L = run.run.plan.launch;
  std::string text = "P(row " + std::to_string(at.row) + ", col " + std::to_string(at.col) + ")";
  if (at.row < L.j && at.col < L.l) {
    const int64_t e = timeline.pStoreEvent(at.row, at.col);
    const bool stored = timeline.pStored(c, at.row, at.col);
    text += stored ? "\n" + describeEvent(timeline.trace().events[std::size_t(e)]) : "\nnot stored yet";
    text += "\n" + runningSumText(timeline, c, at.row, at.col);
    if (const int64_t s = timeline.spoiledBy(c, at.row, at.col); s >= 0)
      for (const CellMark& mark : raceMarks(timeline, c, block.bx(), block.by()))
        if (mark.grid == "P" && mark.row == at.row && mark.col == at.col) text += "\n" + describeMark(mark);
    if (stored && run.wrongAt(at.row, at.col)) text += "\nWRONG: differs from the host reference";
  } else {
    text += " (outside the matrix: no thread may store here)";
  }
  return text + "\nclick: select block (" + std::to_string(o.bx) + "," + std::to_string(o.by) + ") and follow " +
         threadName(o.tx, o.ty);
}

}  // namespace

CellOwner ownerOfP(const LoadedRun& run, CellIndex at) {
  const KernelLaunch& L = run.run.plan.launch;
  if (at.row < L.j && at.col < L.l)
    if (const int64_t e = run.timeline.pStoreEvent(at.row, at.col); e >= 0) {
      const Event& s = run.timeline.trace().events[std::size_t(e)];
      return {s.blockX, s.blockY, s.threadX, s.threadY};
    }
  const GridCell b = blockOfP(L, at.row, at.col);
  const PTile t = blockTileOfP(L, b.col, b.row);
  return {b.col, b.row, at.col - t.col0, at.row - t.row0};
}

CellTip matricesTip(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, char grid, CellIndex at) {
  const Cursor c = run.timeline.normalize(cursor);
  const KernelLaunch& L = run.run.plan.launch;
  CellTip tip;
  if (grid == 'M') tip.text = elementTip('M', at, L.j, L.k, run.run.m, block, run, c);
  else if (grid == 'N') tip.text = elementTip('N', at, L.k, L.l, run.run.n, block, run, c);
  else {
    tip.owner = ownerOfP(run, at);
    tip.text = pTip(at, block, run, c, tip.owner);
  }
  return tip;
}

CellTip sharedTip(const LoadedRun& run, const SharedView& v, int i, CellIndex at) {
  const SharedTileView& t = v.tile[std::size_t(i)];
  const SlotState& s = v.tiles.slot(i == 0, at.row, at.col);
  std::string text = t.name + "[" + std::to_string(at.row) + "][" + std::to_string(at.col) + "]\n";
  text += s.loaded ? describeEvent(run.timeline.trace().events[std::size_t(s.loadEvent)]) : "not written in this phase yet";
  if (!s.readers.empty()) {
    text += "\nread at this step by " + std::to_string(s.readers.size()) + " thread(s):";
    for (std::size_t k = 0; k < s.readers.size() && k < 16; ++k)
      text += (k ? "; " : " ") + threadName(s.readers[k] % v.blockX, s.readers[k] / v.blockX);
    if (s.readers.size() > 16) text += " ...";
  }
  for (const CellMark& m : t.stale)
    if (m.row == at.row && m.col == at.col) text += "\n" + describeMark(m);
  return {text, {}};
}

}  // namespace tilescope::ui
