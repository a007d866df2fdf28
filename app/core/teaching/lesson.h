// Lessons: guided tours stored as data in assets/lessons/, one file per lesson. The app's
// lesson panel, `tilescope --lesson NAME` and the tests load them through this one parser.
//
// A lesson file is a list of lines "COMMAND ARGUMENTS"; '#' starts a comment line and blank
// lines are ignored.
//   title TEXT               the lesson's title, once, before the first page
//   page TITLE               starts a page: one step of the tour (next/back move by pages)
//   text WORDS...            a line of the page's explanation; `text` alone ends a paragraph
//   bug ID [fixed]           the launch of a bug-gallery entry (its buggy or fixed kernel)
//   panels NAME[, NAME...]   the panels the page's text speaks of (panel names as the app's tabs
//                            spell them, comma-separated): the app brings each forward and the
//                            presenter layout shows every one of them, even those it otherwise
//                            leaves out (Counters, Occupancy). A page without it keeps the default.
// and the script-mode commands that set up the view (app/ui/script/script.h, same spelling):
//   set kernel NAME | size N | dims J K L | tile T | block BX BY | seed S
//   set granularity phase|interval|k | speed STEPS_PER_SECOND
//   select block BX BY       seek phase P | seek start | seek end       step N
//   show PANEL               play FRAMES                                frames N
// Settings carry over from page to page, so a page only states what changes. The launch a
// page ends with must be valid (planLaunch), and `select block` and `seek phase` must lie
// inside it: a lesson can never open on an invalid launch. One too large to trace (rung 8 at
// 1024) makes a plan page: the app draws its grid as planned (the Occupancy panel) and says no
// trace exists; such a page may only `show` panels and the `timing` page.
//
//   constants N[, N...] -- WHY   numbers the page's text states that are not figures of the run
//                            on screen (a book's figure, another device, a recorded timing),
//                            with where they come from; the lesson-truth test (tests/ui/
//                            lesson_truth_test.py) holds every other number of the text to the
//                            page's layout file.
// A figure of the run on screen is never typed into the text: `{name}` stands for it and the
// app fills it from the page's own analysis (lessonFigures() lists the names; an unknown name
// is an error at its line), so a page cannot drift from its picture. Braces around anything but
// letters and dots (the book's thread_{0,1}) are plain text.
//
// Every problem is reported as "FILE:LINE: message".
#pragma once
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/run/launch_config.h"
#include "kernels/result.h"

namespace tilescope {

struct LessonCommand {
  int line = 0;
  std::vector<std::string> words;  // "seek", "phase", "1"
};

struct LessonPage {
  int line = 0;                          // of its `page` line
  std::string title;
  std::vector<LessonCommand> commands;   // in file order, `text` excluded
  std::vector<std::string> paragraphs;   // the explanation
  std::vector<std::string> panels;       // its `panels` line: what the text needs on screen
  int panelsLine = 0;                    // where that line is, for errors about its names
  std::vector<std::string> constants;    // its `constants` line's numbers, as written
  LaunchConfig config;                   // the launch once the page's commands are applied
  std::string profile;                   // the analysis profile its panels use ("" = the app's default)
  bool planOnly = false;                 // its launch is too large to trace: the app shows it as a plan
};

struct Lesson {
  std::string name;   // from the file name: "03-tiling-and-phases.lesson" -> "tiling-and-phases"
  std::string file;
  std::string title;
  std::vector<LessonPage> pages;
};

Result<Lesson> parseLesson(const std::string& file, const std::string& text);
Result<Lesson> loadLesson(const std::string& path);

// Every *.lesson file of `dir`, in file-name order (the files are numbered).
Result<std::vector<Lesson>> loadLessonDirectory(const std::string& dir);

// $TILESCOPE_LESSONS when set, else the lessons of the assets directory (asset_paths.h).
Result<std::string> defaultLessonDirectory();

// A lesson by name ("tiling-and-phases"), by number ("3") or by file name.
const Lesson* findLesson(const std::vector<Lesson>& lessons, const std::string& key);

// A figure a page's text may name as {name}: what it means, for the guide and errors.
struct LessonFigure {
  const char* name;
  const char* meaning;
};
std::span<const LessonFigure> lessonFigures();

struct AnalysisReport;
// Every figure of lessonFigures() for one run, as the text shows it ("32768", "0.25").
using LessonValues = std::map<std::string, std::string>;
LessonValues lessonValues(const AnalysisReport& analysis, const LaunchConfig& config);
// `text` with each {name} replaced by its value ("{name}" stays, bracketed by '?', when the
// value is missing: a run still on its way).
std::string fillFigures(const std::string& text, const LessonValues& values);
// The figures `text` names, in order ("banks.conflicts", ...).
std::vector<std::string> figureNames(const std::string& text);

// The page as script-mode lines (bug ID expanded into set lines), for the app to run.
std::vector<std::string> pageScript(const LessonPage& page);

}  // namespace tilescope
