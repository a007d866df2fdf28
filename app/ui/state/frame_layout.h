// What a frame drew, in window pixels: the panels record it while they draw (PanelContext's
// layout), script mode's `layout` writes it (export/frame_report.cpp) and the UI tests read it.
// Plain data, rebuilt every frame and kept by the frame loop beside AppState, not in it.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/warp_requests.h"
#include "core/timeline/cell_marks.h"
#include "core/timeline/copy_ring.h"
#include "ui/model/lab_state.h"
#include "ui/model/plot_math.h"
#include "ui/theme.h"

namespace tilescope::ui {

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
// The Tensor core panel as drawn: which warp, lane and step, how many MMAs the warp issued in
// it, and for each element of A (16 x 8), B (8 x 8) and the sums (16 x 8), row-major, the lane
// whose fragment holds it (-1: none recorded); each grid's rectangle (x, y, width, height).
struct TensorCoreRect {
  int warp = 0, lane = 0, step = -1, mmas = 0;
  std::vector<int> ownerA, ownerB, ownerC;
  std::array<float, 4> a{}, b{}, c{};
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
  std::optional<TensorCoreRect> tensorCore;  // the Tensor core panel, when it drew an MMA
  std::vector<std::string> lessonText;  // the lesson page's paragraphs as drawn, figures filled
  std::vector<TextRecord> texts;        // texts panels recorded (sizes, colours)
};

}  // namespace tilescope::ui
