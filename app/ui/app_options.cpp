#include "ui/app_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "core/run/run_description.h"
#include "kernels/catalog.h"
#include "lab/exercise.h"
#include "ui/model/presets.h"
#include "ui/script/script.h"
#include "ui/state/app_state.h"
#include "ui/state/lesson_state.h"
#include "core/edit_distance.h"

namespace tilescope::ui {

std::string appUsage() {
  return "usage: tilescope [options]\n"
         "  --script FILE       run script commands (see the README, Script mode), then keep running unless it quits\n"
         "  --screenshot FILE   render the starting scene (a lesson page's own) to a PNG and exit\n"
         "  --preset NAME       starting scene (default book-4x4)\n"
         "  --open FILE         start on a trace saved by tilescope-cli save (replays it, no GPU needed)\n"
         "  --lesson NAME       open a guided lesson (assets/lessons: name, number or file name)\n"
         "  --page N            with --lesson: open its page N (counted from 1, as on screen)\n"
         "  --presenter         projector layout: controls hidden, lesson text large\n"
         "  --play              start playing\n"
         "  --frames N          exit after N frames\n"
         "  --report            print frame-time percentiles at exit\n"
         "  --size WxH          window size (default 1280x800)\n"
         "  --shader-dir DIR    load shaders from DIR instead of the embedded copies\n";
}

Result<AppOptions> parseAppOptions(int argc, char** argv) {
  AppOptions o;
  std::string page;  // --page N, checked against the lesson once every option is read
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> Result<std::string> {
      if (i + 1 >= argc) return invalidInput(arg + " needs a value");
      return std::string(argv[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (arg == "--report") {
      o.report = true;
    } else if (arg == "--play") {
      o.play = true;
    } else if (arg == "--presenter") {
      o.presenter = true;
    } else if (arg == "--script" || arg == "--screenshot" || arg == "--preset" || arg == "--shader-dir" ||
               arg == "--frames" || arg == "--size" || arg == "--open" || arg == "--lesson" || arg == "--page") {
      auto v = value();
      if (!v) return v.error();
      if (arg == "--script") o.script = *v;
      else if (arg == "--page") page = *v;
      else if (arg == "--screenshot") o.screenshot = *v;
      else if (arg == "--shader-dir") o.shaderDir = *v;
      else if (arg == "--open") {
        // A typo should not open a window with nothing in it; what is inside is checked
        // off the UI thread and reported in the Controls panel.
        if (!std::filesystem::is_regular_file(*v))
          return invalidInput("--open: no trace file '" + *v + "' (save one with tilescope-cli save --file " + *v + ")");
        o.open = *v;
      }
      else if (arg == "--lesson") {
        // Checked here, before a window opens: a typo gets the list of lessons.
        LessonState lessons;
        if (auto s = openLesson(lessons, *v); !s) return invalidInput("--lesson: " + s.error().message);
        o.lesson = *v;
      }
      else if (arg == "--preset") {
        if (!findPreset(*v)) return invalidInput("unknown preset '" + *v + "'");
        o.preset = *v;
      } else if (arg == "--frames") {
        const auto r = std::from_chars(v->data(), v->data() + v->size(), o.frames);
        if (r.ec != std::errc() || o.frames < 1) return invalidInput("--frames takes a positive integer");
      } else if (std::sscanf(v->c_str(), "%dx%d", &o.width, &o.height) != 2 || o.width < 320 || o.height < 240) {
        return invalidInput("--size takes WxH, at least 320x240");
      }
    } else {
      return invalidInput("unknown option '" + arg + "'");
    }
  }
  if (!page.empty()) {
    if (o.lesson.empty()) return invalidInput("--page needs --lesson (the lesson whose page to open)");
    auto p = lessonPageIndex(o.lesson, page);
    if (!p) return invalidInput("--page " + p.error().message);
    o.lessonPage = *p;
  }
  return o;
}

Result<int> lessonPageIndex(const std::string& lesson, const std::string& page) {
  LessonState lessons;
  if (auto s = openLesson(lessons, lesson); !s) return s.error();
  const int pages = int(lessons.lesson()->pages.size());
  const std::string range = "lesson " + lessons.lesson()->name + " has pages 1 to " + std::to_string(pages);
  int n = 0;
  const auto r = std::from_chars(page.data(), page.data() + page.size(), n);
  if (r.ec != std::errc() || r.ptr != page.data() + page.size()) return invalidInput(page + " is not a page number: " + range);
  if (n < 1 || n > pages) return invalidInput(page + " is not a page: " + range);
  return n - 1;
}

}  // namespace tilescope::ui

// ---------------------------------------------------------------------------------------
// A page's address
// ---------------------------------------------------------------------------------------

namespace tilescope::ui {
namespace {

// %XX and '+' (a space) decoded; a malformed escape stays as written.
std::string urlDecode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    int byte = 0;
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() &&
               std::from_chars(s.data() + i + 1, s.data() + i + 3, byte, 16).ptr == s.data() + i + 3) {
      out += char(byte);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string urlEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') out += char(c);
    else out += '%', out += kHex[c >> 4], out += kHex[c & 15];
  }
  return out;
}

Result<bool> flag(const std::string& name, const std::string& value) {
  if (value == "1" || value == "true" || value == "on" || value.empty()) return true;
  if (value == "0" || value == "false" || value == "off") return false;
  return invalidInput(name + "= takes 1 or 0, not '" + value + "'");
}


// The address's own keys, then the run's settings (the one reader's, run_description.h).
constexpr std::string_view kPageKeys[] = {"lesson", "page", "presenter", "preset", "play", "script", "lab"};

std::string addressKeys() {
  std::string keys;
  for (std::string_view k : kPageKeys) keys += std::string(keys.empty() ? "" : ", ") + std::string(k);
  return keys + ", " + runSettingNames();
}

std::string unknownKey(const std::string& name) {
  std::string nearest;
  std::size_t best = 3;  // at most two edits away
  auto consider = [&](std::string_view key) {
    if (const std::size_t d = editDistance(name, key); d < best) best = d, nearest = key;
  };
  for (std::string_view k : kPageKeys) consider(k);
  for (std::string_view k : kRunSettings) consider(k);
  return "'" + name + "' is not a key of the page's address" + (nearest.empty() ? "" : " (did you mean " + nearest + "?)") +
         "; the keys are " + addressKeys();
}

// What an address asked for, read key by key; a key it cannot use is a problem in words.
struct AddressReading {
  AppOptions options;
  std::string page;                                          // page=, checked once the lesson is known
  std::vector<std::pair<std::string, std::string>> settings;  // the run's settings, in the order given
  std::vector<std::string> problems;
};

std::string presetNames() {
  std::string names;
  for (const Preset& p : presets()) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

// lab=ID: an exercise by its id (never a path), opened in the Lab tab; a stale or mistyped id is
// named with the nearest one and the exercises there are.
void readLabExercise(AddressReading& r, const std::string& value) {
  auto all = lab::loadExercises();
  if (!all) {
    r.problems.push_back("lab=" + value + ": " + all.error().message);
    return;
  }
  std::string ids, nearest;
  std::size_t best = 3;  // at most two edits away
  for (const lab::Exercise& x : *all) {
    if (x.id == value) {
      r.options.labExercise = value;
      return;
    }
    ids += (ids.empty() ? "" : ", ") + x.id;
    if (const std::size_t d = editDistance(value, x.id); d < best) best = d, nearest = x.id;
  }
  r.problems.push_back("lab= takes an exercise's name, got '" + value + "' (no such exercise" +
                       (nearest.empty() ? "" : "; did you mean " + nearest + "?") + "); the exercises are " + ids);
}

void readUrlParameter(AddressReading& r, const std::string& name, const std::string& value) {
  AppOptions& o = r.options;
  if (name == "script") {
    if (auto checked = parseScript("script", value); !checked) r.problems.push_back(checked.error().message + " (the script is not run)");
    else o.scriptText = value;
  } else if (name == "lesson") {
    LessonState lessons;
    if (auto s = openLesson(lessons, value); !s) r.problems.push_back("lesson=" + value + ": " + s.error().message);
    else o.lesson = value;
  } else if (name == "preset") {
    if (!findPreset(value)) r.problems.push_back("preset=" + value + ": no such preset; the presets are " + presetNames());
    else o.preset = value;
  } else if (name == "presenter" || name == "play") {
    if (auto on = flag(name, value); !on) r.problems.push_back(on.error().message);
    else (name == "play" ? o.play : o.presenter) = *on;
  } else if (name == "page") {
    r.page = value;
  } else if (name == "lab") {
    readLabExercise(r, value);
  } else if (isRunSetting(name)) {
    r.settings.emplace_back(name, value);
  } else {
    r.problems.push_back(unknownKey(name));
  }
}

// page= against the lesson's pages: a page outside them is named with the range, and the
// nearest page opened instead (a stale link still lands in its lesson).
void readLessonPage(AddressReading& r) {
  if (r.page.empty()) return;
  if (r.options.lesson.empty()) {
    r.problems.push_back("page=" + r.page + " needs lesson= (the lesson whose page to open)");
    return;
  }
  auto index = lessonPageIndex(r.options.lesson, r.page);
  if (index) {
    r.options.lessonPage = *index;
    return;
  }
  LessonState lessons;
  (void)openLesson(lessons, r.options.lesson);
  const int pages = int(lessons.lesson()->pages.size());
  int asked = 0;
  std::from_chars(r.page.data(), r.page.data() + r.page.size(), asked);
  r.options.lessonPage = asked > pages ? pages - 1 : 0;
  r.problems.push_back("page=" + index.error().message + "; showing page " + std::to_string(r.options.lessonPage + 1));
}

// The run's settings onto the starting preset's launch: the config itself, no script between.
void readSceneSettings(AddressReading& r) {
  if (r.settings.empty()) return;
  if (!r.options.lesson.empty()) {
    r.problems.push_back("a lesson's page sets its own launch: " + r.settings.front().first + "= and the run's other keys "
                         "are not applied with lesson=");
    return;
  }
  LaunchConfig c = findPreset(r.options.preset)->config;
  for (const auto& [name, value] : r.settings)
    if (Status read = readRunSetting(c, name, {value}); !read)
      r.problems.push_back(name + "= " + read.error().message + " (left as the scene had it)");
  r.options.sceneConfig = c;
}

}  // namespace

Result<AppOptions> parseUrlOptions(std::string_view query) {
  AddressReading r;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string name = urlDecode(item.substr(0, eq));
    const std::string value = eq == std::string_view::npos ? std::string() : urlDecode(item.substr(eq + 1));
    readUrlParameter(r, name, value);
  }
  readLessonPage(r);
  readSceneSettings(r);
  for (const std::string& p : r.problems)
    r.options.addressNotice += (r.options.addressNotice.empty() ? "This page's address has a problem. " : " ") + p + ".";
  return r.options;
}

std::string sceneQuery(const AppState& state) {
  std::string q;
  if (const Lesson* lesson = state.lesson.lesson()) {
    q = "lesson=" + urlEncode(lesson->name) + "&page=" + std::to_string(state.lesson.page + 1);
  } else {
    const LaunchConfig& c = state.request.config;
    const KernelInfo& k = kernelInfo(c.kernel);
    q = "kernel=" + urlEncode(k.name);
    if (c.dims.j == c.dims.k && c.dims.k == c.dims.l) q += "&size=" + std::to_string(c.dims.j);
    else q += "&dims=" + std::to_string(c.dims.j) + "x" + std::to_string(c.dims.k) + "x" + std::to_string(c.dims.l);
    if (k.tiled) q += "&tile=" + std::to_string(c.tile);
    else q += "&block=" + std::to_string(c.blockX) + "x" + std::to_string(c.blockY);
    if (k.takesPad && c.pad > 0) q += "&pad=" + std::to_string(c.pad);
  }
  if (state.lesson.presenter) q += "&presenter=1";
  return q;
}

}  // namespace tilescope::ui
