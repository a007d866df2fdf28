// What the Source panel shows at one cursor, as plain data (issue 25): the kernel that ran
// (a built-in kernel's file as embedded, or the Lab tab's kernel as the student wrote it), the
// lines of the current step's events and the newest event's line. Built once per cursor move
// (state/view_cache.h); the panel folds and lays the code out. No ImGui here.
#pragma once
#include <set>
#include <string>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct SourceView {
  std::string path;       // "kernels/book/tiled.cu", "lab: my_kernel.cu"
  bool embedded = false;  // the text is known (a built-in kernel's file is embedded at build time)
  std::string text;       // what is shown: a built-in kernel's body (without its facts), a lab kernel whole
  std::set<int> stepLines;  // the lines of the current step's events in the selected block
  int currentLine = -1;     // the newest event's line (-1: none yet)
};

SourceView sourceView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor);

}  // namespace tilescope::ui
