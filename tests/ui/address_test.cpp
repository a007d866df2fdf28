// Every address answered (app_options.h: parseUrlOptions): a page's address that names what
// cannot be had opens the nearest scene it can, and its notice names the key and what the key
// accepts, from the lesson files and the kernel list; a good address has no notice. And the start
// page: one start for both layouts, its numbers from the kernel list.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "core/asset_paths.h"
#include "kernels/catalog.h"
#include "ui/app_options.h"
#include "ui/model/start_page.h"
#include "ui/state/lesson_state.h"

namespace tilescope::ui {
namespace {

AppOptions address(std::string_view query) {
  auto o = parseUrlOptions(query);
  EXPECT_TRUE(o.ok()) << "an address is never an error: " << query;
  return *o;
}

int pagesOf(const std::string& lesson) {
  LessonState s;
  EXPECT_TRUE(openLesson(s, lesson).ok());
  return int(s.lesson()->pages.size());
}

TEST(Address, AGoodAddressHasNoNoticeAndItsLaunchIsTheConfigItself) {
  const AppOptions o = address("kernel=tiled-no-first-sync&size=4&tile=2&presenter=1");
  EXPECT_EQ(o.addressNotice, "");
  ASSERT_TRUE(o.sceneConfig.has_value());
  EXPECT_EQ(describe(*o.sceneConfig), "tiled-no-first-sync 4x4x4 T=2");
  EXPECT_TRUE(o.presenter);
  const AppOptions l = address("lesson=two-barriers&page=3");
  EXPECT_EQ(l.addressNotice, "");
  EXPECT_EQ(l.lesson, "two-barriers");
  EXPECT_EQ(l.lessonPage, 2);
}

TEST(Address, AnUnknownLessonListsEveryLessonAndOpensTheStart) {
  const AppOptions o = address("lesson=two-barirers&page=2");
  EXPECT_EQ(o.lesson, "");
  LessonState s;
  ASSERT_TRUE(openLesson(s, "1").ok());
  for (const Lesson& l : s.lessons) EXPECT_NE(o.addressNotice.find(l.name), std::string::npos) << l.name;
  EXPECT_NE(o.addressNotice.find("lesson=two-barirers: no lesson 'two-barirers'"), std::string::npos) << o.addressNotice;
}

TEST(Address, APageOutsideItsLessonNamesTheRangeAndOpensTheNearestPage) {
  const int pages = pagesOf("two-barriers");
  const std::string range = "lesson two-barriers has pages 1 to " + std::to_string(pages);
  const AppOptions high = address("lesson=two-barriers&page=99");
  EXPECT_EQ(high.lessonPage, pages - 1);
  EXPECT_NE(high.addressNotice.find("page=99 is not a page: " + range + "; showing page " + std::to_string(pages)),
            std::string::npos)
      << high.addressNotice;
  for (const char* q : {"lesson=two-barriers&page=-1", "lesson=two-barriers&page=0", "lesson=two-barriers&page=two"}) {
    const AppOptions low = address(q);
    EXPECT_EQ(low.lessonPage, 0) << q;
    EXPECT_NE(low.addressNotice.find(range + "; showing page 1"), std::string::npos) << low.addressNotice;
  }
  EXPECT_NE(address("page=3").addressNotice.find("page=3 needs lesson="), std::string::npos);
}

TEST(Address, AMisspeltKeyIsNamedWithTheNearestAndEveryKey) {
  const AppOptions o = address("lesosn=two-barriers");
  EXPECT_NE(o.addressNotice.find("'lesosn' is not a key of the page's address (did you mean lesson?)"), std::string::npos)
      << o.addressNotice;
  EXPECT_NE(o.addressNotice.find("lesson, page, presenter, preset, play, script, lab, kernel, size"), std::string::npos);
  EXPECT_EQ(address("zzzzzzzz=1").addressNotice.find("did you mean"), std::string::npos) << "nothing near: no guess";
}

TEST(Address, AValueASettingDoesNotTakeIsNamedAndTheRestKept) {
  const AppOptions k = address("kernel=%3Cscript%3Ealert(1)%3C%2Fscript%3E&size=8");
  EXPECT_NE(k.addressNotice.find("kernel= takes a kernel's name, got '<script>alert(1)</script>' (unknown kernel)"),
            std::string::npos)
      << k.addressNotice;
  for (const KernelInfo& info : kKernels) EXPECT_NE(k.addressNotice.find(info.name), std::string::npos) << info.name;
  ASSERT_TRUE(k.sceneConfig.has_value());
  EXPECT_EQ(describe(*k.sceneConfig), "tiled 8x8x8 T=2") << "the start's kernel at the size asked";
  const AppOptions t = address("tile=0&presenter=maybe&script=frobnicate");
  EXPECT_NE(t.addressNotice.find("tile= takes a whole number from 1 to 32"), std::string::npos) << t.addressNotice;
  EXPECT_NE(t.addressNotice.find("presenter= takes 1 or 0, not 'maybe'"), std::string::npos);
  EXPECT_NE(t.addressNotice.find("unknown command 'frobnicate' (the script is not run)"), std::string::npos);
  EXPECT_EQ(t.scriptText, "");
  EXPECT_FALSE(t.presenter);
}

// lab=ID opens an exercise by the id its file is named with; a stale id is named with the
// nearest and every exercise file's id, and nothing is opened in its place; a path is no id.
TEST(Address, LabOpensAnExerciseByItsIdAndAStaleOneNamesTheExercises) {
  const AppOptions good = address("lab=bounds_jkl");
  EXPECT_EQ(good.labExercise, "bounds_jkl");
  EXPECT_EQ(good.addressNotice, "");
  const AppOptions stale = address("lab=bounds_jk");
  EXPECT_EQ(stale.labExercise, "");
  EXPECT_NE(stale.addressNotice.find("lab= takes an exercise's name, got 'bounds_jk' (no such exercise; did you mean "
                                     "bounds_jkl?)"),
            std::string::npos)
      << stale.addressNotice;
  auto dir = assetPath("exercises");
  ASSERT_TRUE(dir.ok()) << dir.error().message;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(*dir))
    if (entry.path().extension() == ".exercise") {
      ++files;
      EXPECT_NE(stale.addressNotice.find(entry.path().stem().string()), std::string::npos) << entry.path();
    }
  EXPECT_GT(files, 0);
  const AppOptions path = address("lab=%2Fassets%2Fexercises%2Fbounds_jkl.exercise");
  EXPECT_EQ(path.labExercise, "") << "a path is not an exercise's id";
  EXPECT_NE(path.addressNotice.find("no such exercise"), std::string::npos);
}

TEST(StartPage, OneStartForBothLayoutsItsRungsCountedFromTheKernelList) {
  std::set<int> rungs;
  for (const KernelInfo& k : kKernels)
    if (k.ladderRung > 0) rungs.insert(k.ladderRung);
  const StartPage start = startPage();
  EXPECT_NE(start.intro.find("in " + std::to_string(rungs.size()) + " rungs"), std::string::npos) << start.intro;
  LessonState s;
  ASSERT_TRUE(openLesson(s, start.lesson).ok());
  EXPECT_EQ(s.current, 0) << "the start is the first lesson";
  EXPECT_EQ(start.button, "Start here: lesson 1");
}

}  // namespace
}  // namespace tilescope::ui
