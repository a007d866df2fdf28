// (The fonts are app_fonts.cpp's; the window, GL and ImGui's backends are app/platform's.)
// [SECTION] keyboard shortcuts
// [SECTION] a frame's parts: clocks, the device's facts, a size too large to run, lesson pages,
//           the style, the frame's captures and files, live timing
// [SECTION] frame loop: the Session (start, one frame, finish) and runApp
#include "app.h"
#include "app_fonts.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ui/export/animation_export.h"
#include "ui/export/export_view.h"
#include "ui/state/apply_intents.h"
#include "ui/export/frame_report.h"
#include "ui/model/occupancy_view.h"
#include "gfx/gl_context.h"
#include "gfx/grid_renderer.h"
#include "gfx/screenshot.h"
#include "platform/frame_loop.h"
#include "platform/page.h"
#include "platform/window.h"
#include "ui/panels/panels.h"
#include "ui/script/script.h"
#include "ui/workers/timing_worker.h"

namespace tilescope::ui {
namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] keyboard shortcuts: space play/pause, arrows step, +/- speed, F, P, lessons
// ---------------------------------------------------------------------------------------

void shortcuts(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;  // typing into a field is not a command
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, true); };
  auto& q = state.intents;
  if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) q.push_back(TogglePlaying{});
  if (pressed(GLFW_KEY_RIGHT)) q.push_back(Step{1});
  if (pressed(GLFW_KEY_LEFT)) q.push_back(Step{-1});
  if (pressed(GLFW_KEY_UP)) q.push_back(SetGranularity{Granularity(std::max(0, int(state.playback.granularity) - 1))});
  if (pressed(GLFW_KEY_DOWN))
    q.push_back(SetGranularity{Granularity(std::min(kGranularityCount - 1, int(state.playback.granularity) + 1))});
  if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) q.push_back(ScaleSpeed{2.0});
  if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) q.push_back(ScaleSpeed{0.5});
  if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) q.push_back(ToggleFullscreen{});
  if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) q.push_back(TogglePresentation{});
  if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) q.push_back(SeekStart{});
  if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) q.push_back(SeekEnd{});
  if (const LessonState& ls = state.lesson; ls.lesson()) {
    // Presentation clickers send PageDown/PageUp; N and B are the same for a keyboard.
    if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN, false) || ImGui::IsKeyPressed(GLFW_KEY_N, false))
      q.push_back(LessonGoTo{ls.page + 1});
    if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP, false) || ImGui::IsKeyPressed(GLFW_KEY_B, false))
      q.push_back(LessonGoTo{ls.page - 1});
  }
  // ? (shift and /) and F1 open the list of keys; Escape closes it before anything else.
  if (ImGui::IsKeyPressed(GLFW_KEY_F1, false) || (io.KeyShift && ImGui::IsKeyPressed(GLFW_KEY_SLASH, false)) ||
      (state.view.keyHelp && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false))) {
    q.push_back(ToggleKeyHelp{});
    return;
  }
  // F5 starts a slide show in presentation programs; Escape leaves it.
  if (ImGui::IsKeyPressed(GLFW_KEY_F5, false)) q.push_back(SetPresenter{!state.lesson.presenter});
  if (state.lesson.presenter && ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) q.push_back(SetPresenter{false});
}

// ---------------------------------------------------------------------------------------
// [SECTION] a frame's parts
// ---------------------------------------------------------------------------------------

double clockSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// The frame loop's own CPU time: what a frame costs the app whatever else the machine runs (a
// shared machine's wall clock counts the other processes' turns too). The clock where there is none.
double threadCpuSeconds() {
#if defined(CLOCK_THREAD_CPUTIME_ID) && !defined(__EMSCRIPTEN__)
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0) return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
#endif
  return clockSeconds();
}

// When a frame started, and when its draw lists were handed over, by the clock and in CPU time.
struct FrameClock {
  double start = 0, cpuStart = 0, handedOver = 0, cpuHandedOver = 0;
};

