// Everything the app knows, in explicit structs (no function-static state anywhere).
// Panels read AppState and push intents; only applyIntents() and the frame loop write it.
// What a frame drew (FrameLayout, frame_layout.h) and an export being written
// (AnimationExportJob, export/) are kept by the frame loop beside it, not in it: the state room
// needs nothing from the rooms above it (app/ui/CMakeLists.txt lists the rooms).
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/warp_requests.h"
#include "core/timeline/cell_marks.h"
#include "core/timeline/copy_ring.h"
#include "core/analysis/analysis.h"
#include "core/run/backend.h"
#include "ui/model/analysis_profile.h"
#include "ui/model/lab_state.h"
#include "ui/model/loaded_run.h"
#include "ui/model/timing_state.h"
#include "ui/state/intents.h"
#include "ui/state/lesson_state.h"
#include "ui/state/view_cache.h"
#include "ui/theme.h"

namespace tilescope::ui {

struct Playback {
  bool playing = false;
  double stepsPerSecond = 2.0;  // fine (k-step) steps per second
  double position = 0.0;        // the cursor as a playback position, advanced each frame
  Granularity granularity = Granularity::KStep;
};

struct ViewOptions {
  bool presentation = false;  // high contrast, thicker lines, larger fonts
  float fontScale = 1.0f;     // 1..3
  bool fontScaleFromScreen = false;  // presentation mode's text grows with the screen's height until set by hand
  Palette palette = Palette::OkabeIto;
  bool fullscreen = false;
  std::map<std::string, std::string> activeTab;  // slot name -> panel to bring to front
  std::string tracePath;  // the Controls panel's "Open trace file" field
  std::string pngExport;  // a PNG of the window to write after this frame renders ("" = none)
  std::string exported;   // what the last export wrote, or why it failed, for the Controls panel
  bool exportFailed = false;
  // Classroom (README.md, "For teachers"): the thread the views follow (-1: none), and the
  // load-count shading of M and N (auto: on above 16x16).
  int followX = -1, followY = -1;
  LoadShading loadShading = LoadShading::Auto;
  std::map<std::string, std::string> slotPanel;  // slot name -> the panel last brought forward (presenter)
  bool keyHelp = false;    // the overlay of keys (? and F1)
  bool startHint = true;   // the first screen's "Start here" prompt, until a lesson opens or it is closed
  std::string addressNotice;  // what a page's address asked that it could not have (app_options.h), until dismissed
};

// The request side: what the controls show and the newest run asked for.
struct Request {
  LaunchConfig config;
  BackendChoice backend = BackendChoice::Emulator;
  uint64_t generation = 0;      // bumped by every new request
  uint64_t shownGeneration = 0;  // generation of the run on screen (or of the last failure)
  double requestedAt = 0.0;      // clock seconds when the newest request was made
  std::string error;             // why the newest request failed, shown in the UI
  int seekPhaseOnArrival = -1;   // presets place the cursor when their run arrives
  std::string openFile;          // the newest request opens this trace file ("" = it runs config)
  // Why the newest request is not run here for its size ("" when it is): decided once per
  // request (submitRun, and again when the backend's device is known), never per frame.
  std::string refusedHere;
};

// The run on screen: may be older than the request while the worker is busy.
struct Shown {
  std::shared_ptr<const LoadedRun> loaded;
  std::shared_ptr<const AnalysisReport> analysis;  // loaded's, once the worker has analysed it
  std::shared_ptr<const BlockTimeline> block;
  int bx = 0, by = 0;  // selected block
  Cursor cursor;
  // While a first picture (LoadedRun::partial) is on screen: where the cursor was before it
  // came, and the cursor the first picture was given. Its whole run puts the cursor back where
  // it was, as if the first picture had not been, unless a person moved it meanwhile.
  struct BeforeFirstPicture {
    Cursor cursor;
    bool atEnd = false;
    Cursor given;
  };
  std::optional<BeforeFirstPicture> beforeFirstPicture;
};

// The files the text is drawn with (font_finder.h); "" = Dear ImGui's built-in font.
struct FontsInUse {
  std::string sans, mono;
};

struct AppState {
  Request request;
  Shown shown;
  Playback playback;
  ViewOptions view;
  Theme theme = makeTheme(Palette::OkabeIto, false);
  IntentQueue intents;
  bool quit = false;
  double now = 0.0;                 // clock seconds at the start of the frame
  double lastPictureLatency = -1.0;  // request to first frame showing its run, seconds
  std::vector<double> pictureLatencies;
  std::string cudaUnavailable;      // why the CUDA backend cannot be chosen ("" = it can)
  std::string gpuCodeNote;          // the build has no machine code for this GPU ("" = it has)
  TimingState timing;               // the Timing panel: sweeps, live and recorded results
  AnalysisView analysis;            // the profile the Roofline and Occupancy panels share
  LessonState lesson;               // the guided lesson on screen, if any
  FontsInUse fonts;
  LabState lab;                        // the Lab tab: the student's kernel, its launch and outcome (lab_state.h)
  // The panels' views of the shown run, rebuilt when the cursor, the run, the block or a view's
  // options change (view_cache.h): mutable, a cache of what the fields above already say.
  mutable ViewCache views;
};

// The shown run, or null before the first run arrives.
inline const LoadedRun* shownRun(const AppState& s) { return s.shown.loaded.get(); }

// The followed thread as a linear index into the shown block, or -1 (none, or outside the block).
int followedThread(const AppState& state);
// Whether M and N are shaded by their load counts (auto: when the launch is larger than 16x16).
bool loadShadingOn(const AppState& state);

}  // namespace tilescope::ui
