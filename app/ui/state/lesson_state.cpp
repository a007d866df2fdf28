#include "ui/state/lesson_state.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "ui/state/app_state.h"
#include "ui/state/panel_list.h"

namespace tilescope::ui {
namespace {

// The view every page starts from, before the lesson's own `show` lines: each slot's first
// panel, the app's starting view (Matrices in the centre, Source, Counters), except the left
// column, which keeps the lesson's text. So a tab the user brought forward by hand never
// outlives a page change, and a page without a `show` of its own shows the picture.
std::vector<std::string> defaultTabs() {
  std::vector<std::string> lines;
  std::set<Slot> seen;
  for (const PanelInfo& p : panelList())
    if (seen.insert(p.slot).second) lines.push_back("show " + std::string(p.slot == Slot::Left ? "Lesson" : p.name));
  return lines;
}

std::string speedLine(double stepsPerSecond) {
  char text[64];
  std::snprintf(text, sizeof text, "set speed %g", stepsPerSecond);
  return text;
}

// Every name a `panels` line gives is a panel of the app (the core's parser does not know them).
Status checkPanelNames(const std::vector<Lesson>& lessons) {
  for (const Lesson& lesson : lessons)
    for (const LessonPage& page : lesson.pages)
      for (const std::string& name : page.panels)
        if (!findPanel(name)) {
          std::string known;
          for (const PanelInfo& p : panelList()) known += (known.empty() ? "" : ", ") + std::string(p.name);
          return invalidInput(lesson.file + ":" + std::to_string(page.panelsLine) + ": no panel '" + name +
                              "' (the panels are " + known + ")");
        }
  return Ok{};
}

}  // namespace

const std::vector<std::string>& LessonState::pagePanels() const {
  static const std::vector<std::string> kNone;  // an immutable empty list, not state
  const Lesson* l = lesson();
  return l && page < int(l->pages.size()) ? l->pages[std::size_t(page)].panels : kNone;
}

bool LessonState::pageNames(std::string_view panel) const {
  const auto& names = pagePanels();
  return std::find(names.begin(), names.end(), panel) != names.end();
}

Status loadLessons(LessonState& s) {
  if (s.loaded) return Ok{};
  auto dir = defaultLessonDirectory();
  if (!dir) return dir.error();
  auto lessons = loadLessonDirectory(*dir);
  if (!lessons) return lessons.error();
  if (auto names = checkPanelNames(*lessons); !names) return names;
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

std::vector<std::string> pageReplayScript(const Lesson& lesson, int page) {
  const LessonPage& target = lesson.pages[std::size_t(page)];
  std::vector<std::string> lines = {
      // The panels' device: the page's, else the app's default (a page looks the same however
      // it is reached, and a hand-picked profile gives way as a hand-picked tab does).
      "set profile " + (target.profile.empty() ? std::string("default") : target.profile),
      // The app's defaults, which a lesson's first page starts from.
      "set granularity " + std::string(granularityName(Playback{}.granularity)),
      speedLine(Playback{}.stepsPerSecond),
      "select block 0 0",
      "follow off",
      "seek start",
  };
  for (std::string& line : defaultTabs()) lines.push_back(std::move(line));
  for (int p = 0; p <= page; ++p)
    for (const LessonCommand& cmd : lesson.pages[std::size_t(p)].commands) {
      const auto& w = cmd.words;
      const bool view = w[0] == "select" || w[0] == "seek" || w[0] == "step" || w[0] == "show" || w[0] == "follow" ||
                        w[0] == "timing" ||
                        (w[0] == "set" && (w[1] == "granularity" || w[1] == "speed"));
      const bool animation = (w[0] == "play" || w[0] == "frames") && p == page;  // only this page's
      if (!view && !animation) continue;
      std::string line;
      for (const std::string& word : w) line += (line.empty() ? "" : " ") + word;
      lines.push_back(line);
    }
  for (const std::string& panel : target.panels) lines.push_back("show " + panel);
  return lines;
}

void goToLessonPage(LessonState& s, int page) {
  const Lesson* l = s.lesson();
  if (!l || l->pages.empty()) return;
  s.page = std::clamp(page, 0, int(l->pages.size()) - 1);
  s.pendingConfig = l->pages[std::size_t(s.page)].config;  // every setting, carried over from earlier pages
  s.pendingScript = pageReplayScript(*l, s.page);
  s.pendingName = l->name + " page " + std::to_string(s.page + 1);
  s.error.clear();
}

}  // namespace tilescope::ui