// What the run worker found out about CUDA and the device, for the panels to say; where the
// platform cannot reach a GPU at all (a page), its reason instead of the build's.
void takeDeviceFacts(AppState& state, RunWorker& worker) {
  const std::optional<std::string> unreachable = platform::gpuUnreachable();
  const std::string before = state.cudaUnavailable;
  if (auto reason = worker.cudaUnavailableReason()) state.cudaUnavailable = unreachable.value_or(*reason);
  else state.cudaUnavailable.clear();
  state.gpuCodeNote = worker.cudaCodeNote();
  Request& r = state.request;  // where the newest request runs is known now: its refusal with it
  if (state.cudaUnavailable != before && r.openFile.empty())
    r.refusedHere = refusedForSize(r.config, runsOnEmulator(r.backend, state.cudaUnavailable.empty()));
  if (!state.analysis.device) {
    if (auto device = worker.deviceProfile()) state.analysis.device = std::move(*device);
    else state.analysis.noDevice = unreachable.value_or(device.error().message);
  }
}

// A size not run here (the emulator's multiply-add limit, the trace cap) leaves no trace: the
// previous run's picture would pass for it (issue 28). It goes, and the Occupancy panel comes
// forward with the grid as it would have been dealt (a plan, labelled so: occupancy.cpp).
void dropRunRefusedForSize(AppState& state) {
  const Request& r = state.request;
  if (!shownRun(state) || r.error.empty() || !r.openFile.empty() || r.generation != r.shownGeneration) return;
  if (r.refusedHere.empty()) return;
  state.shown = Shown{};
  state.playback.playing = false;
  state.intents.push_back(ShowPanel{std::string(panelName(PanelId::Occupancy))});
}

// A lesson page's own commands run like a script while the user keeps control; a page that
// fails says so in the Lesson panel.
void tickLessonPage(std::optional<ScriptRunner>& page, AppState& state, bool runPending) {
  if (!page) return;
  ScriptRequests none;  // pages set the view up; they take no screenshots
  if (auto s = page->tick(state, runPending, none); !s) {
    state.lesson.error = s.error().message;
    page.reset();
  } else if (page->finished()) {
    page.reset();
  }
}

// A page just opened: its commands replace whatever the previous page had left to do.
void startPendingLessonPage(std::optional<ScriptRunner>& page, AppState& state) {
  if (state.lesson.pendingScript.empty()) return;
  std::string text;
  for (const std::string& l : state.lesson.pendingScript) text += l + "\n";
  if (auto parsed = parseScript(state.lesson.pendingName, text)) page.emplace(std::move(*parsed));
  else state.lesson.error = parsed.error().message;
  state.lesson.pendingScript.clear();
}

// What the style was built for: fonts and ImGui's style are rebuilt when one of these changes.
struct StyleKey {
  bool built = false, presentation = false;
  float fontScale = 0.0f;
  Palette palette{};
};

void refreshStyle(Fonts& fonts, const AppState& state, StyleKey& key, float ratio) {
  if (key.built && key.fontScale == state.view.fontScale && key.presentation == state.view.presentation &&
      key.palette == state.view.palette && fonts.builtScale == state.view.fontScale && fonts.builtRatio == ratio)
    return;
  if (fonts.builtScale != state.view.fontScale || fonts.builtRatio != ratio) buildFonts(fonts, state.view.fontScale, ratio);
  applyImGuiStyle(state.theme, state.view.presentation, state.view.fontScale);
  key = {true, state.view.presentation, state.view.fontScale, state.view.palette};
}

// How this frame is drawn: for a person or a script, on screen or offscreen at an export's size.
struct FrameTarget {
  bool interactive = false, offscreen = false;
  int width = 0, height = 0;
  bool readsPixels = false;  // a screenshot is taken from it (a PNG export or an animation: drawFrame asks)
};

