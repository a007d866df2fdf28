// The Hazards and Bug gallery panels' views (hazards_view.h).
#include "ui/model/hazards_view.h"

#include <algorithm>
#include <cstdio>

#include "core/analysis/races.h"
#include "core/teaching/bugs.h"
#include "core/timeline/cell_marks.h"

namespace tilescope::ui {
namespace {

std::string accessWords(const HazardAccess& a) {
  return threadName(a.threadX, a.threadY) + (a.write ? " writes" : " reads") + ", line " + std::to_string(a.line);
}

HazardRow hazardRow(const Hazard& h) {
  HazardRow row;
  char text[160];
  std::snprintf(text, sizeof text, "%s, block (%d,%d), phase %d, %cds[%d][%d]", std::string(hazardName(h.type)).c_str(),
                h.blockX, h.blockY, h.phase(), h.matrix, h.sharedRow, h.sharedCol);
  row.race = text;
  row.first = accessWords(h.first), row.second = accessWords(h.second);
  row.pairs = h.pairs;
  std::snprintf(text, sizeof text, "%s in block (%d,%d), phase %d: ", std::string(hazardName(h.type)).c_str(), h.blockX,
                h.blockY, h.phase());
  auto said = [](const HazardAccess& a) {
    return threadName(a.threadX, a.threadY) + (a.write ? " writes" : " reads") + " line " + std::to_string(a.line);
  };
  row.sentence = text + said(h.first) + ", " + said(h.second);
  return row;
}

void wrongCells(const BugEvidence& ev, std::vector<EvidenceLine>& out) {
  out.push_back({ev.wrongCells.empty() ? "P matches the reference" : std::to_string(ev.wrongCells.size()) + " wrong P cells",
                 !ev.wrongCells.empty()});
  char buf[160];
  for (std::size_t i = 0; i < std::min<std::size_t>(ev.wrongCells.size(), 6); ++i) {
    const WrongCell& w = ev.wrongCells[i];
    std::snprintf(buf, sizeof buf, "  P(%d,%d): expected %+.4f, got %+.4f", w.row, w.col, w.expected, double(w.actual));
    out.push_back({buf});
  }
}

void staleReads(const BugEvidence& ev, std::vector<EvidenceLine>& out) {
  out.push_back({std::to_string(ev.staleReads.size()) + " stale shared-memory reads", !ev.staleReads.empty()});
  char buf[160];
  for (std::size_t i = 0; i < std::min<std::size_t>(ev.staleReads.size(), 4); ++i) {
    const StaleRead& s = ev.staleReads[i];
    const Event& e = s.read;
    std::snprintf(buf, sizeof buf, " of block (%d,%d), phase %d: %s[%d][%d] = %+.4f%s", e.blockX, e.blockY, int(e.phase),
                  e.op == Op::ReadM ? "Mds" : "Nds", e.sharedRow, e.sharedCol, double(e.value),
                  s.expectedKnown ? "" : " (never loaded)");
    std::string text = "  " + threadName(e.threadX, e.threadY) + buf;
    if (s.expectedKnown) {
      std::snprintf(buf, sizeof buf, " (phase's value %+.4f)", double(s.expected));
      text += buf;
    }
    out.push_back({text});
  }
}

}  // namespace

HazardsView hazardsView(const LoadedRun& run, const AnalysisReport& analysis) {
  HazardsView v;
  v.verification = run.partial ? "P not verified yet: " + partialNote(run) : run.run.verification.summary();
  v.wrong = std::size_t(std::max<int64_t>(0, int64_t(run.run.verification.wrong)));
  // Where the race shows: the views replay the emulator's order (or say why they cannot).
  const Timeline& t = run.timeline;
  if (t.realOrder())
    v.order = "The views follow the order the emulator ran: each thread runs to its barrier before the next starts. "
              "Red frames in Mds and Nds: slots read stale (" + std::to_string(t.staleReads().size()) +
              " reads in all); in P: running sums that took a stale value.";
  else if (!t.orderNote().empty())
    v.order = t.orderNote() + ". The table is what the race detector finds in the trace.";
  for (const Hazard& h : analysis.hazards) v.rows.push_back(hazardRow(h));
  return v;
}

BugGalleryView bugGalleryView(const LoadedRun& run) {
  BugGalleryView v;
  if (!run.gallery) return v;
  v.gallery = true;
  const Bug& bug = *run.gallery->launch.bug;
  v.onScreen = "On screen: " + std::string(bug.title) + " (" + (run.gallery->launch.fixed ? "fixed" : "buggy") + ")";
  const BugEvidence& ev = run.gallery->evidence;
  wrongCells(ev, v.evidence);
  v.evidence.push_back({std::to_string(ev.outOfBounds.size()) + " out-of-bounds accesses", !ev.outOfBounds.empty()});
  for (std::size_t i = 0; i < std::min<std::size_t>(ev.outOfBounds.size(), 4); ++i)
    v.evidence.push_back({"  " + ev.outOfBounds[i].describe()});
  char buf[160];
  std::snprintf(buf, sizeof buf, "barriers: %u per thread over %d phases (2 per phase needed); P stores: %u per thread",
                ev.maxBarriersPerThread, ev.phases, ev.maxStoresPerThread);
  v.evidence.push_back({buf, showsSymptom(Symptom::ExtraBarriers, ev)});
  staleReads(ev, v.evidence);
  return v;
}

}  // namespace tilescope::ui
