// What the Hazards and Bug gallery panels show of a run, as plain data (issue 25): the run's
// verification, the race detector's hazard groups in words, and a gallery launch's measured
// symptoms. Facts of the run and its analysis, not of the cursor: built once per run and
// analysis (state/view_cache.h), never per step. No ImGui here.
#pragma once
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

// One hazard group: the race (type, block, phase, slot), both accesses, the pairs.
struct HazardRow {
  std::string race;           // "RAW, block (0,0), phase 1, Mds[0][1]"
  std::string first, second;  // "thread tx=1, ty=0 writes, line 31"
  unsigned long long pairs = 0;
  std::string sentence;       // the whole group in one line (the Bug gallery's list)
};

struct HazardsView {
  std::string verification;  // Verification::summary()
  std::size_t wrong = 0;     // wrong P elements
  std::string order;         // how the views order the threads (a race can show), or "" when silent
  std::vector<HazardRow> rows;
};

HazardsView hazardsView(const LoadedRun& run, const AnalysisReport& analysis);

// A text line and whether it is a symptom (drawn in the error colour).
struct EvidenceLine {
  std::string text;
  bool bad = false;
};

struct BugGalleryView {
  bool gallery = false;              // the run on screen is a gallery launch
  std::string onScreen;              // "On screen: <title> (buggy)"
  std::vector<EvidenceLine> evidence;  // its measured symptoms, headline lines flagged
};

// The run's symptoms when it is a gallery launch (the run worker measured them once per run).
BugGalleryView bugGalleryView(const LoadedRun& run);

}  // namespace tilescope::ui