// The panels, drawn by ImGui and the grids into the window (or the export's target), and the
// animation frame captured from it (fbWidth x fbHeight: the window's); false: the window drew nothing.
bool drawFrame(AppState& state, FrameLayout& layout, AnimationExportJob& animation, GridPainter& grids, Fonts& fonts,
               gfx::OffscreenTarget& exportTarget, platform::Window& window, const FrameTarget& frame, int& fbWidth,
               int& fbHeight, FrameClock& clock) {
  window.newImGuiFrame();
  // Scripted frames must not depend on where the pointer happens to be (tooltips, hovers).
  if (!frame.interactive || animation.active) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  if (frame.offscreen) {  // an export's own size, one pixel per layout pixel
    ImGui::GetIO().DisplaySize = ImVec2(float(frame.width), float(frame.height));
    ImGui::GetIO().DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  }
  ImGui::NewFrame();
  layout = {};
  PanelContext ctx{state, state.intents, grids, layout, fonts.mono, fonts.code, fonts.caption};
  drawPanels(ctx);
  state.view.activeTab.clear();
  ImGui::Render();
  clock.handedOver = clockSeconds();  // the app's work is done: the draw lists go to the driver
  clock.cpuHandedOver = threadCpuSeconds();
  grids.flush();  // the grids' canvases, rasterised by the driver like the rest

  window.framebufferSize(fbWidth, fbHeight);
  const Rgba bg = state.theme.background;
  const float bgR = float(bg & 0xff) / 255.f, bgG = float((bg >> 8) & 0xff) / 255.f, bgB = float((bg >> 16) & 0xff) / 255.f;
  bool intoExport = frame.offscreen;
  if (intoExport) {
    if (auto s = exportTarget.begin(frame.width, frame.height, bgR, bgG, bgB); !s) {
      intoExport = false;  // drawn whole into the window instead
      animation = {};
      state.view.exported = s.error().message;
      state.view.exportFailed = true;
    }
  }
  if (intoExport) {
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  } else {
    // A page's canvas keeps its picture: a frame draws only what changed in it, and nothing when
    // it is the same, unless its pixels are read after it (then whole; the Export PNG button
    // asks while the panels draw).
    const bool readsPixels = frame.readsPixels || animation.active || !state.view.pngExport.empty() || frame.offscreen;
    if (!window.drawPicture(*ImGui::GetDrawData(), {fbWidth, fbHeight, bg, grids.redraws()}, readsPixels)) return false;
  }
  captureAnimationFrame(animation, state, frame.offscreen ? frame.width : fbWidth, frame.offscreen ? frame.height : fbHeight);
  if (frame.offscreen) exportTarget.end();
  return true;
}

// What a script or a button asked this frame to write: the layout file, a PNG of the frame, the
// --screenshot once a picture has settled (which then ends the session). `sceneSettled`: no
// lesson page or address still setting the scene up and no run awaited, so a --screenshot of a
// lesson page is the page's own scene (its seek and step lines done), not its first phase.
Status writeRequestedFiles(ScriptRequests& requests, AppState& state, const FrameLayout& layout,
                           const std::string& screenshotPath, bool sceneSettled, int& settle, int fbWidth,
                           int fbHeight) {
  if (!requests.layout.empty()) {
    if (auto s = writeLayout(requests.layout, state, layout, fbWidth, fbHeight); !s) return s.error();
    requests.layout.clear();
  }
  if (!state.view.pngExport.empty()) {  // the Export PNG button: this frame, as drawn
    if (auto s = gfx::saveScreenshot(state.view.pngExport, fbWidth, fbHeight); !s) {
      state.view.exported = s.error().message;
      state.view.exportFailed = true;
    } else {
      platform::offerDownload(state.view.pngExport);  // a page: the browser downloads it
    }
    state.view.pngExport.clear();
  }
  if (!sceneSettled) settle = 0;
  if (!requests.screenshot.empty() || (!screenshotPath.empty() && sceneSettled && shownRun(state) && ++settle > 2)) {
    const std::string path = requests.screenshot.empty() ? screenshotPath : requests.screenshot;
    if (auto s = gfx::saveScreenshot(path, fbWidth, fbHeight); !s) return s.error();
    std::printf("tilescope: wrote %s (%dx%d)\n", path.c_str(), fbWidth, fbHeight);
    if (requests.screenshot.empty()) state.quit = true;
    requests.screenshot.clear();
  }
  return Ok{};
}

// Live timing where this target can time (a page cannot: it says why in the Timing panel).
TimingEngineFactory timingEngineFactory() {
  if (auto why = platform::liveTimingUnavailable())
    return [why = *why]() -> Result<std::unique_ptr<TimingEngine>> { return unavailable(why); };
  return makeTimingEngine;
}

// ---------------------------------------------------------------------------------------
// [SECTION] frame loop: the Session (start, one frame, finish) and runApp
// ---------------------------------------------------------------------------------------

// One session of the app: what the frame loop keeps between frames. On the heap: in a page the
// loop outlives runApp's stack (platform/frame_loop.h). Members in the order they are made;
// destroyed in reverse, GL objects before the window.
class Session {
 public:
  explicit Session(const AppOptions& options) : options_(options) {}
  int start();    // 0, or the exit code of a session that cannot start
  bool frame();   // false: the session is over
  int finish();   // the exit code
  void copyLink();

