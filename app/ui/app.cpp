// [SECTION] platform: GLFW window, GL context, ImGui backends, fonts
// [SECTION] keyboard shortcuts
// [SECTION] frame loop
#include "app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "ui/export/animation_export.h"
#include "ui/state/apply_intents.h"
#include "font_finder.h"
#include "ui/export/frame_report.h"
#include "gfx/gl_context.h"
#include "gfx/grid_renderer.h"
#include "gfx/screenshot.h"
#include "ui/panels/panels.h"
#include "ui/script/script.h"
#include "ui/workers/timing_worker.h"

namespace tilescope::ui {
namespace {

// ---------------------------------------------------------------------------------------
// [SECTION] platform
// ---------------------------------------------------------------------------------------

std::string g_glfwError;  // GLFW reports errors through a C callback with no user pointer

void onGlfwError(int, const char* description) { g_glfwError = description ? description : "unknown GLFW error"; }

struct Fonts {
  Result<FontFile> sansFile = unavailable("not looked up");
  Result<FontFile> monoFile = unavailable("not looked up");
  ImFont* sans = nullptr;
  ImFont* mono = nullptr;
  std::vector<ImFont*> code;  // mono at the Source panel's sizes, largest first
  ImFont* caption = nullptr;  // the step in words
  float builtScale = 0.0f;
};

// Once per session: fontconfig's answer does not change while the app runs, and the message
// about a fallback should appear once, not at every font-scale change.
void findFonts(Fonts& fonts, AppState& state) {
  fonts.sansFile = findFont(FontRole::Sans);
  fonts.monoFile = findFont(FontRole::Mono);
  for (const auto* f : {&fonts.sansFile, &fonts.monoFile})
    if (!*f)
      std::fprintf(stderr, "tilescope: %s; using Dear ImGui's built-in font for %s\n", f->error().message.c_str(),
                   f == &fonts.sansFile ? "the interface" : "source code");
  state.fonts.sans = fonts.sansFile ? fonts.sansFile->path : "";
  state.fonts.mono = fonts.monoFile ? fonts.monoFile->path : "";
}

ImFont* addFont(const Result<FontFile>& file, float px) {
  ImGuiIO& io = ImGui::GetIO();
  if (file) {
    ImFontConfig config;
    config.FontNo = file->index;
    if (ImFont* font = io.Fonts->AddFontFromFileTTF(file->path.c_str(), px, &config)) return font;
  }
  ImFontConfig config;  // ImGui's built-in bitmap font, scaled
  config.SizePixels = std::round(13.0f * px / kBaseFontPx);
  return io.Fonts->AddFontDefault(&config);
}

// Rebuilds the font atlas at the new scale: crisp text at 1x-3x instead of stretched pixels.
void buildFonts(Fonts& fonts, float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  fonts.sans = addFont(fonts.sansFile, std::round(kBaseFontPx * scale));
  fonts.mono = addFont(fonts.monoFile, std::round(kBaseFontPx * scale));
  // The Source panel picks the largest of these that shows the whole kernel (presenter layout).
  fonts.code.assign(1, fonts.mono);
  for (float f : {0.9f, 0.8f, 0.72f, 0.65f, 0.58f, 0.52f})
    if (const float px = std::round(kBaseFontPx * scale * f); px >= 10.0f) fonts.code.push_back(addFont(fonts.monoFile, px));
  fonts.caption = addFont(fonts.sansFile, std::round(kBaseFontPx * scale * 1.15f));
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  fonts.builtScale = scale;
}

struct Platform {
  GLFWwindow* window = nullptr;
  bool imguiGlfw = false, imguiGl = false;
  int windowedX = 0, windowedY = 0, windowedW = 0, windowedH = 0;
  bool fullscreen = false;
  std::string title = "tilescope";  // as set on the window (an export's progress shows there)
  ~Platform() {
    if (imguiGl) ImGui_ImplOpenGL3_Shutdown();
    if (imguiGlfw) ImGui_ImplGlfw_Shutdown();
    if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
    if (window) glfwDestroyWindow(window);
    glfwTerminate();
  }
};

Result<gfx::GlInfo> openWindow(Platform& p, const AppOptions& options, bool interactive) {
  glfwSetErrorCallback(onGlfwError);
  if (!glfwInit())
    return unavailable("cannot open a window (no display?): " + g_glfwError +
                       "\n  run under a desktop session, or headless with: xvfb-run -s \"-screen 0 1280x800x24\" tilescope ...");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (!interactive) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  p.window = glfwCreateWindow(options.width, options.height, "tilescope", nullptr, nullptr);
  if (!p.window) return unavailable("cannot create an OpenGL 3.3 core window: " + g_glfwError);
  glfwMakeContextCurrent(p.window);
  // Scripts and reports measure our frame time, not the display's refresh.
  glfwSwapInterval(interactive ? 1 : 0);
  auto gl = gfx::loadGl(reinterpret_cast<gfx::GlProcLoader>(glfwGetProcAddress));
  if (!gl) return gl.error();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  p.imguiGlfw = ImGui_ImplGlfw_InitForOpenGL(p.window, true);
  p.imguiGl = ImGui_ImplOpenGL3_Init("#version 330 core");
  if (!p.imguiGlfw || !p.imguiGl) return unavailable("cannot start Dear ImGui's GLFW/OpenGL3 backends");
  return gl;
}

void syncFullscreen(Platform& p, bool want) {
  if (want == p.fullscreen) return;
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (want && mode) {
    glfwGetWindowPos(p.window, &p.windowedX, &p.windowedY);
    glfwGetWindowSize(p.window, &p.windowedW, &p.windowedH);
    glfwSetWindowMonitor(p.window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (!want) {
    glfwSetWindowMonitor(p.window, nullptr, p.windowedX, p.windowedY, p.windowedW, p.windowedH, 0);
  }
  p.fullscreen = want;
}

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

double clockSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// What the run worker found out about CUDA and the device, for the panels to say.
void takeDeviceFacts(AppState& state, RunWorker& worker) {
  if (auto reason = worker.cudaUnavailableReason()) state.cudaUnavailable = *reason;
  else state.cudaUnavailable.clear();
  if (!state.analysis.device) {
    if (auto device = worker.deviceProfile()) state.analysis.device = std::move(*device);
    else state.analysis.noDevice = device.error().message;
  }
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

void refreshStyle(Fonts& fonts, const AppState& state, StyleKey& key) {
  if (key.built && key.fontScale == state.view.fontScale && key.presentation == state.view.presentation &&
      key.palette == state.view.palette && fonts.builtScale == state.view.fontScale)
    return;
  if (fonts.builtScale != state.view.fontScale) buildFonts(fonts, state.view.fontScale);
  applyImGuiStyle(state.theme, state.view.presentation, state.view.fontScale);
  key = {true, state.view.presentation, state.view.fontScale, state.view.palette};
}

// How this frame is drawn: for a person or a script, on screen or offscreen at an export's size.
struct FrameTarget {
  bool interactive = false, offscreen = false;
  int width = 0, height = 0;
};

// The panels, drawn by ImGui and the grids into the window (or the export's target), and the
// animation frame captured from it; fbWidth x fbHeight is the window's framebuffer.
void drawFrame(AppState& state, GridPainter& grids, Fonts& fonts, gfx::OffscreenTarget& exportTarget,
               Platform& platform, const FrameTarget& frame, int& fbWidth, int& fbHeight) {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // Scripted frames must not depend on where the pointer happens to be (tooltips, hovers).
  if (!frame.interactive || state.animationExport.active) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  if (frame.offscreen) ImGui::GetIO().DisplaySize = ImVec2(float(frame.width), float(frame.height));
  ImGui::NewFrame();
  state.layout = {};
  PanelContext ctx{state, state.intents, grids, state.layout, fonts.mono, fonts.code, fonts.caption};
  drawPanels(ctx);
  state.view.activeTab.clear();
  ImGui::Render();

  glfwGetFramebufferSize(platform.window, &fbWidth, &fbHeight);
  const Rgba bg = state.theme.background;
  const float bgR = float(bg & 0xff) / 255.f, bgG = float((bg >> 8) & 0xff) / 255.f, bgB = float((bg >> 16) & 0xff) / 255.f;
  if (frame.offscreen) {
    if (auto s = exportTarget.begin(frame.width, frame.height, bgR, bgG, bgB); !s) {
      gfx::beginFrame(fbWidth, fbHeight, bgR, bgG, bgB);
      state.animationExport = {};
      state.view.exported = s.error().message;
      state.view.exportFailed = true;
    }
  } else {
    gfx::beginFrame(fbWidth, fbHeight, bgR, bgG, bgB);
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  captureAnimationFrame(state, frame.offscreen ? frame.width : fbWidth, frame.offscreen ? frame.height : fbHeight);
  if (frame.offscreen) exportTarget.end();
}

// What a script or a button asked this frame to write: the layout file, a PNG of the frame, the
// --screenshot once a picture has settled (which then ends the session).
Status writeRequestedFiles(ScriptRequests& requests, AppState& state, const std::string& screenshotPath, int& settle,
                           int fbWidth, int fbHeight) {
  if (!requests.layout.empty()) {
    if (auto s = writeLayout(requests.layout, state, fbWidth, fbHeight); !s) return s.error();
    requests.layout.clear();
  }
  if (!state.view.pngExport.empty()) {  // the Export PNG button: this frame, as drawn
    if (auto s = gfx::saveScreenshot(state.view.pngExport, fbWidth, fbHeight); !s) {
      state.view.exported = s.error().message;
      state.view.exportFailed = true;
    }
    state.view.pngExport.clear();
  }
  if (!requests.screenshot.empty() || (!screenshotPath.empty() && shownRun(state) && ++settle > 2)) {
    const std::string path = requests.screenshot.empty() ? screenshotPath : requests.screenshot;
    if (auto s = gfx::saveScreenshot(path, fbWidth, fbHeight); !s) return s.error();
    std::printf("tilescope: wrote %s (%dx%d)\n", path.c_str(), fbWidth, fbHeight);
    if (requests.screenshot.empty()) state.quit = true;
    requests.screenshot.clear();
  }
  return Ok{};
}

}  // namespace

// ---------------------------------------------------------------------------------------
// [SECTION] frame loop
// ---------------------------------------------------------------------------------------

int runApp(const AppOptions& options) {
  std::optional<ScriptRunner> script;
  if (!options.script.empty()) {
    auto loaded = loadScript(options.script);
    if (!loaded) {
      std::fprintf(stderr, "tilescope: %s\n", loaded.error().message.c_str());
      return 2;
    }
    script.emplace(std::move(*loaded));
  }
  const bool interactive = !script && options.screenshot.empty() && options.frames < 0;

  Platform platform;
  auto gl = openWindow(platform, options, interactive);
  if (!gl) {
    std::fprintf(stderr, "tilescope: %s\n", gl.error().message.c_str());
    return 3;
  }
  auto renderer = gfx::GridRenderer::create(options.shaderDir);
  if (!renderer) {
    std::fprintf(stderr, "tilescope: %s\n", renderer.error().message.c_str());
    return 3;
  }
  Fonts fonts;
  GridPainter grids(*renderer);
  gfx::OffscreenTarget exportTarget;  // animation exports at a size other than the window's
  RunWorker worker;
  TimingWorker timingWorker;  // the Timing panel's sweeps, and its recorded results
  AppState state;
  findFonts(fonts, state);
  state.now = clockSeconds();
  initLabState(state.lab);  // the Lab tab: the text autosaved last time, exercises, progress
  if (options.open.empty())
    state.intents.push_back(ApplyPreset{options.preset});
  else
    state.intents.push_back(OpenTraceFile{options.open});
  if (!options.lesson.empty()) state.intents.push_back(OpenLesson{options.lesson});
  if (options.presenter) state.intents.push_back(SetPresenter{true});
  // A lesson page's own commands: run like a script, but the user keeps control meanwhile.
  std::optional<ScriptRunner> lessonPage;
  if (options.play) state.intents.push_back(SetPlaying{true});
  FrameStats stats;
  ScriptRequests requests;
  std::string screenshotPath = options.screenshot;
  int exitCode = 0, frame = 0, settle = 0;
  StyleKey style;
  double last = clockSeconds();

  while (!state.quit) {
    const double start = clockSeconds();
    const bool busy = !worker.idle() || state.request.generation != state.request.shownGeneration ||
                      timingWorker.busy() || state.animationExport.active;
    if (interactive && !busy && !state.playback.playing) glfwWaitEventsTimeout(0.25);  // idle: sleep until input
    else glfwPollEvents();
    state.now = clockSeconds();
    if (glfwWindowShouldClose(platform.window)) state.quit = true;
    takeDeviceFacts(state, worker);

    if (ImGui::GetCurrentContext() && fonts.builtScale > 0) shortcuts(state);
    const bool runPending = !worker.idle() || state.request.generation != state.request.shownGeneration;
    tickLessonPage(lessonPage, state, runPending);
    if (script) {
      const bool runPending = !worker.idle() || state.request.generation != state.request.shownGeneration ||
                              !timingWorker.probed() || lessonPage || !state.lesson.pendingScript.empty() ||
                              state.animationExport.active;
      if (auto s = script->tick(state, runPending, requests); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        exitCode = 1;
        break;
      }
    }
    applyIntents(state, worker);
    startPendingLessonPage(lessonPage, state);
    const bool newPicture = collectRun(state, worker);
    // A --open file that did not open leaves nothing to show: a session without a person
    // (script, --screenshot, --frames) would wait for a picture forever, so it stops here.
    if (!interactive && !shownRun(state) && !state.request.openFile.empty() && !state.request.error.empty()) {
      std::fprintf(stderr, "tilescope: cannot open the trace file: %s\n", state.request.error.c_str());
      exitCode = 1;
      break;
    }
    syncTiming(state, timingWorker);
    tickLabAutosave(state.lab, state.now);  // unsaved lab work survives a crash
    // Benchmarks loop the animation so every measured frame is a playing frame.
    if (options.play && options.frames > 0 && !state.playback.playing && shownRun(state))
      state.intents.push_back(SetPlaying{true});
    advancePlayback(state, std::min(state.now - last, 0.1));
    last = state.now;

    // An animation export at a chosen size draws offscreen at that size; the projector layout's
    // text follows the height drawn at.
    int drawWidth = 0, drawHeight = 0;
    glfwGetFramebufferSize(platform.window, &drawWidth, &drawHeight);
    const bool offscreen = state.animationExport.active && state.animationExport.request.width > 0;
    if (offscreen) drawWidth = state.animationExport.request.width, drawHeight = state.animationExport.request.height;
    if (state.lesson.presenter || state.view.fontScaleFromScreen) state.view.fontScale = presenterFontScale(float(drawHeight));
    prepareAnimationFrame(state);

    refreshStyle(fonts, state, style);
    syncFullscreen(platform, state.view.fullscreen);
    if (std::string title = exportProgressTitle(state); title != platform.title) {  // export progress
      glfwSetWindowTitle(platform.window, title.c_str());
      platform.title = std::move(title);
    }

    int fbWidth = 0, fbHeight = 0;
    drawFrame(state, grids, fonts, exportTarget, platform, {interactive, offscreen, drawWidth, drawHeight}, fbWidth, fbHeight);

    if (auto s = writeRequestedFiles(requests, state, screenshotPath, settle, fbWidth, fbHeight); !s) {
      std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
      exitCode = 1;
      break;
    }
    if (!grids.lastError().empty()) {
      std::fprintf(stderr, "tilescope: %s\n", grids.lastError().c_str());
      exitCode = 3;
      break;
    }
    glfwSwapBuffers(platform.window);

    const double end = clockSeconds();
    if (newPicture) {
      state.lastPictureLatency = end - state.request.requestedAt;
      state.pictureLatencies.push_back(state.lastPictureLatency);
    }
    // Frames before the first run arrives draw nothing but "running": they would flatter the report.
    const bool measured = shownRun(state) != nullptr;
    if (measured) stats.frameSeconds.push_back(end - start);
    if (requests.report) {
      std::printf("%s\n", frameReport(stats, state).c_str());
      requests.report = false;
    }
    if (measured) ++frame;
    if (options.frames > 0 && frame >= options.frames && (!script || script->finished())) state.quit = true;
  }
  if (options.report) std::printf("%s\n", frameReport(stats, state).c_str());
  if (state.lab.edits != state.lab.autosavedEdits)
    if (auto saved = writeLabAutosave(state.lab); !saved)
      std::fprintf(stderr, "tilescope: lab autosave: %s\n", saved.error().message.c_str());
  return exitCode;
}

}  // namespace tilescope::ui
