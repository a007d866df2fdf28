// Lessons: every file in assets/lessons parses, covers its topic's launches with valid and
// runnable configs, and a malformed lesson is reported with its file and line.
#include <gtest/gtest.h>

#include <set>

#include "core/analysis/analysis.h"
#include "core/run/launch_waves.h"
#include "core/teaching/bugs.h"
#include "core/teaching/lesson.h"
#include "test_support.h"

namespace tilescope {
namespace {

// The README's table of lessons: one per topic of the chapter, the ladder's overview, one per
// rung of it (2 to 8), the grid as a whole (rung 9) and the tensor cores (rung 10).
constexpr std::size_t kShippedLessons = 20;

const std::vector<Lesson>& shippedLessons() {
  static const std::vector<Lesson> lessons = [] {
    auto dir = defaultLessonDirectory();
    EXPECT_TRUE(dir.ok()) << dir.error().message;
    if (!dir) return std::vector<Lesson>{};
    auto loaded = loadLessonDirectory(*dir);
    EXPECT_TRUE(loaded.ok()) << loaded.error().message;
    return loaded.ok() ? std::move(*loaded) : std::vector<Lesson>{};
  }();
  return lessons;
}

TEST(ShippedLessons, CoverEveryTopicOfTheChapter) {
  ASSERT_EQ(shippedLessons().size(), kShippedLessons);
  std::set<std::string> names;
  for (const Lesson& l : shippedLessons()) {
    EXPECT_TRUE(names.insert(l.name).second) << "duplicate lesson name " << l.name;
    EXPECT_FALSE(l.title.empty());
    EXPECT_GE(l.pages.size(), 3u) << l.name;
  }
  for (const char* topic : {"memory-types", "naive-traffic", "tiling-and-phases", "two-barriers", "strip-mining",
                            "boundary-checks", "general-jkl", "dynamic-shared", "occupancy", "warps-and-coalescing"})
    EXPECT_TRUE(names.count(topic)) << "no lesson on " << topic;
  // Every rung of the ladder past fig. 5.9 has a lesson that runs it at one of its tilings.
  std::set<KernelId> taught;
  for (const Lesson& l : shippedLessons())
    for (const LessonPage& page : l.pages)
      if (kernelInfo(page.config.kernel).ladderRung > 1) {
        taught.insert(page.config.kernel);
        // Rung 9's plan pages leave the tiling to its selector, as bench and run do.
        const bool selected = page.planOnly && page.config.kernel == KernelId::StreamK;
        EXPECT_TRUE(!page.config.tiling.empty() || selected) << l.name << ": '" << page.title << "' sets no tiling";
      }
  for (const KernelInfo& k : kKernels)
    if (k.ladderRung > 1) {
      EXPECT_TRUE(taught.count(k.id)) << "no lesson runs " << k.name;
    }
}

// Every page opens on a launch that plans, traces and runs on the emulator, or (a plan page,
// lesson 19's rung 8 at 1024) one too large to trace, which the app shows as planned.
TEST(ShippedLessons, EveryPageRunsOnTheEmulator) {
  ASSERT_EQ(shippedLessons().size(), kShippedLessons);
  auto backend = makeEmulatorBackend();
  std::size_t pages = 0;
  for (const Lesson& l : shippedLessons())
    for (const LessonPage& page : l.pages) {
      ++pages;
      SCOPED_TRACE(l.file + ":" + std::to_string(page.line) + " '" + page.title + "'");
      EXPECT_FALSE(page.paragraphs.empty());
      if (page.planOnly) {
        EXPECT_FALSE(sizeRefusal(page.config, kMaxTraceEvents, true).empty());
        EXPECT_TRUE(planLaunchWaves(page.config, *profileByName("h100")).ok());
        continue;
      }
      ASSERT_TRUE(planLaunch(page.config, true).ok());
      auto run = executeRun(*backend, page.config, true);
      ASSERT_TRUE(run.ok()) << run.error().message;
      EXPECT_TRUE(run->trace.has_value());
      EXPECT_TRUE(run->outcome.divergences.empty());
    }
  EXPECT_GE(pages, 3 * kShippedLessons);  // a lesson is a few pages: three at least
}

// A page's script, parsed again as a lesson page, reproduces the page's launch: what the app
// runs is what the parser checked.
TEST(ShippedLessons, PageScriptsReproduceThePagesLaunch) {
  ASSERT_EQ(shippedLessons().size(), kShippedLessons);
  for (const Lesson& l : shippedLessons()) {
    std::string text = "title replay\n";
    for (const LessonPage& page : l.pages) {
      text += "page " + page.title + "\n";
      for (const std::string& line : pageScript(page)) text += line + "\n";
      text += "text replayed\n";
    }
    auto replay = parseLesson(l.file + " (replayed)", text);
    ASSERT_TRUE(replay.ok()) << replay.error().message;
    ASSERT_EQ(replay->pages.size(), l.pages.size());
    for (std::size_t i = 0; i < l.pages.size(); ++i) EXPECT_EQ(replay->pages[i].config, l.pages[i].config) << l.name;
  }
}

TEST(ShippedLessons, FoundByNameNumberOrFile) {
  const auto& lessons = shippedLessons();
  ASSERT_GE(lessons.size(), 3u);
  EXPECT_EQ(findLesson(lessons, "tiling-and-phases"), findLesson(lessons, "3"));
  EXPECT_EQ(findLesson(lessons, "03-tiling-and-phases.lesson")->name, "tiling-and-phases");
  EXPECT_EQ(findLesson(lessons, "no-such-lesson"), nullptr);
}

TEST(LessonParser, ParagraphsSettingsAndBugsCarryOver) {
  auto l = parseLesson("mini.lesson",
                       "# a comment\n"
                       "title Mini\n"
                       "page One\n"
                       "set kernel tiled-bounds\n"
                       "set dims 5 7 3\n"
                       "set tile 2\n"
                       "seek phase 3\n"
                       "text first line\n"
                       "text continues\n"
                       "text\n"
                       "text second paragraph\n"
                       "page Two\n"
                       "set seed 9\n"
                       "text only the seed changes\n"
                       "page Three\n"
                       "bug rect-index fixed\n"
                       "set profile a100\n"
                       "text a bug's launch\n"
                       "page Four\n"
                       "text the profile carries over\n");
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_EQ(l->name, "mini");
  ASSERT_EQ(l->pages.size(), 4u);
  EXPECT_EQ(l->pages[0].paragraphs, (std::vector<std::string>{"first line continues", "second paragraph"}));
  EXPECT_EQ(l->pages[1].config.dims, (Dims{5, 7, 3}));
  EXPECT_EQ(l->pages[1].config.seed, 9u);
  EXPECT_EQ(l->pages[2].config.kernel, KernelId::TiledRect);
  EXPECT_EQ(l->pages[2].config.blockX, findBug("rect-index")->blockX);
  // The analysis profile: the app's default until a page names one, then carried like a setting.
  EXPECT_EQ(l->pages[1].profile, "");
  EXPECT_EQ(l->pages[2].profile, "a100");
  EXPECT_EQ(l->pages[3].profile, "a100");
}

struct BadLesson {
  const char* text;
  int line;
  const char* fragment;
};

class LessonErrors : public ::testing::TestWithParam<BadLesson> {};

TEST_P(LessonErrors, NameTheFileAndLine) {
  const BadLesson& b = GetParam();
  auto l = parseLesson("bad.lesson", b.text);
  ASSERT_FALSE(l.ok()) << b.text;
  const std::string prefix = "bad.lesson:" + std::to_string(b.line) + ": ";
  EXPECT_EQ(l.error().message.rfind(prefix, 0), 0u) << l.error().message;
  EXPECT_NE(l.error().message.find(b.fragment), std::string::npos) << l.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LessonErrors,
    ::testing::Values(BadLesson{"title T\npage P\nfrobnicate 3\ntext x\n", 3, "unknown command 'frobnicate'"},
                      BadLesson{"title T\ntext early\n", 2, "before the first page"},
                      BadLesson{"title T\npage P\nset tile 99\ntext x\n", 3, "set tile takes"},
                      BadLesson{"title T\npage P\nset kernel warp-speed\ntext x\n", 3, "unknown kernel"},
                      BadLesson{"title T\npage P\nset backend cuda\ntext x\n", 3, "not available in a lesson"},
                      // A page must look the same on every machine: no "device" profile.
                      BadLesson{"title T\npage P\nset profile device\ntext x\n", 3, "a built-in profile (textbook, a100, h100)"},
                      BadLesson{"title T\npage P\nset size 4\nset tile 2\nseek phase 2\ntext x\n", 5,
                                "phase 2 does not exist"},
                      BadLesson{"title T\npage P\nset size 4\nset tile 2\nselect block 2 0\ntext x\n", 5,
                                "outside the 2x2 grid"},
                      BadLesson{"title T\npage P\nbug no-such-bug\ntext x\n", 3, "unknown bug"},
                      BadLesson{"title T\npage Empty\npage Next\ntext x\n", 2, "has no text"},
                      BadLesson{"title T\npage P\nset kernel tma-pipeline\nset dims 64 62 64\ntext x\n", 2, "cannot run"},
                      // Too large to trace: a plan page, on which nothing seeks into a trace.
                      BadLesson{"title T\npage P\nset size 16384\nseek end\ntext x\n", 4, "too large to trace"},
                      BadLesson{"page P\ntext x\n", 1, "no title"},
                      BadLesson{"title T\ntitle again\n", 2, "one title"},
                      BadLesson{"title T\n", 1, "no pages"},
                      BadLesson{"title T\npage P\ntext {banks.conflcts} conflicts\n", 3, "no figure {banks.conflcts}"},
                      BadLesson{"title T\npage P\nset pad 1\ntext x\n", 3, "only a kernel with a padded tile"},
                      BadLesson{"title T\npage P\nconstants 1555\ntext x\n", 3, "usage: constants"},
                      BadLesson{"title T\npage P\nconstants 1555, many -- A100\ntext x\n", 3, "'many' is not a number"}));

// Issue 28: a launch too large to trace (rung 8 at 1024: 32 blocks of 384 threads, over 64 Mi
// events) is a plan page, shown as planned; a small one is an ordinary page.
TEST(Lesson, TooLargeToTraceIsAPlanPage) {
  auto l = parseLesson("p.lesson", "title T\npage Small\nset kernel tma-pipeline\nset size 64\ntext x\n"
                                   "page Large\nset size 1024\nset tiling default\nshow Occupancy\ntext y\n");
  ASSERT_TRUE(l.ok()) << l.error().message;
  EXPECT_FALSE(l->pages[0].planOnly);
  EXPECT_TRUE(l->pages[1].planOnly);
}

// Issue 29: a page names the run's figures instead of typing them; the app fills them from the
// page's own analysis. Braces that are not a figure's (the book's thread_{0,1}) stay text.
TEST(LessonFigures, FilledFromTheRunAndDeclaredConstantsKept) {
  auto l = parseLesson("f.lesson",
                       "title T\npage P\nset kernel tiled-transposed\nset size 4\nset tile 2\nset pad 1\n"
                       "text {banks.conflicts} conflicts, thread_{0,1}, {tile}\nconstants 1555, 19500 -- an A100\n");
  ASSERT_TRUE(l.ok()) << l.error().message;
  const LessonPage& page = l->pages[0];
  EXPECT_EQ(page.config.pad, 1);
  EXPECT_EQ(page.constants, (std::vector<std::string>{"1555", "19500"}));
  EXPECT_EQ(figureNames(page.paragraphs[0]), (std::vector<std::string>{"banks.conflicts", "tile"}));
  const LessonValues values{{"banks.conflicts", "12"}, {"tile", "2"}};
  EXPECT_EQ(fillFigures(page.paragraphs[0], values), "12 conflicts, thread_{0,1}, 2");
  EXPECT_EQ(fillFigures("{banks.conflicts} of {j}", values), "12 of ?{j}?");  // a run on its way
  // Every documented figure has a value for a real run (hand count: naive 2x2x2, one 2x2 block:
  // 8 multiply-adds, 16 FLOPs, 16 loads of 4 bytes).
  const LaunchConfig c = testing::naiveConfig({2, 2, 2}, 2, 2, 1);
  const tilescope::Run run = testing::runEmulated(c, true);
  ASSERT_TRUE(run.trace);
  const LessonValues v = lessonValues(analyzeTrace(*run.trace, *profileByName("a100")), c);
  for (const LessonFigure& f : lessonFigures()) EXPECT_TRUE(v.count(f.name)) << f.name;
  EXPECT_EQ(v.at("mads"), "8");
  EXPECT_EQ(v.at("flops"), "16");
  EXPECT_EQ(v.at("loadBytes"), "64");
  EXPECT_EQ(v.at("intensity"), "0.25");
  EXPECT_EQ(v.at("dramBytes"), "32");  // M and N once: 2 x 4 floats of 4 bytes
}

TEST(LessonParser, MissingFilesAndDirectoriesAreErrors) {
  auto l = loadLesson(::testing::TempDir() + "nope.lesson");
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().message.find("nope.lesson"), std::string::npos);
  EXPECT_FALSE(loadLessonDirectory(::testing::TempDir() + "no_such_dir").ok());
}

}  // namespace
}  // namespace tilescope
