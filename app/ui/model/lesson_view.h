// What the Lesson panel's page says about the run on screen, as plain data (issue 25): its
// paragraphs with the run's figures filled in ({banks.conflicts}, ...) from the page's own
// analysis. Facts of the page and the analysis, not of the cursor: built once per page and
// analysis (state/view_cache.h), never per step. No ImGui here.
#pragma once
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/teaching/lesson.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct LessonView {
  std::vector<std::string> paragraphs;  // as shown: the run's figures in place of their placeholders
};

// `analysis` and `run` may be null (not yet analysed): the placeholders then read as fillFigures
// leaves them without values.
LessonView lessonView(const LessonPage& page, const AnalysisReport* analysis, const LoadedRun* run);

}  // namespace tilescope::ui