 private:
  Status loadScripts();
  void queueStart();
  bool drawAndWrite(bool newPicture, double start);
  // Whether a screenshot is taken of this frame once it is drawn (writeRequestedFiles).
  bool readsPixels() const { return !requests_.screenshot.empty() || !screenshotPath_.empty(); }
  // Every frame drawn, not only those read (Window::setWatched): a person, or timed frames (--frames, --report, `report`).
  bool watched() const { return interactive_ || options_.frames > 0 || options_.report || (script_ && script_->timesFrames()); }
  // An unwatched script's line waits for a `busy` worker; no lesson page, export or play needs frames.
  bool scriptWaitsUnwatched(bool busy) const {
    return busy && script_ && script_->waitsForWork() && !watched() && !lessonPage_ && state_.lesson.pendingScript.empty() &&
           !animation_.active && !state_.playback.playing;
  }
  void end(int code, const std::string& message);  // a failure: print it, stop

  const AppOptions options_;
  std::optional<ScriptRunner> script_;
  // A lesson page's own commands, and the scene a page's address asked for: run like a
  // script, but the user keeps control meanwhile.
  std::optional<ScriptRunner> lessonPage_;
  bool interactive_ = true;
  std::unique_ptr<platform::Window> window_;
  std::optional<gfx::GridRenderer> renderer_;
  std::optional<GridPainter> grids_;
  Fonts fonts_;
  gfx::OffscreenTarget exportTarget_;  // animation exports at a size other than the window's
  std::optional<RunWorker> worker_;
  std::optional<TimingWorker> timingWorker_;  // the Timing panel's sweeps, and its recorded results
  AppState state_;
  FrameLayout layout_;             // what the last frame drew (the layout file's contents)
  AnimationExportJob animation_;  // an animated GIF or PNG sequence being written (animation_export.h)
  FrameStats stats_;
  ScriptRequests requests_;
  std::string screenshotPath_;
  int exitCode_ = 0, frame_ = 0, settle_ = 0;
  StyleKey style_;
  FrameClock clock_;  // this frame's times (the app's own work: start to draw lists handed over)
  double last_ = 0.0;
};

Status Session::loadScripts() {
  if (!options_.script.empty() || !options_.scriptText.empty()) {
    auto loaded = options_.script.empty() ? parseScript("script", options_.scriptText) : loadScript(options_.script);
    if (!loaded) return loaded.error();
    script_.emplace(std::move(*loaded));
  }
  return Ok{};
}

void Session::end(int code, const std::string& message) {
  std::fprintf(stderr, "tilescope: %s\n", message.c_str());
  exitCode_ = code;
  if (script_) platform::announceScriptEnd(false, message);
}

int Session::start() {
  if (auto s = loadScripts(); !s) {
    std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
    platform::announceScriptEnd(false, s.error().message);
    return 2;
  }
  interactive_ = !script_ && options_.screenshot.empty() && options_.frames < 0;
  platform::setDownloadsEnabled(interactive_);
  auto window = platform::Window::open({options_.width, options_.height, interactive_});
  if (!window) {
    end(3, window.error().message);
    return 3;
  }
  window_ = std::move(*window);
  window_->setWatched(watched());
  auto renderer = gfx::GridRenderer::create(options_.shaderDir);
  if (!renderer) {
    end(3, renderer.error().message);
    return 3;
  }
  renderer_.emplace(std::move(*renderer));
  grids_.emplace(*renderer_);
  worker_.emplace();
  worker_->onHandOver([] { platform::Window::wake(); });
  timingWorker_.emplace(defaultRecordedTimingsPath(), timingEngineFactory());
  findFonts(fonts_, state_);
  state_.now = clockSeconds();
  initLabState(state_.lab);  // the Lab tab: the text autosaved last time, exercises, progress
  queueStart();
  screenshotPath_ = options_.screenshot;
  last_ = clockSeconds();
  return 0;
}

