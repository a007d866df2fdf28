// The guided lesson the app is showing, if any: which lesson, which page, and the page's
// script-mode lines still to run. Lessons are data (assets/lessons, app/core/teaching/lesson.h); a
// page's commands go through a ScriptRunner of their own, so they take the same intents as
// the UI and scripts, and the user can still change anything by hand on every page.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/teaching/lesson.h"
#include "kernels/result.h"

namespace tilescope::ui {

struct LessonState {
  std::vector<Lesson> lessons;  // loaded on first use
  bool loaded = false;
  int current = -1;  // index into lessons; -1: no lesson open
  int page = 0;
  // The page whose commands the frame loop has yet to start (lines of pageScript()).
  std::vector<std::string> pendingScript;
  std::string pendingName;  // "LESSON page N", the script's file name in error messages
  // The page's launch, as its lesson file's reader made it (core/run/run_description.h), for
  // applyIntents to run before the page's lines start: taken whole, not written out as `set`
  // lines and read again.
  std::optional<LaunchConfig> pendingConfig;
  bool presenter = false;   // projector layout: controls hidden, lesson text large
  std::string error;        // why a lesson or page could not be opened or applied

  const Lesson* lesson() const { return current >= 0 ? &lessons[std::size_t(current)] : nullptr; }
  // The panels the page on screen names (its `panels` line; empty: the default layout).
  const std::vector<std::string>& pagePanels() const;
  bool pageNames(std::string_view panel) const;
};

// Loads the lesson directory once (errors name the file and line, a `panels` line's unknown
// panel included).
Status loadLessons(LessonState& s);
// Opens a lesson by name, number or file name at its first page; the error lists the names.
Status openLesson(LessonState& s, const std::string& key);
// The script-mode lines that put the app in the state of `page` whichever way it is reached
// (Next, Back, a jump) and whatever the user changed by hand before (its launch, the page's
// config, comes beside them: LessonState::pendingConfig): the page's analysis profile,
// then the app's default view (granularity, speed, block (0,0), the cursor at the start, each
// slot's default tab with the lesson in the left column), then the view commands (select,
// seek, step, show, granularity, speed) of every page up to it in order, and last a `show` of
// each panel the page's `panels` line names. Replaying only the
// page's own lines would make a relative `step` land somewhere else after Back, and would
// leave a tab chosen by hand in front of the view the page's text speaks of.
std::vector<std::string> pageReplayScript(const Lesson& lesson, int page);
// Moves to `page` (clamped to the lesson) and queues its launch and its commands.
void goToLessonPage(LessonState& s, int page);

}  // namespace tilescope::ui
