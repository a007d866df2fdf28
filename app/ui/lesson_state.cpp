#include "lesson_state.h"

#include <algorithm>

namespace tilescope::ui {

Status loadLessons(LessonState& s) {
  if (s.loaded) return Ok{};
  auto lessons = loadLessonDirectory(defaultLessonDirectory());
  if (!lessons) return lessons.error();
  s.lessons = std::move(*lessons);
  s.loaded = true;
  return Ok{};
}

Status openLesson(LessonState& s, const std::string& key) {
  if (auto loaded = loadLessons(s); !loaded) return loaded;
  const Lesson* found = findLesson(s.lessons, key);
  if (!found) {
    std::string names;
    for (const Lesson& l : s.lessons) names += (names.empty() ? "" : ", ") + l.name;
    return invalidInput("no lesson '" + key + "': the lessons are " + names);
  }
  s.current = int(found - s.lessons.data());
  goToLessonPage(s, 0);
  return Ok{};
}

void goToLessonPage(LessonState& s, int page) {
  const Lesson* l = s.lesson();
  if (!l || l->pages.empty()) return;
  s.page = std::clamp(page, 0, int(l->pages.size()) - 1);
  s.pendingScript = pageScript(l->pages[std::size_t(s.page)]);
  s.pendingName = l->name + " page " + std::to_string(s.page + 1);
  s.error.clear();
}

}  // namespace tilescope::ui
