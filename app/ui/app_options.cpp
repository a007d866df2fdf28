#include "ui/app_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "kernels/catalog.h"
#include "ui/model/presets.h"
#include "ui/script/script.h"
#include "ui/state/app_state.h"
#include "ui/state/lesson_state.h"

namespace tilescope::ui {

std::string appUsage() {
  return "usage: tilescope [options]\n"
         "  --script FILE       run script commands (see the README, Script mode), then keep running unless it quits\n"
         "  --screenshot FILE   render the starting scene to a PNG and exit\n"
         "  --preset NAME       starting scene (default book-4x4)\n"
         "  --open FILE         start on a trace saved by tilescope-cli save (replays it, no GPU needed)\n"
         "  --lesson NAME       open a guided lesson (assets/lessons: name, number or file name)\n"
         "  --presenter         projector layout: controls hidden, lesson text large\n"
         "  --play              start playing\n"
         "  --frames N          exit after N frames\n"
         "  --report            print frame-time percentiles at exit\n"
         "  --size WxH          window size (default 1280x800)\n"
         "  --shader-dir DIR    load shaders from DIR instead of the embedded copies\n";
}

Result<AppOptions> parseAppOptions(int argc, char** argv) {
  AppOptions o;
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
               arg == "--frames" || arg == "--size" || arg == "--open" || arg == "--lesson") {
      auto v = value();
      if (!v) return v.error();
      if (arg == "--script") o.script = *v;
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
  return o;
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

Result<int> positive(const std::string& name, const std::string& value) {
  int n = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), n);
  if (r.ec != std::errc() || r.ptr != value.data() + value.size() || n < 0)
    return invalidInput(name + "= takes a whole number, not '" + value + "'");
  return n;
}

// "4x2" or "5x7x3" as words for a script command ("4 2"), or an error.
Result<std::string> shape(const std::string& name, const std::string& value, int parts) {
  std::string words;
  std::size_t from = 0;
  for (int i = 0; i < parts; ++i) {
    const std::size_t x = i + 1 < parts ? value.find('x', from) : value.size();
    if (x == std::string::npos) return invalidInput(name + "= takes " + (parts == 2 ? "AxB" : "AxBxC") + ", not '" + value + "'");
    auto n = positive(name, value.substr(from, x - from));
    if (!n) return invalidInput(name + "= takes " + (parts == 2 ? "AxB" : "AxBxC") + ", not '" + value + "'");
    words += (i ? " " : "") + std::to_string(*n);
    from = x + 1;
  }
  return words;
}

// One parameter into `o`; the scene's commands are collected in `scene` in the order given.
Status applyUrlParameter(AppOptions& o, int& page, const std::string& name, const std::string& value,
                         std::vector<std::string>& scene) {
  if (name == "script") o.scriptText = value;
  else if (name == "lesson") {
    LessonState lessons;
    if (auto s = openLesson(lessons, value); !s) return invalidInput("lesson=: " + s.error().message);
    o.lesson = value;
  } else if (name == "preset") {
    if (!findPreset(value)) return invalidInput("unknown preset '" + value + "'");
    o.preset = value;
  } else if (name == "presenter" || name == "play") {
    auto on = flag(name, value);
    if (!on) return on.error();
    (name == "play" ? o.play : o.presenter) = *on;
  } else if (name == "page" || name == "size" || name == "tile" || name == "pad") {
    auto n = positive(name, value);
    if (!n) return n.error();
    if (name == "page") page = *n;
    else scene.push_back("set " + name + " " + std::to_string(*n));
  } else if (name == "kernel") {
    scene.insert(scene.begin(), "set kernel " + value);  // first: a kernel brings its own defaults
  } else if (name == "dims" || name == "block") {
    auto words = shape(name, value, name == "dims" ? 3 : 2);
    if (!words) return words.error();
    scene.push_back("set " + name + " " + *words);
  } else {
    return invalidInput("unknown parameter '" + name +
                        "' in the page's address (known: lesson, page, presenter, preset, kernel, size, dims, tile, "
                        "block, pad, play, script)");
  }
  return Ok{};
}

}  // namespace

Result<AppOptions> parseUrlOptions(std::string_view query) {
  AppOptions o;
  int page = 0;
  std::vector<std::string> scene;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string name = urlDecode(item.substr(0, eq));
    const std::string value = eq == std::string_view::npos ? std::string() : urlDecode(item.substr(eq + 1));
    if (auto s = applyUrlParameter(o, page, name, value, scene); !s) return s.error();
  }
  if (page > 0 && o.lesson.empty()) return invalidInput("page= needs lesson= (the lesson whose page to open)");
  o.lessonPage = std::max(0, page - 1);  // LessonGoTo after OpenLesson (app.cpp)
  if (!scene.empty()) {
    std::string text;
    for (const std::string& line : scene) text += line + "\n";
    if (auto checked = parseScript("the page's address", text); !checked) return invalidInput(checked.error().message);
    o.sceneCommands = std::move(scene);
  }
  if (!o.scriptText.empty())
    if (auto checked = parseScript("script", o.scriptText); !checked) return invalidInput(checked.error().message);
  return o;
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
