#include "core/timeline/cell_marks.h"

#include <cmath>
#include <cstdio>

namespace tilescope {

std::string_view markKindName(CellMark::Kind k) {
  switch (k) {
    case CellMark::Kind::Stale: return "stale";
    case CellMark::Kind::Spoiled: return "spoiled";
    case CellMark::Kind::OutOfBounds: return "out-of-bounds";
    case CellMark::Kind::Wrong: return "wrong";
  }
  return "?";
}


namespace {

CellMark staleMark(const Timeline& t, std::size_t i, CellMark::Kind kind) {
  const RacedRead& s = t.staleReads()[i];
  const Event& r = t.trace().events[s.readEvent];
  const Event& w = t.trace().events[s.writeEvent];
  CellMark m;
  m.kind = kind;
  m.grid = r.op == Op::ReadN ? "Nds" : "Mds";
  m.row = r.sharedRow, m.col = r.sharedCol;
  m.readerX = r.threadX, m.readerY = r.threadY;
  m.writerX = w.threadX, m.writerY = w.threadY;
  m.line = r.line;
  m.overwritten = s.overwritten;
  m.value = r.value;
  if (!std::isnan(s.expected)) m.expected = s.expected;  // a copy's value is not in its event
  return m;
}

}  // namespace

std::vector<CellMark> raceMarks(const Timeline& t, Cursor c, int bx, int by) {
  std::vector<CellMark> out;
  if (t.staleReads().empty()) return out;
  for (std::size_t i : t.staleAt(c, bx, by)) out.push_back(staleMark(t, i, CellMark::Kind::Stale));
  const KernelLaunch& L = t.trace().launch;
  for (int row = 0; row < int(L.j); ++row)
    for (int col = 0; col < int(L.l); ++col)
      if (const int64_t i = t.spoiledBy(c, row, col); i >= 0) {
        CellMark m = staleMark(t, std::size_t(i), CellMark::Kind::Spoiled);
        m.grid = "P", m.row = row, m.col = col;
        if (const PartialSum* p = t.runningSum(c, row, col)) m.value = p->sum;
        m.expected.reset();  // the right running sum is the correct kernel's: not in this trace
        out.push_back(m);
      }
  return out;
}

std::string describeMark(const CellMark& m) {
  char v[96] = "";
  if (m.value && m.expected) std::snprintf(v, sizeof v, ": read %.4g, should have read %.4g", double(*m.value), double(*m.expected));
  const std::string reader = threadName(m.readerX, m.readerY), writer = threadName(m.writerX, m.writerY);
  switch (m.kind) {
    case CellMark::Kind::Stale:
      return "STALE (" + std::string(m.overwritten ? "write-after-read" : "read-after-write") + "): " + reader +
             " read " + m.grid + "[" + std::to_string(m.row) + "][" + std::to_string(m.col) + "] at line " +
             std::to_string(m.line) + (m.overwritten ? " after " + writer + " had already overwritten it for the next phase"
                                                     : " before " + writer + " wrote it in this phase") + v;
    case CellMark::Kind::Spoiled:
      return "SPOILED: the running sum of " + reader + " took a stale value (" + (m.overwritten ? "overwritten " : "unwritten ") +
             "slot, line " + std::to_string(m.line) + "): every later partial sum and the stored P are wrong";
    case CellMark::Kind::OutOfBounds: return "outside the matrix";
    case CellMark::Kind::Wrong: return "WRONG: differs from the host reference";
  }
  return {};
}

}  // namespace tilescope
