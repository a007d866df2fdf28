// The app's options: the desktop's command line, or a page's address (its query).
#pragma once
#include <string>
#include <string_view>
#include <vector>

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
  int lessonPage = 0;      // a page's address: the lesson's page (0 = the first)
  bool presenter = false;  // --presenter: the projector layout (controls hidden, text large)
  int width = 1280, height = 800;   // --size WxH
  std::string shaderDir;   // --shader-dir DIR: load shaders from DIR instead of the embedded copies
  bool help = false;
  // A page's address: `script=` carries a script's text (named "script" in its messages);
  // the scene parameters become script commands that set the scene up while the user keeps
  // control (run like a lesson page's own lines).
  std::string scriptText;
  std::vector<std::string> sceneCommands;
};

struct AppState;

Result<AppOptions> parseAppOptions(int argc, char** argv);
std::string appUsage();

// A page's query, e.g. "lesson=two-barriers&page=3&presenter=1", "kernel=tiled-no-first-sync&
// size=4&tile=2" or "preset=book-4x4" (URL-encoded). Parameters: lesson, page (1 = the
// first), presenter (1/0), preset, kernel, size, dims (JxKxL), tile, block (BXxBY), pad,
// play (1/0), script. Checked like the command line: an unknown name or value is an error.
Result<AppOptions> parseUrlOptions(std::string_view query);
// The query that brings back the scene `state` shows: the lesson and page, or the kernel and
// its sizes; presenter=1 in the projector layout. parseUrlOptions reads it back.
std::string sceneQuery(const AppState& state);

}  // namespace tilescope::ui
