// Script mode: `tilescope --script FILE` runs commands, one per line, through the same
// intents the UI uses. The whole file is checked before the window opens, so a bad line is
// reported as FILE:LINE with nothing else done. '#' starts a comment.
//
//   preset NAME                    book-4x4, boundary-3x3, naive-32x8, tiled-128, ...
//   set kernel NAME | size N | dims J K L | tile T | block BX BY | seed S | pad P (tiled-transposed)
//   set profile device|textbook|a100|h100   the Roofline and Occupancy panels' device profile
//   set backend emulator|cuda | presentation on|off | font-scale X | palette okabe-ito|vivid
//   set granularity phase|interval|k | speed STEPS_PER_SECOND
//   select block BX BY             step N (negative: back)
//   seek phase P | seek start | seek end
//   play FRAMES                    plays for that many frames, then pauses
//   frames N                       renders N frames
//   wait                           waits for the pending run (every command but set/preset does)
//   show PANEL                     brings a tabbed panel to the front
//   timing page plot|table         the Timing panel's page; timing sweep live|lecture; timing cancel
//   timing wait                    waits for the timing sweep (other commands wait for start-up only)
//   open FILE.tstrace              replays a saved trace (tilescope-cli save); fails on a bad file
//   lesson NAME|next|back          opens a guided lesson (assets/lessons) or moves a page; waits
//                                  until the page's own commands have run; set presenter on|off
//   screenshot FILE.png            layout FILE.json (grid and window rectangles, theme colours)
//   export trace|chrome|png FILE   what the Export buttons write: .tstrace, Perfetto JSON, PNG
//   export gif FILE [phase P | page] [size W H]   the animation of the run, a phase, or from the
//   export frames DIR [...]        cursor to its phase's end, as a GIF or numbered PNGs; waits
//   follow thread TX TY | off      the views follow a thread of the selected block
//   set shading on|off|auto        M and N shaded by their load counts (auto: above 16x16)
//   expect error TEXT | expect no-error    fails the script unless the run's error matches
//   lab open FILE|EXAMPLE          the Lab tab (lab_script.h): opens a .cu file with its `// lab:`
//   lab exercise ID | lab save [FILE] | lab text FILE | lab append TEXT      settings; edits the text
//   lab define NAME VALUE | size W | dims J K L | block BX BY | grid GX GY | arg NAME VALUE
//   lab shared-bytes N | timeout S | backend emulator|cuda       the launch (block/grid 0 0: default)
//   lab run | lab check [EXERCISE] runs or grades the editor's kernel and waits for it
//   lab start | lab cancel         starts without waiting; stops the running kernel
//   lab expect VERDICT | grade passed|failed | error TEXT   fails the script unless the Lab tab shows it
//   report                         prints frame-time percentiles so far
//   quit
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ui/state/app_state.h"
#include "kernels/result.h"

namespace tilescope::ui {

struct ScriptLine {
  int number = 0;
  std::vector<std::string> words;
};

struct Script {
  std::string file;
  std::vector<ScriptLine> lines;
};

// Reads and checks every line; the error names FILE:LINE and what is wrong.
Result<Script> loadScript(const std::string& path);
Result<Script> parseScript(const std::string& file, const std::string& text);

// What the frame loop must do for the script this frame.
struct ScriptRequests {
  std::string screenshot;  // capture this frame to this path
  std::string layout;      // write this frame's layout to this path
  bool report = false;
};

class ScriptRunner {
 public:
  explicit ScriptRunner(Script script) : script_(std::move(script)) {}
  // Runs commands until one must wait for a later frame. `runPending`: a run is queued or
  // running. Returns an error (FILE:LINE: ...) when a command fails.
  Status tick(AppState& state, bool runPending, ScriptRequests& requests);
  bool finished() const { return next_ >= script_.lines.size(); }
  // Whether the script prints frame times (`report`): then every frame is drawn, as a person's.
  bool timesFrames() const;
  // Whether the last tick stopped at a line that waits for background work (a run, the timing
  // worker): frames before that work is done only repeat the picture.
  bool waitsForWork() const { return waitsForWork_; }

 private:
  Status fail(const ScriptLine& line, const std::string& message) const;
  // What the line waits for (the run, a timing sweep, a settled frame): a status to return
  // this frame, or nullopt when it may go on.
  std::optional<Status> holds(const AppState& state, bool runPending, const ScriptLine& line);
  // Lines that ask first and check the outcome on a later pass (open, lesson, lab run, export
  // gif): true when the line asked this pass.
  bool asks(AppState& state, const std::vector<std::string>& words);
  Status perform(AppState& state, const ScriptLine& line, ScriptRequests& requests, bool& yield);
  Status performSet(AppState& state, const ScriptLine& line, bool& yield);
  void performTiming(AppState& state, const std::vector<std::string>& words);
  Status expectError(const ScriptLine& line, const std::string& error) const;
  Script script_;
  std::size_t next_ = 0;
  int framesToWait_ = 0;  // for play/frames
  bool playing_ = false;
  int settle_ = 0;        // frames to render before a capture
  double waitStarted_ = -1.0;
  double sweepWaitStarted_ = -1.0;  // timing wait
  bool opening_ = false;            // an `open` line was asked for, its result not seen yet
  bool lessonAsked_ = false;        // a `lesson` line was asked for, its result not seen yet
  bool exportAsked_ = false;        // an `export gif|frames` line was asked for, not finished yet
  bool labAsked_ = false;           // a `lab run|check` line was asked for, its job not back yet
  bool noLesson_ = false;           // a `lesson next|back` line found no lesson open
  bool waitsForWork_ = false;       // the last tick stopped at a line waiting for a run or a sweep
};

}  // namespace tilescope::ui
