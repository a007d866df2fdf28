#include "ui/state/app_options.h"

#include <charconv>
#include <cstdio>
#include <filesystem>

#include "ui/state/lesson_state.h"
#include "ui/model/presets.h"

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
