// The desktop app's command line.
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope::ui {

struct AppOptions {
  std::string script;      // --script FILE
  std::string screenshot;  // --screenshot FILE: render the default scene, save, exit
  int frames = -1;         // --frames N: exit after N frames (after the script, if any)
  bool report = false;     // --report: print frame-time percentiles at exit
  bool play = false;       // --play: start playing (looping when --frames is given)
  std::string preset = "book-4x4";  // --preset NAME: the starting scene
  std::string open;        // --open FILE.tstrace: start on a saved trace instead (replay.h)
  std::string lesson;      // --lesson NAME: open a guided lesson at its first page
  bool presenter = false;  // --presenter: the projector layout (controls hidden, text large)
  int width = 1280, height = 800;   // --size WxH
  std::string shaderDir;   // --shader-dir DIR: load shaders from DIR instead of the embedded copies
  bool help = false;
};

Result<AppOptions> parseAppOptions(int argc, char** argv);
std::string appUsage();

}  // namespace tilescope::ui