void Session::queueStart() {
  if (options_.open.empty()) {
    state_.intents.push_back(ApplyPreset{options_.preset});
    // A page's address: its run's settings, read onto the preset's launch (app_options.h).
    if (options_.sceneConfig) state_.intents.push_back(SetConfig{*options_.sceneConfig});
  } else
    state_.intents.push_back(OpenTraceFile{options_.open});
  if (!options_.lesson.empty()) state_.intents.push_back(OpenLesson{options_.lesson});
  if (!options_.lesson.empty() && options_.lessonPage > 0) state_.intents.push_back(LessonGoTo{options_.lessonPage});
  if (options_.presenter) state_.intents.push_back(SetPresenter{true});
  if (options_.play) state_.intents.push_back(SetPlaying{true});
  if (!options_.labExercise.empty()) {  // lab=ID: kept when the autosave restored the student's work on it
    if (state_.lab.exercise != options_.labExercise) state_.intents.push_back(LabIntent{LabOpenExercise{options_.labExercise}});
    state_.intents.push_back(ShowPanel{"Lab"});
  }
  state_.view.addressNotice = options_.addressNotice;  // what the address asked that it could not have
  // A page's file picker and "Copy link" button (the desktop has neither); a .cu opens in the Lab tab.
  platform::setOpenFileHandler([this](const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    if (ext != ".cu" && ext != ".cuh") return state_.intents.push_back(OpenTraceFile{path});
    state_.intents.push_back(LabIntent{LabOpenFile{path}});
    state_.intents.push_back(ShowPanel{"Lab"});
  });
  platform::setCopyLinkHandler([this] { copyLink(); });
}

void Session::copyLink() {
  const auto base = platform::pageAddressBase();
  if (!base) return;
  const std::string link = *base + "?" + sceneQuery(state_);
  state_.view.exported = platform::copyLink(link) ? "copied the link " + link : "the link (copy it from the address bar): " + link;
  state_.view.exportFailed = false;
}

bool Session::frame() {
  AppState& state = state_;
  RunWorker& worker = *worker_;
  TimingWorker& timingWorker = *timingWorker_;
  double start = clockSeconds();
  clock_.cpuStart = threadCpuSeconds();
  const bool awaitingRun = state.request.generation != state.request.shownGeneration;
  const bool busy = !worker.idle() || awaitingRun || timingWorker.busy() || animation_.active;
  // Only a run awaited: the old picture, drawn again, would take the cores the run needs (the
  // software rasteriser's threads too). The worker wakes the loop as it hands the run over; a
  // tenth of a second at most keeps the "running" note alive for a long one. Unseen frames of a
  // script waiting for any worker: one a hundredth of a second. A frame starts when its wait ends.
  const bool onlyRun = awaitingRun && !timingWorker.busy() && !animation_.active && !state.playback.playing && !lessonPage_;
  if (const double wait = onlyRun ? 0.1 : scriptWaitsUnwatched(busy) ? 0.01 : 0.0; wait > 0) {
    window_->waitEvents(wait);
    start = clockSeconds();
    clock_.cpuStart = threadCpuSeconds();
  } else {
    window_->pollEvents(interactive_ && !busy && !state.playback.playing);
  }
  state.now = clockSeconds();
  if (window_->closeRequested()) state.quit = true;
  takeDeviceFacts(state, worker);

  if (ImGui::GetCurrentContext() && fonts_.builtScale > 0) {
    shortcuts(state);
    if (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(GLFW_KEY_L, false)) copyLink();
  }
  const bool runPending = !worker.idle() || state.request.generation != state.request.shownGeneration;
  tickLessonPage(lessonPage_, state, runPending);
  if (script_) {
    const bool runPending = !worker.idle() || state.request.generation != state.request.shownGeneration ||
                            !timingWorker.probed() || lessonPage_ || !state.lesson.pendingScript.empty() ||
                            animation_.active;
    if (auto s = script_->tick(state, runPending, requests_); !s) {
      end(1, s.error().message);
      return false;
    }
    // A script that ends without quitting hands the window to the person at it (--help: "then
    // keep running"): the pointer counts again and the loop waits for input when idle.
    if (script_->finished() && !interactive_ && options_.screenshot.empty() && options_.frames < 0) {
      interactive_ = true;
      platform::setDownloadsEnabled(true);
      window_->setWatched(true);
    }
  }
  applyExportIntents(applyIntents(state, worker), state, animation_);
  startPendingLessonPage(lessonPage_, state);
  const bool newPicture = collectRun(state, worker);
  dropRunRefusedForSize(state);
  // A --open file that did not open leaves nothing to show: a session without a person
  // (script, --screenshot, --frames) would wait for a picture forever, so it stops here.
  if (!interactive_ && !shownRun(state) && !state.request.openFile.empty() && !state.request.error.empty()) {
    end(1, "cannot open the trace file: " + state.request.error);
    return false;
  }
  syncTiming(state.timing, state.lab, timingWorker);
  tickLabAutosave(state.lab, state.now);  // unsaved lab work survives a crash
  // Benchmarks loop the animation so every measured frame is a playing frame.
  if (options_.play && options_.frames > 0 && !state.playback.playing && shownRun(state))
    state.intents.push_back(SetPlaying{true});
  advancePlayback(state, std::min(state.now - last_, 0.1));
  last_ = state.now;
  return drawAndWrite(newPicture, start);
}

