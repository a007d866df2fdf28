// Everything the app knows, in explicit structs (no function-static state anywhere).
// Panels read AppState and push intents; only applyIntents() and the frame loop write it.
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
#include "ui/model/analysis_profile.h"
#include "ui/export/animation_export.h"
#include "ui/state/intents.h"
#include "ui/model/lab_state.h"
#include "ui/state/lesson_state.h"
#include "ui/model/plot_math.h"
#include "ui/workers/run_worker.h"
#include "ui/theme.h"
#include "ui/model/timing_state.h"

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
};

// The run on screen: may be older than the request while the worker is busy.
struct Shown {
  std::shared_ptr<const LoadedRun> loaded;
  std::shared_ptr<const AnalysisReport> analysis;  // loaded's, once the worker has analysed it
  std::shared_ptr<const BlockTimeline> block;
  int bx = 0, by = 0;  // selected block
  Cursor cursor;
};

// A grid as drawn this frame, in window pixels: what script mode's `layout` writes.
struct GridRect {
  std::string name;  // "M", "N", "P", "Mds", "Nds", "block"
  float x = 0, y = 0, width = 0, height = 0;
  int rows = 0, cols = 0;
  float cellWidth = 0, cellHeight = 0, outlinePx = 0, highlightPx = 0;
  struct CellText {
    int row = 0, col = 0;
    std::string text;
  };
  std::vector<CellText> texts;  // what is written in its cells (P's running sums)
};
struct WindowRect {
  std::string name;
  float x = 0, y = 0, width = 0, height = 0;
  std::string tab;  // the panel it shows: its selected tab, or its only panel
  // What the window's content took this frame (ImGui's cursor extent), against the room inside
  // it: content larger than the room is cut off or scrolled (the layout tests check it).
  float contentWidth = 0, contentHeight = 0, innerWidth = 0, innerHeight = 0;
  // Its tab bar's tabs as drawn: each label's width against the width its label needs (a tab
  // narrower than that shows its label cut, "Matric..."), and the tabs left behind "+N".
  struct Tab {
    std::string label;
    float width = 0, needed = 0;
  };
  std::vector<Tab> tabs;
  std::vector<std::string> behindMore;
};
// The Source panel as drawn this frame: which file, which lines the step highlights, and
// whether any line was wider than the panel (it never is: long lines wrap).
struct SourceRect {
  std::string file;
  int lines = 0;
  int currentLine = -1;
  std::string currentText;  // the current line as shown
  std::vector<int> stepLines;
  float width = 0;        // the text column's width, pixels
  float widestLine = 0;   // the widest line as drawn (after wrapping), pixels
  int firstLine = 1;      // the first line shown (the presenter layout leaves out the file's header comment)
  float fontPx = 0;       // the code's font size
  float textHeight = 0;   // every shown line, wrapped, stacked
  float visibleHeight = 0;  // the room for them: textHeight > visibleHeight means it scrolls
  std::vector<std::pair<int, int>> folded;  // the presenter's folded runs of lines (first, last), each one marked line
};
// The Thread life panel's entries as drawn (thread_life.h): text, done / current / ahead, box.
struct LifeTokenRect {
  std::string text, time;
  float x = 0, y = 0, width = 0, height = 0;
};
// An arrow of the followed thread, from a grid's cell to another's (an element to its slot).
struct ArrowRect {
  std::string from, to;  // grid names
  int fromRow = 0, fromCol = 0, toRow = 0, toCol = 0;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
// A table as drawn this frame (panels end their tables with endTable, panels.h): for each
// column, how far its content reached against the column's right edge; text past it is cut
// (the layout tests check that none is).
struct TableRect {
  std::string name;
  std::vector<float> contentRight, right;
};
// A line of the Counters panel: its name, the figure shown, and the exact one (its tooltip's
// when the shown one is shortened, 1.97M for 1966080).
struct CounterText {
  std::string name, shown, exact;
};
// The Copy engine panel as drawn: the ring at the cursor (copy_ring.h), the rectangle the
// stages took and each stage's boxes of M's and N's tile, in window pixels.
struct CopyEngineRect {
  CopyRing ring;
  float x = 0, y = 0, width = 0, height = 0;
  std::vector<std::array<float, 4>> mBoxes, nBoxes;  // per stage: x, y, width, height
};
// A text as drawn (text_record.h): which panel, the words, its line pitch in pixels, its colour
// and the colour right behind it, so tests read sizes and contrast from the layout file.
struct TextRecord {
  std::string panel, text;
  float x = 0, y = 0, pitch = 0;
  Rgba colour{}, background{};
};
struct FrameLayout {
  std::vector<GridRect> grids;
  std::vector<TableRect> tables;
  std::vector<CounterText> counters;
  std::vector<LifeTokenRect> life;
  std::vector<ArrowRect> arrows;
  SourceRect source;
  std::vector<WindowRect> windows;
  std::vector<PlotRect> plots;  // plot_widget.cpp: data area, points, legend, reference lines
  std::string caption;          // the step in words (step_caption.h), as drawn
  float captionFontPx = 0;
  float captionHeight = 0;      // its lines, wrapped, stacked
  bool keyHelp = false;         // the overlay of keys is on screen
  bool startHint = false;       // the "Start here" prompt is on screen (Controls)
  std::vector<std::string> gpuNotes;  // what Controls, Roofline, Occupancy, Timing and Lab say about the GPU
  std::string notice;           // the centre's word on a picture that is not the newest request's (panels.cpp)
  LabLayout lab;                // the Lab tab's editor as drawn (panel_lab.cpp)
  std::vector<CellMark> marks;  // every mark drawn on a grid (stale, spoiled, ...), by grid name
  std::vector<RequestPicture> warpRequests;  // every warp request drawn (Coalescing, Bank conflicts)
  std::optional<CopyEngineRect> copyEngine;  // the Copy engine panel, when it drew a ring
  std::vector<std::string> lessonText;  // the lesson page's paragraphs as drawn, figures filled
  std::vector<TextRecord> texts;        // texts panels recorded (sizes, colours)
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
  FrameLayout layout;  // rebuilt every frame
  bool quit = false;
  double now = 0.0;                 // clock seconds at the start of the frame
  double lastPictureLatency = -1.0;  // request to first frame showing its run, seconds
  std::vector<double> pictureLatencies;
  std::string cudaUnavailable;      // why the CUDA backend cannot be chosen ("" = it can)
  TimingState timing;               // the Timing panel: sweeps, live and recorded results
  AnalysisView analysis;            // the profile the Roofline and Occupancy panels share
  LessonState lesson;               // the guided lesson on screen, if any
  FontsInUse fonts;
  AnimationExportJob animationExport;  // an animated GIF or PNG sequence being written (animation_export.h)
  LabState lab;                        // the Lab tab: the student's kernel, its launch and outcome (lab_state.h)
};

// The shown run, or null before the first run arrives.
inline const LoadedRun* shownRun(const AppState& s) { return s.shown.loaded.get(); }

}  // namespace tilescope::ui
