#include "ui/state/apply_intents.h"

#include "ui/state/lab_apply.h"
#include "ui/state/lesson_state.h"

#include <algorithm>

#include "ui/state/panel_list.h"
#include "ui/model/occupancy_view.h"
#include "ui/model/presets.h"
#include "ui/state/overloaded.h"

namespace tilescope::ui {
namespace {

// A run of r.config, or with `traceFile` a replay of that file: either way the newest request.
// With `lab`, the Lab tab's kernel instead (lab_apply.h).
void submitRun(AppState& state, RunWorker& worker, const std::string& traceFile = {},
               std::shared_ptr<const LabJob> lab = nullptr) {
  Request& r = state.request;
  ++r.generation;
  r.requestedAt = state.now;
  r.openFile = traceFile;
  r.refusedHere = traceFile.empty() && !lab ? refusedForSize(r.config, runsOnEmulator(r.backend, state.cudaUnavailable.empty()))
                                            : std::string();
  worker.submit({r.generation, r.config, r.backend, traceFile, std::move(lab)});
}

void setCursor(AppState& state, Cursor c) {
  const LoadedRun* run = shownRun(state);
  if (!run) return;
  state.shown.cursor = run->timeline.normalize(c);
  state.playback.position = run->timeline.position(state.shown.cursor);
}

void selectBlock(AppState& state, int bx, int by) {
  const LoadedRun* run = shownRun(state);
  if (!run) return;
  const auto& launch = run->run.plan.launch;
  bx = std::clamp(bx, 0, int(launch.gridX) - 1);
  by = std::clamp(by, 0, int(launch.gridY) - 1);
  if (state.shown.block && state.shown.block->bx() == bx && state.shown.block->by() == by) return;
  state.shown.bx = bx;
  state.shown.by = by;
  state.shown.block = std::make_shared<const BlockTimeline>(BlockTimeline::build(run->timeline, bx, by));
}

// A panel comes to the front of its slot (its tab, and the panel the slot shows).
void bringToFront(AppState& state, Slot slot, const std::string& name) {
  state.view.activeTab[std::string(slotTitle(slot))] = name;
  state.view.slotPanel[std::string(slotTitle(slot))] = name;
}

// Presentation mode's large text, growing with the screen as the projector layout's does (1.75x
// at 1080 lines, 1.17x at 720); the projector layout is presentation mode without the controls.
void setPresentation(AppState& state, bool on) {
  state.view.presentation = on;
  state.view.fontScaleFromScreen = on;
  if (!on) state.view.fontScale = 1.0f;
}

// Intents that start a run: a new launch, a preset, a trace file, a lab kernel.
void applyRunIntent(AppState& state, RunWorker& worker, const Intent& intent) {
  std::visit(Overloaded{
                 [&](const SetConfig& i) {
                   state.request.config = i.config;
                   state.request.seekPhaseOnArrival = -1;
                   submitRun(state, worker);
                 },
                 [&](const SetBackend& i) {
                   state.request.backend = i.backend;
                   submitRun(state, worker);
                 },
                 [&](const ApplyPreset& i) {
                   const Preset* p = findPreset(i.name);
                   if (!p) return;
                   state.request.config = p->config;
                   state.request.seekPhaseOnArrival = p->seekPhase;
                   state.shown.bx = state.shown.by = 0;
                   state.shown.block.reset();
                   submitRun(state, worker);
                 },
                 [&](const OpenTraceFile& i) {
                   state.view.tracePath = i.path;
                   submitRun(state, worker, i.path);  // the file's config arrives with it (collectRun)
                 },
                 [&](const LabIntent& i) {
                   if (auto job = applyLabIntent(state, worker, i)) {
                     submitRun(state, worker, {}, std::move(job));
                     state.lab.pendingGeneration = state.request.generation;
                     state.lab.startedAt = state.now;
                   }
                 },
                 [](const auto&) {},
             },
             intent);
}

// Intents that move through the shown run: the block, the cursor, playing and its speed.
void applyPlaybackIntent(AppState& state, const Timeline* timeline, const Intent& intent) {
  auto play = [&](bool on) {
    state.playback.playing = on;
    // Play from the start when the cursor sits at the end.
    if (on && timeline && timeline->atEnd(state.shown.cursor)) setCursor(state, timeline->begin());
  };
  std::visit(Overloaded{
                 [&](const SelectBlock& i) { selectBlock(state, i.bx, i.by); },
                 [&](const Step& i) {
                   if (!timeline) return;
                   state.playback.playing = false;
                   Cursor c = state.shown.cursor;
                   for (int n = 0; n < std::abs(i.count); ++n)
                     c = i.count > 0 ? timeline->stepForward(c, state.playback.granularity)
                                     : timeline->stepBack(c, state.playback.granularity);
                   setCursor(state, c);
                 },
                 [&](const SeekPhase& i) {
                   if (timeline) setCursor(state, timeline->seekPhase(i.phase));
                 },
                 [&](const SeekStart&) {
                   if (timeline) setCursor(state, timeline->begin());
                 },
                 [&](const SeekEnd&) {
                   if (timeline) setCursor(state, timeline->end());
                 },
                 [&](const SeekPosition& i) {
                   if (timeline) setCursor(state, timeline->atPosition(i.position));
                 },
                 [&](const SetPlaying& i) { play(i.playing); },
                 [&](const TogglePlaying&) { play(!state.playback.playing); },
                 [&](const ScaleSpeed& i) {
                   state.playback.stepsPerSecond = std::clamp(state.playback.stepsPerSecond * i.factor, 0.125, 256.0);
                 },
                 [&](const SetSpeed& i) { state.playback.stepsPerSecond = std::clamp(i.stepsPerSecond, 0.125, 256.0); },
                 [&](const SetGranularity& i) { state.playback.granularity = i.granularity; },
                 [](const auto&) {},
             },
             intent);
}

// Intents about how things are shown: text size, palette, panels, lessons, exports, following.
void applyViewIntent(AppState& state, const Intent& intent) {
  std::visit(Overloaded{
                 [&](const SetPresentation& i) { setPresentation(state, i.on); },
                 [&](const TogglePresentation&) { setPresentation(state, !state.view.presentation); },
                 [&](const SetFontScale& i) {
                   state.view.fontScale = std::clamp(i.scale, 1.0f, 3.0f);
                   state.view.fontScaleFromScreen = false;
                 },
                 [&](const SetPalette& i) { state.view.palette = i.palette; },
                 [&](const ToggleFullscreen&) { state.view.fullscreen = !state.view.fullscreen; },
                 [&](const ShowPanel& i) {
                   if (const PanelInfo* p = findPanel(i.name)) bringToFront(state, p->slot, i.name);
                 },
                 [&](const TimingIntent& i) { applyTimingIntent(state.timing, i); },
                 [&](const SetAnalysisProfile& i) {
                   // A name that is not offered (no GPU for "device") keeps the current choice;
                   // "" goes back to the default (a lesson page without a profile of its own).
                   if (i.name.empty() || checkAnalysisProfile(state.analysis, i.name)) state.analysis.chosen = i.name;
                 },
                 [&](const EditTracePath& i) { state.view.tracePath = i.path; },
                 [&](const OpenLesson& i) {
                   if (auto s = openLesson(state.lesson, i.key); !s) {
                     state.lesson.error = s.error().message;
                   } else {
                     state.view.startHint = false;  // the way in was found
                     bringToFront(state, Slot::Left, "Lesson");
                     state.playback.playing = false;  // a page is a still picture unless it says `play`
                   }
                 },
                 [&](const ToggleKeyHelp&) { state.view.keyHelp = !state.view.keyHelp; },
                 [&](const DismissStartHint&) { state.view.startHint = false; },
                 [&](const DismissAddressNotice&) { state.view.addressNotice.clear(); },
                 [&](const LessonGoTo& i) {
                   goToLessonPage(state.lesson, i.page);
                   state.playback.playing = false;
                 },
                 [&](const SetPresenter& i) {
                   state.lesson.presenter = i.on;
                   setPresentation(state, i.on);
                   if (i.on) bringToFront(state, Slot::Left, "Lesson");
                 },
                 [&](const FollowThread& i) {
                   state.view.followX = i.tx < 0 || i.ty < 0 ? -1 : i.tx;
                   state.view.followY = i.tx < 0 || i.ty < 0 ? -1 : i.ty;
                   if (state.view.followX >= 0)  // its life comes to the front of its slot
                     state.view.activeTab["left-bottom"] = state.view.slotPanel["left-bottom"] = "Thread life";
                 },
                 [&](const SetLoadShading& i) { state.view.loadShading = i.mode; },
                 [&](const Quit&) { state.quit = true; },
                 [](const auto&) {},
             },
             intent);
}

}  // namespace

IntentQueue applyIntents(AppState& state, RunWorker& worker) {
  IntentQueue intents = std::exchange(state.intents, {});
  IntentQueue exports;
  const LoadedRun* run = shownRun(state);
  const Timeline* timeline = run ? &run->timeline : nullptr;
  // Each intent belongs to one of the three groups; the others pass it by.
  for (const Intent& intent : intents) {
    applyRunIntent(state, worker, intent);
    applyPlaybackIntent(state, timeline, intent);
    applyViewIntent(state, intent);
    if (std::holds_alternative<ExportView>(intent) || std::holds_alternative<ExportAnimation>(intent))
      exports.push_back(intent);
  }
  // A lesson page's launch, before its lines run: a new run only where it differs from the
  // one asked for (turning to a page of the same launch keeps the picture), or where a trace
  // file, not a launch, is on screen.
  if (auto page = std::exchange(state.lesson.pendingConfig, std::nullopt))
    if (!(*page == state.request.config) || !state.request.openFile.empty())
      applyRunIntent(state, worker, SetConfig{*page});
  state.theme = makeTheme(state.view.palette, state.view.presentation);
  return exports;
}

namespace {
bool collectRunResult(AppState& state, RunWorker& worker) {
  auto result = worker.poll();
  if (!result) return false;
  Request& r = state.request;
  takeLabResult(state, *result);
  if (result->generation != r.generation) return false;  // a newer request is on its way
  // The whole run of the launch whose first picture is on screen: the same request's picture, finished.
  const bool wholeAfterFirst =
      state.shown.loaded && state.shown.loaded->partial && r.shownGeneration == result->generation;
  r.shownGeneration = result->generation;
  if (!result->loaded) {
    // The previous run stays on screen, the error says why it is not updated (a lab job's
    // verdict is the Lab tab's to show).
    if (!result->lab) r.error = result->error;
    return false;
  }
  r.error.clear();
  if (result->loaded->replay || labKernel(result->loaded->run)) {
    // A trace file or a lab kernel is a new picture, like a preset: block (0,0), cursor where
    // phase 0's tiles are in; the controls take a trace file's config (so a slider change runs
    // it afresh here).
    if (result->loaded->replay) r.config = result->loaded->run.config;
    r.seekPhaseOnArrival = 0;
    state.shown.bx = state.shown.by = 0;
  }
  bool wasAtEnd = state.shown.loaded && state.shown.loaded->timeline.atEnd(state.shown.cursor);
  Cursor previous = state.shown.cursor;
  if (auto& before = state.shown.beforeFirstPicture; wholeAfterFirst && before && before->given == previous) {
    wasAtEnd = before->atEnd;
    previous = before->cursor;
  }
  state.shown.loaded = result->loaded;
  state.shown.analysis.reset();
  state.shown.block.reset();
  selectBlock(state, state.shown.bx, state.shown.by);
  const Timeline& timeline = state.shown.loaded->timeline;
  const bool seeks = r.seekPhaseOnArrival >= 0;
  if (seeks) {
    setCursor(state, timeline.seekPhase(r.seekPhaseOnArrival));
    if (!result->loaded->partial) r.seekPhaseOnArrival = -1;  // the whole run seeks there too
  } else if (wasAtEnd) {
    setCursor(state, timeline.end());
  } else {
    setCursor(state, previous);  // same step index, clamped to the new timeline
  }
  state.shown.beforeFirstPicture.reset();
  if (result->loaded->partial && !seeks) state.shown.beforeFirstPicture = Shown::BeforeFirstPicture{previous, wasAtEnd, state.shown.cursor};
  // The whole run after its first picture is the same change's picture: not a new one.
  return !wholeAfterFirst;
}
}  // namespace

bool collectRun(AppState& state, RunWorker& worker) {
  const bool changed = collectRunResult(state, worker);
  // After the run: a run's analysis follows it, and is kept only for the run on screen.
  if (auto analysed = worker.pollAnalysis(); analysed && analysed->run == state.shown.loaded)
    state.shown.analysis = std::move(analysed->report);
  return changed;
}

void advancePlayback(AppState& state, double seconds) {
  const LoadedRun* run = shownRun(state);
  if (!state.playback.playing || !run) return;
  const Timeline& t = run->timeline;
  state.playback.position += state.playback.stepsPerSecond * seconds;
  state.shown.cursor = t.atPosition(state.playback.position);
  if (t.atEnd(state.shown.cursor)) state.playback.playing = false;
}

}  // namespace tilescope::ui