// The frame drawn (offscreen at an export's size, else into the window), the files it was
// asked for written, its time measured.
bool Session::drawAndWrite(bool newPicture, double start) {
  AppState& state = state_;
  int drawWidth = 0, drawHeight = 0;
  window_->framebufferSize(drawWidth, drawHeight);
  const bool offscreen = animation_.active && animation_.request.width > 0;
  if (offscreen) drawWidth = animation_.request.width, drawHeight = animation_.request.height;
  // The projector layout's text follows the height drawn at, in layout pixels (a page's CSS pixels).
  // (Presentation mode keeps its panels side by side: a smaller share, h / 617, 1.75 at 1080.)
  const float ratio = offscreen ? 1.0f : window_->pixelRatio();
  const float layoutHeight = float(drawHeight) / ratio;
  if (state.lesson.presenter) state.view.fontScale = presenterFontScale(layoutHeight);
  else if (state.view.fontScaleFromScreen) state.view.fontScale = std::clamp(layoutHeight / 617.0f, 1.0f, 3.0f);
  prepareAnimationFrame(animation_, state);

  refreshStyle(fonts_, state, style_, window_->pixelRatio());
  window_->setFullscreen(state.view.fullscreen);
  window_->setTitle(exportProgressTitle(animation_));  // export progress

  int fbWidth = 0, fbHeight = 0;
  const bool pictureDrawn = drawFrame(state, layout_, animation_, *grids_, fonts_, exportTarget_, *window_,
                                      {interactive_, offscreen, drawWidth, drawHeight, readsPixels()}, fbWidth, fbHeight, clock_);

  const bool sceneSettled = !lessonPage_ && state.lesson.pendingScript.empty() && worker_->idle() &&
                            state.request.generation == state.request.shownGeneration;
  if (auto s = writeRequestedFiles(requests_, state, layout_, screenshotPath_, sceneSettled, settle_, fbWidth, fbHeight);
      !s) {
    end(1, s.error().message);
    return false;
  }
  if (!grids_->lastError().empty()) {
    end(3, grids_->lastError());
    return false;
  }
  if (pictureDrawn) window_->swapBuffers();
  if (shownRun(state)) platform::announceFirstPicture();

  const double drawn = clockSeconds();
  if (newPicture) {
    state.lastPictureLatency = drawn - state.request.requestedAt;
    state.pictureLatencies.push_back(state.lastPictureLatency);
  }
  // Frames before the first run arrives draw nothing but "running": they would flatter the report.
  const bool measured = shownRun(state) != nullptr;
  if (measured) {
    stats_.frameSeconds.push_back(drawn - start);
    stats_.appSeconds.push_back(clock_.handedOver - start);
    stats_.appCpuSeconds.push_back(clock_.cpuHandedOver - clock_.cpuStart);
  }
  if (requests_.report) {
    std::printf("%s\n", frameReport(stats_, state).c_str());
    requests_.report = false;
  }
  if (measured) ++frame_;
  if (options_.frames > 0 && frame_ >= options_.frames && (!script_ || script_->finished())) state.quit = true;
  if (script_ && script_->finished() && !state.quit) platform::announceScriptEnd(true, "");
  return !state.quit;
}

int Session::finish() {
  if (options_.report) std::printf("%s\n", frameReport(stats_, state_).c_str());
  if (state_.lab.edits != state_.lab.autosavedEdits)
    if (auto saved = writeLabAutosave(state_.lab); !saved)
      std::fprintf(stderr, "tilescope: lab autosave: %s\n", saved.error().message.c_str());
  if (script_ && exitCode_ == 0) platform::announceScriptEnd(true, "");
  return exitCode_;
}

}  // namespace

int runApp(const AppOptions& options) {
  auto session = std::make_shared<Session>(options);
  if (const int code = session->start(); code != 0) return code;
  return platform::runFrameLoop([session] { return session->frame(); }, [session] { return session->finish(); });
}

}  // namespace tilescope::ui
