// Intents: everything the user (or a script) can ask the app to do. Panels, keyboard
// shortcuts and script mode only push intents; applyIntents() is the one place that turns
// them into state changes and new runs, so the three paths behave identically.
#pragma once
#include <string>
#include <variant>
#include <vector>

#include "core/run/backend.h"
#include "core/run/launch_config.h"
#include "core/timeline/timeline.h"
#include "ui/model/lab_state.h"
#include "ui/theme.h"
#include "ui/model/timing_state.h"

namespace tilescope::ui {

struct SetConfig { LaunchConfig config; };        // re-runs the kernel (off the UI thread)
struct SetBackend { BackendChoice backend; };
struct ApplyPreset { std::string name; };         // see presets.h
struct SelectBlock { int bx, by; };
struct Step { int count; };                       // +n forward, -n back, at the current granularity
struct SeekPhase { int phase; };
struct SeekStart {};
struct SeekEnd {};
struct SeekPosition { double position; };         // in fine steps (Timeline::position)
struct SetPlaying { bool playing; };
struct TogglePlaying {};
struct ScaleSpeed { double factor; };             // speed *= factor
struct SetSpeed { double stepsPerSecond; };
struct SetGranularity { Granularity granularity; };
struct SetPresentation { bool on; };
struct TogglePresentation {};
struct SetFontScale { float scale; };             // 1..3
struct SetPalette { Palette palette; };
struct ToggleFullscreen {};
struct ShowPanel { std::string name; };           // selects a panel's tab in its slot
struct SetAnalysisProfile { std::string name; };  // Roofline and Occupancy: "device", a built-in profile, "" the default
struct OpenTraceFile { std::string path; };       // replay a saved trace (replay.h), off the UI thread
struct EditTracePath { std::string path; };       // the Controls panel's trace-file field, as typed
struct OpenLesson { std::string key; };          // a guided lesson by name or number, at its first page
struct LessonGoTo { int page; };                  // a page of the open lesson (clamped); runs its commands
struct ToggleKeyHelp {};                          // the overlay of keys (? and F1)
struct DismissStartHint {};                        // the first screen's "Start here" prompt, closed
struct DismissAddressNotice {};                    // the notice of a page's address that could not be had, closed
struct SetPresenter { bool on; };                 // projector layout: controls hidden, lesson text large
// Writes what is on screen to a file: the run as a .tstrace (it opens again with --open), its
// trace as Chrome trace-event JSON (Perfetto), or the window as a PNG. Empty path: a name
// made from the run in the working directory.
enum class ExportKind { TraceFile, ChromeJson, Png };
struct ExportView { ExportKind kind; std::string path; };
// Classroom (README.md, "For teachers"). FollowThread{-1, -1} stops following.
struct FollowThread { int tx, ty; };              // the views follow one thread of the selected block
enum class LoadShading { Auto, On, Off };         // auto: on above 16x16
struct SetLoadShading { LoadShading mode; };
// The animation between two cursor positions as an animated GIF or numbered PNGs
// (animation_export.h); width/height 0: the window's size.
enum class AnimationFormat { Gif, Frames };
enum class AnimationRange { Run, Phase, Page };   // Page: from the cursor the lesson page set to its phase's end
struct ExportAnimation {
  AnimationFormat format = AnimationFormat::Gif;
  std::string path;  // "" = a name made from the run in the working directory
  AnimationRange range = AnimationRange::Run;
  int phase = 0;
  int width = 0, height = 0;
};
struct Quit {};

using Intent = std::variant<SetConfig, SetBackend, ApplyPreset, SelectBlock, Step, SeekPhase, SeekStart, SeekEnd,
                            SeekPosition, SetPlaying, TogglePlaying, ScaleSpeed, SetSpeed, SetGranularity,
                            SetPresentation, TogglePresentation, SetFontScale, SetPalette, ToggleFullscreen,
                            ShowPanel, TimingIntent, SetAnalysisProfile, OpenTraceFile, EditTracePath, OpenLesson, LessonGoTo, SetPresenter, ExportView,
                            ToggleKeyHelp, DismissStartHint, DismissAddressNotice,
                            FollowThread, SetLoadShading, ExportAnimation, LabIntent, Quit>;

using IntentQueue = std::vector<Intent>;

}  // namespace tilescope::ui
