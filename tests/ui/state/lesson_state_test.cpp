// A lesson page's launch reaches the app as the lesson reader made it (app/ui/state/lesson_state.h):
// LessonState::pendingConfig, never `set` lines written from the config and read back by the
// script reader. Lesson 3's pages are transcribed by hand from assets/lessons/03-tiling-and-phases.lesson.
#include <gtest/gtest.h>

#include <string>

#include "ui/state/lesson_state.h"

namespace tilescope::ui {
namespace {

// The run's settings a page's script could carry (core/run/run_description.h's keys).
bool setsTheRun(const std::string& line) {
  for (const char* key : {"kernel", "size", "dims", "tile", "block", "tiling", "pad", "grid-blocks", "seed"})
    if (line.rfind(std::string("set ") + key + " ", 0) == 0) return true;
  return false;
}

TEST(LessonState, APageHandsOverItsLaunchWholeAndItsScriptSetsNoRunSetting) {
  LessonState s;
  ASSERT_TRUE(loadLessons(s));
  int pages = 0;
  for (std::size_t l = 0; l < s.lessons.size(); ++l) {
    s.current = int(l);
    for (int p = 0; p < int(s.lessons[l].pages.size()); ++p, ++pages) {
      goToLessonPage(s, p);
      SCOPED_TRACE(s.pendingName);
      ASSERT_TRUE(s.pendingConfig.has_value());
      EXPECT_TRUE(*s.pendingConfig == s.lessons[l].pages[std::size_t(p)].config);
      for (const std::string& line : s.pendingScript) EXPECT_FALSE(setsTheRun(line)) << line;
    }
  }
  EXPECT_GE(pages, 80);  // twenty lessons of four to six pages
}

// Lesson 3 ("Tiling and phases"): page 1 sets tiled at 4 with T = 2 (the book's fig. 5.9);
// a later page that sets nothing of the run keeps them.
TEST(LessonState, ALaterPageCarriesTheLaunchOfTheEarlierOnes) {
  LessonState s;
  ASSERT_TRUE(openLesson(s, "tiling-and-phases"));
  const LaunchConfig first = *s.pendingConfig;
  EXPECT_EQ(first.kernel, KernelId::Tiled);
  EXPECT_EQ(first.dims.j, 4);
  EXPECT_EQ(first.tile, 2);
  goToLessonPage(s, 1);
  EXPECT_TRUE(*s.pendingConfig == first);
}

}  // namespace
}  // namespace tilescope::ui
