// The animation between two cursor positions, taken into slides: an animated GIF (giflib) or
// a numbered PNG sequence. The frame loop draws each frame exactly as the app shows it, at
// the window's size or a chosen one (then offscreen), with the cursor put at each position
// of the range in turn: the range's start, then the end of every step at the current
// granularity up to the range's end. Frames are drawn twice and captured the second time,
// so that anything laid out from the previous frame (a scrolled source line) has settled.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/timeline/timeline.h"
#include "ui/state/intents.h"
#include "kernels/result.h"

namespace tilescope::ui {

class GifWriter;
struct AppState;

inline constexpr int kMaxAnimationFrames = 2000;

struct AnimationExportJob {
  bool active = false;
  ExportAnimation request;
  std::string path;            // resolved: the GIF, or the folder of PNGs
  std::vector<Cursor> frames;  // the cursor of each frame
  std::size_t next = 0;        // the frame being drawn
  int pass = 0;                // 0: settling, 1: captured this frame
  int warmup = 0;              // frames drawn before the first one counts (a new size, new fonts)
  int delayCs = 50;            // each frame's time in the GIF, from the playback speed
  Cursor restore;              // where the cursor was before
  std::shared_ptr<GifWriter> gif;
};

// The cursors of `range` stepped at granularity g (see above); `here` is the cursor a Page
// range starts from. Errors name the phase that does not exist or the frame limit.
Result<std::vector<Cursor>> animationFrames(const Timeline& timeline, AnimationRange range, int phase, Cursor here,
                                            Granularity g);

// applyExportIntents (export_view.h): starts the job in `current` (or reports why not in
// state.view.exported). The frame loop keeps the job beside AppState.
void startAnimationExport(AnimationExportJob& current, AppState& state, const ExportAnimation& request);
// The window's title while a job runs ("tilescope - writing a.gif: frame 3 of 12"), else
// "tilescope": the progress is shown there, outside the frames being exported.
std::string exportProgressTitle(const AnimationExportJob& job);
// The frame loop, before drawing: puts the cursor at the frame being exported.
void prepareAnimationFrame(AnimationExportJob& job, AppState& state);
// The frame loop, after rendering into the bound framebuffer of width x height: captures it
// when this pass counts, writes it, and finishes the job after the last frame.
void captureAnimationFrame(AnimationExportJob& job, AppState& state, int width, int height);

}  // namespace tilescope::ui
