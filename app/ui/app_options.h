// The app's options: the desktop's command line, or a page's address (its query).
#pragma once
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "core/run/launch_config.h"
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
  int lessonPage = 0;      // --page N, or a page's address: the lesson's page (0 = the first)
  bool presenter = false;  // --presenter: the projector layout (controls hidden, text large)
  int width = 1280, height = 800;   // --size WxH
  std::string shaderDir;   // --shader-dir DIR: load shaders from DIR instead of the embedded copies
  bool help = false;
  // A page's address: `script=` carries a script's text (named "script" in its messages);
  // the run's settings (kernel=, size=, ...) are read by the one reader of a run's description
  // onto the starting preset's launch (the app starts with it); what the address asked that
  // cannot be had is said in words, shown in the app as a refused size is, over the nearest
  // scene it could open (a page clamped into its lesson, the start without an unknown lesson).
  std::string scriptText;
  std::optional<LaunchConfig> sceneConfig;
  std::string addressNotice;
  // lab=ID: the Lab tab in front with exercise ID in the editor (the student's own text kept
  // when the autosave already holds that exercise: a reload loses nothing).
  std::string labExercise;
};

struct AppState;

Result<AppOptions> parseAppOptions(int argc, char** argv);
std::string appUsage();

// The index (0 = the first) of `page`, counted from 1 as on screen, in `lesson` (a name, number
// or file name); else why not, naming the lesson's page range: "99 is not a page: lesson
// two-barriers has pages 1 to 6", or openLesson's list of lessons.
Result<int> lessonPageIndex(const std::string& lesson, const std::string& page);

// A page's query, e.g. "lesson=two-barriers&page=3&presenter=1", "kernel=tiled-no-first-sync&
// size=4&tile=2", "lab=bounds_jkl" or "preset=book-4x4" (URL-encoded). Keys: lesson, page (1 = the
// first), presenter (1/0), preset, play (1/0), script, lab (an exercise's id), and the run's
// settings (kernel, size, dims JxKxL, tile, block BXxBY, tiling, pad, grid-blocks, seed). Every
// address is answered: a key or value it cannot use is named in addressNotice (with what it
// accepts) and the rest opens, never an error and never a blank page.
Result<AppOptions> parseUrlOptions(std::string_view query);
// The query that brings back the scene `state` shows: the lesson and page, or the kernel and
// its sizes; presenter=1 in the projector layout. parseUrlOptions reads it back.
std::string sceneQuery(const AppState& state);

}  // namespace tilescope::ui
