// The Lesson panel's view (lesson_view.h).
#include "ui/model/lesson_view.h"

namespace tilescope::ui {

LessonView lessonView(const LessonPage& page, const AnalysisReport* analysis, const LoadedRun* run) {
  LessonValues values;
  if (analysis && run) values = lessonValues(*analysis, run->run.config);
  LessonView v;
  for (const std::string& paragraph : page.paragraphs) v.paragraphs.push_back(fillFigures(paragraph, values));
  return v;
}

}  // namespace tilescope::ui
