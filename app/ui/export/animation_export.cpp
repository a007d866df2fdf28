#include "ui/export/animation_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "ui/state/app_state.h"
#include "gfx/screenshot.h"
#include "ui/export/gif_writer.h"
#include "platform/page.h"

namespace tilescope::ui {
namespace {

constexpr int kWarmupFrames = 2;

void report(AppState& state, const std::string& text, bool failed) {
  state.view.exported = text;
  state.view.exportFailed = failed;
}

void finish(AnimationExportJob& job, AppState& state, const std::string& text, bool failed) {
  if (job.gif) {
    if (auto s = job.gif->close(); !s && !failed) return finish(job, state, s.error().message, true);
    if (!failed) platform::offerDownload(job.path);  // a page: the browser downloads the GIF
  }
  if (const LoadedRun* run = shownRun(state)) {
    state.shown.cursor = job.restore;
    state.playback.position = run->timeline.position(job.restore);
  }
  job = AnimationExportJob{};
  report(state, text, failed);
}

std::string framePath(const std::string& folder, std::size_t i) {
  char name[32];
  std::snprintf(name, sizeof name, "frame-%04zu.png", i);
  return (std::filesystem::path(folder) / name).string();
}

}  // namespace

Result<std::vector<Cursor>> animationFrames(const Timeline& t, AnimationRange range, int phase, Cursor here,
                                            Granularity g) {
  Cursor from = t.begin(), to = t.end();
  if (range == AnimationRange::Phase) {
    if (phase < 0 || phase >= t.phases())
      return invalidInput("phase " + std::to_string(phase) + " does not exist: this launch has " +
                          std::to_string(t.phases()) + " phase" + (t.phases() == 1 ? "" : "s"));
    const int first = t.seekPhase(phase).step;  // the phase's first step
    int last = first;
    for (int s = first; s < t.steps() && t.step(s).phase == phase && t.step(s).kind != StepKind::Store; ++s) last = s;
    from = first == 0 ? t.begin() : t.stepEnd(first - 1);
    to = t.stepEnd(last);
  } else if (range == AnimationRange::Page) {
    // From where the lesson page (or the teacher) put the cursor to the end of its phase.
    from = t.normalize(here);
    const int phaseHere = t.step(from.step).phase;
    int last = from.step;
    for (int s = from.step; s < t.steps() && t.step(s).phase == phaseHere && t.step(s).kind != StepKind::Store; ++s) last = s;
    to = t.stepEnd(last);
  }
  std::vector<Cursor> frames{from};
  for (Cursor c = from; !(c == to) && t.position(c) < t.position(to);) {
    const Cursor next = t.stepForward(c, g);
    if (next == c) break;
    c = t.position(next) > t.position(to) ? to : next;
    frames.push_back(c);
    if (int(frames.size()) > kMaxAnimationFrames)
      return invalidInput("the range has more than " + std::to_string(kMaxAnimationFrames) + " steps at " +
                          std::string(granularityName(g)) + " granularity: export one phase, or step by phase");
  }
  return frames;
}

void startAnimationExport(AnimationExportJob& current, AppState& state, const ExportAnimation& request) {
  const LoadedRun* run = shownRun(state);
  if (!run) return report(state, "nothing to export yet", true);
  if (current.active) return report(state, "an export is already being written", true);
  if ((request.width > 0) != (request.height > 0) || request.width < 0 || request.height < 0 || request.width > 8192 ||
      request.height > 8192)
    return report(state, "an export size must be 1 to 8192 pixels each way", true);
  auto frames = animationFrames(run->timeline, request.range, request.phase, state.shown.cursor,
                                state.playback.granularity);
  if (!frames) return report(state, frames.error().message, true);
  AnimationExportJob job;
  job.request = request;
  job.path = request.path;
  if (job.path.empty()) {
    const Dims& d = run->run.config.dims;
    job.path = "tilescope-" + kernelName(run->run) + "-" + std::to_string(d.j) + "x" +
               std::to_string(d.k) + "x" + std::to_string(d.l) + (request.format == AnimationFormat::Gif ? ".gif" : "-frames");
  }
  if (request.format == AnimationFormat::Frames) {
    std::error_code ec;
    std::filesystem::create_directories(job.path, ec);
    if (ec) return report(state, "cannot create the folder " + job.path + ": " + ec.message(), true);
  }
  job.frames = std::move(*frames);
  job.restore = state.shown.cursor;
  job.delayCs = std::clamp(int(std::lround(100.0 / state.playback.stepsPerSecond)), 2, 1000);
  job.warmup = kWarmupFrames;
  job.active = true;
  state.playback.playing = false;
  current = std::move(job);
  // No "writing..." line: the Controls panel is in the frames, and must look as it did before
  // the export; the progress goes to the window's title (exportProgressTitle).
}

std::string exportProgressTitle(const AnimationExportJob& job) {
  if (!job.active) return "tilescope";
  return "tilescope - writing " + job.path + ": frame " + std::to_string(job.next + 1) + " of " +
         std::to_string(job.frames.size());
}

void prepareAnimationFrame(AnimationExportJob& job, AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!job.active || !run) return;
  state.playback.playing = false;
  state.shown.cursor = job.frames[job.next];
  state.playback.position = run->timeline.position(state.shown.cursor);
}

void captureAnimationFrame(AnimationExportJob& job, AppState& state, int width, int height) {
  if (!job.active) return;
  if (job.warmup > 0) {
    --job.warmup;
    return;
  }
  if (job.pass++ == 0) return;  // the settling pass
  job.pass = 0;
  auto image = gfx::readFramebuffer(width, height);
  if (!image) return finish(job, state, image.error().message, true);
  if (job.request.format == AnimationFormat::Gif) {
    if (!job.gif) {
      auto gif = GifWriter::open(job.path, width, height);
      if (!gif) return finish(job, state, gif.error().message, true);
      job.gif = std::move(*gif);
    }
    if (auto s = job.gif->addFrame(*image, job.delayCs); !s) return finish(job, state, s.error().message, true);
  } else if (auto s = gfx::writePng(framePath(job.path, job.next), *image); !s) {
    return finish(job, state, s.error().message, true);
  }
  if (++job.next < job.frames.size()) return;
  char text[512];
  std::snprintf(text, sizeof text, "wrote %s: %zu frame%s of %dx%d", job.path.c_str(), job.frames.size(),
                job.frames.size() == 1 ? "" : "s", width, height);
  finish(job, state, text, false);
}

}  // namespace tilescope::ui
