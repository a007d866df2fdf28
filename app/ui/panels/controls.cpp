// Controls: what runs (kernel, sizes, tile width or block shape, seed, backend), which block
// is shown, the presets, and the classroom options. Every change is an intent; the kernel
// re-runs off the UI thread and the views switch when its result arrives. What it says of the
// run on screen (its phase, the run in one line) is the view's (model/controls_view.h).
#include <imgui.h>

#include <algorithm>
#include <array>
#include <string>

#include "platform/page.h"
#include "ui/model/presets.h"
#include "ui/model/start_page.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/workers/replay.h"

namespace tilescope::ui {
namespace {

constexpr int kMaxUiSize = 512;  // sliders stop here; larger sizes are typed (and refused past the trace cap)

void sectionTitle(const char* text) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", text);
  ImGui::Separator();
}

void presetButtons(PanelContext& ctx, int first, int last, bool sameLine) {
  const auto all = presets();
  for (int i = first; i < last && i < int(all.size()); ++i) {
    const Preset& p = all[std::size_t(i)];
    const std::string label(p.label);
    if (sameLine && i > first) sameLineIfFits(ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::Button(label.c_str())) ctx.emit(ApplyPreset{std::string(p.name)});
    if (ImGui::IsItemHovered()) tooltip(std::string(p.tip));
  }
}

// A path field and a button (ImGui has no file dialog): a .tstrace from tilescope-cli save.
void openTraceField(PanelContext& ctx) {
  sectionTitle("Open trace file");
  std::array<char, 1024> path{};
  ctx.state.view.tracePath.copy(path.data(), path.size() - 1);
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 4.0f);
  const bool enter = ImGui::InputTextWithHint("##trace file", "lecture.tstrace", path.data(), path.size(),
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::PopItemWidth();
  // EnterReturnsTrue reports only Enter, so edits are picked up by comparing with the state.
  if (path.data() != ctx.state.view.tracePath) ctx.emit(EditTracePath{path.data()});
  if (ImGui::IsItemHovered()) tooltip("a trace saved by tilescope-cli save --file F.tstrace, e.g. on a GPU machine");
  ImGui::SameLine();
  ImGui::BeginDisabled(path[0] == 0);
  if ((ImGui::Button("Open") || enter) && path[0] != 0) ctx.emit(OpenTraceFile{path.data()});
  ImGui::EndDisabled();
}

// Follow a thread, and the load-count shading of M and N (README.md, "For teachers").
void classroomViews(PanelContext& ctx) {
  const ViewOptions& v = ctx.state.view;
  constexpr const char* kShading[] = {"auto (above 16x16)", "on", "off"};
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 5.5f);
  if (ImGui::BeginCombo("shading", kShading[int(v.loadShading)])) {
    for (int i = 0; i < 3; ++i)
      if (ImGui::Selectable(kShading[i], int(v.loadShading) == i)) ctx.emit(SetLoadShading{LoadShading(i)});
    ImGui::EndCombo();
  }
  ImGui::PopItemWidth();
  if (ImGui::IsItemHovered()) tooltip("shade every element of M and N by how often it has been loaded from global memory, all blocks");
  if (v.followX >= 0) {
    const std::string label = "stop following thread (" + std::to_string(v.followX) + "," + std::to_string(v.followY) + ")";
    if (ImGui::Button(label.c_str())) ctx.emit(FollowThread{-1, -1});
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrappedF("click a thread (Thread block) or a P cell to follow it");
    ImGui::PopStyleColor();
  }
}

// The animation between two cursor positions as a GIF or numbered PNGs (animation_export.h).
// The two choices are widget state (ImGui's storage), not app state: nothing else reads them.
void animationExport(PanelContext& ctx) {
  sectionTitle("Animation (GIF, PNG frames)");
  const LoadedRun* run = shownRun(ctx.state);
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID rangeId = ImGui::GetID("animation range"), sizeId = ImGui::GetID("animation size");
  int range = storage->GetInt(rangeId, 0), size = storage->GetInt(sizeId, 0);
  const ControlsView* view = shownControlsView(ctx.state);
  const int phase = view ? view->phase : 0;
  const std::string phaseLabel = "this phase (" + std::to_string(phase) + ")";
  const char* ranges[] = {"whole run", phaseLabel.c_str(), "from here to the phase's end"};
  constexpr const char* kSizes[] = {"window size", "1280x720", "1920x1080", "640x360"};
  constexpr int kSizeWH[][2] = {{0, 0}, {1280, 720}, {1920, 1080}, {640, 360}};
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 3.0f);
  if (ImGui::Combo("range", &range, ranges, 3)) storage->SetInt(rangeId, range);
  if (ImGui::Combo("size", &size, kSizes, 4)) storage->SetInt(sizeId, size);
  ImGui::PopItemWidth();
  ExportAnimation a;
  a.range = range == 0 ? AnimationRange::Run : range == 1 ? AnimationRange::Phase : AnimationRange::Page;
  a.phase = phase;
  a.width = kSizeWH[size][0];
  a.height = kSizeWH[size][1];
  // Drawn the same while an export runs (no progress bar, nothing disabled): this panel is in
  // the exported frames. The progress is in the window's title; a second export is refused.
  ImGui::BeginDisabled(!run);
  if (ImGui::Button("GIF")) a.format = AnimationFormat::Gif, ctx.emit(a);
  if (ImGui::IsItemHovered()) tooltip("an animated GIF of the range, one frame per step at the current granularity");
  sameLineIfFits(ImGui::CalcTextSize("PNG frames").x + ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::Button("PNG frames")) a.format = AnimationFormat::Frames, ctx.emit(a);
  if (ImGui::IsItemHovered()) tooltip("numbered PNGs (frame-0000.png, ...) in a folder named after the run");
  ImGui::EndDisabled();
}

// Saving what is on screen: the run (replays with --open), its trace for Perfetto, the view.
void exportButtons(PanelContext& ctx) {
  sectionTitle("Export");
  ImGui::BeginDisabled(!shownRun(ctx.state));
  if (ImGui::Button("Trace file")) ctx.emit(ExportView{ExportKind::TraceFile, ""});
  if (ImGui::IsItemHovered()) tooltip("the run as a .tstrace: opens again with " + platform::traceReopening());
  const float pad = ImGui::GetStyle().FramePadding.x * 2;  // each button on the line where it fits whole
  sameLineIfFits(ImGui::CalcTextSize("Perfetto JSON").x + pad);
  if (ImGui::Button("Perfetto JSON")) ctx.emit(ExportView{ExportKind::ChromeJson, ""});
  if (ImGui::IsItemHovered()) tooltip("Chrome trace-event JSON: a track per warp, barriers as instants");
  sameLineIfFits(ImGui::CalcTextSize("PNG").x + pad);
  if (ImGui::Button("PNG")) ctx.emit(ExportView{ExportKind::Png, ""});
  if (ImGui::IsItemHovered()) tooltip("the window as it is now");
  ImGui::EndDisabled();
  const ViewOptions& v = ctx.state.view;
  if (!v.exported.empty()) {
    if (v.exportFailed) ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().error);
    textWrapped(v.exported);
    if (v.exportFailed) ImGui::PopStyleColor();
  }
}

// The way in, until it is used: a newcomer sees where the lessons start (not over a replayed
// trace, whose label must come first). A replayed trace says so first: the pictures below were
// recorded elsewhere, not run here.
void startHintAndReplay(PanelContext& ctx) {
  const AppState& s = ctx.state;
  const LoadedRun* shown = shownRun(s);
  if (s.view.startHint && !s.lesson.lesson() && !(shown && shown->replay)) {
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(s.theme.progressFill));
    // The start page's own (model/start_page.h): the Lesson panel's start opens the same lesson.
    const StartPage start = startPage();
    if (ImGui::Button(start.button.c_str())) ctx.emit(OpenLesson{start.lesson});
    ImGui::PopStyleColor();
    sameLineIfFits(ImGui::CalcTextSize("x").x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton("x")) ctx.emit(DismissStartHint{});
    ImGui::TextDisabled("keys: ? or F1");
    ctx.layout.startHint = true;
  }
  if (shown && shown->replay) {
    ImGui::PushStyleColor(ImGuiCol_Text, s.theme.highlight);
    textWrapped(replayLabel(*shown->replay, shown->run));
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrappedF("change a setting to run it here instead");
    ImGui::PopStyleColor();
  }
}

// The kernel and its size: true when `config` changed.
bool kernelAndSize(LaunchConfig& config) {
  bool changed = false;
  const KernelInfo& info = kernelInfo(config.kernel);
  if (ImGui::BeginCombo("kernel", std::string(info.name).c_str())) {
    for (const auto& k : kKernels) {
      if (ImGui::Selectable(std::string(k.name).c_str(), k.id == config.kernel)) {
        config = withKernel(config, k.id);
        changed = true;
      }
      if (ImGui::IsItemHovered()) tooltip(std::string(k.description));
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) tooltip(std::string(info.description));
  changed = sizeSlider(config) || changed;
  int jkl[3] = {config.dims.j, config.dims.k, config.dims.l};
  if (ImGui::InputInt3("j, k, l", jkl)) {
    config.dims = {std::clamp(jkl[0], 1, kMaxDimension), std::clamp(jkl[1], 1, kMaxDimension),
                   std::clamp(jkl[2], 1, kMaxDimension)};
    changed = true;
  }
  if (ImGui::IsItemHovered()) tooltip("M is j x k, N is k x l, P is j x l");
  return changed;
}

// The tiling, tile width or block shape (tileChoice), and the seed: true when `config` changed.
bool tilingAndSeed(LaunchConfig& config) {
  bool changed = tileChoice(config);
  int seed = int(config.seed);
  if (ImGui::InputInt("seed", &seed)) {
    config.seed = uint64_t(std::max(seed, 0));
    changed = true;
  }
  return changed;
}

// The backend (CUDA greyed out with the reason where it cannot run).
void backendChoice(PanelContext& ctx) {
  const AppState& s = ctx.state;
  const bool cudaOk = s.cudaUnavailable.empty();
  int backend = s.request.backend == BackendChoice::Cuda ? 1 : 0;
  ImGui::TextUnformatted("backend");
  // Each choice on the line where it fits whole (large text wraps "CUDA" under "emulator").
  const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
  sameLineIfFits(radio + ImGui::CalcTextSize("emulator").x);
  if (ImGui::RadioButton("emulator", backend == 0) && backend != 0) ctx.emit(SetBackend{BackendChoice::Emulator});
  sameLineIfFits(radio + ImGui::CalcTextSize("CUDA").x);
  ImGui::BeginDisabled(!cudaOk);
  if (ImGui::RadioButton("CUDA", backend == 1) && backend != 1) ctx.emit(SetBackend{BackendChoice::Cuda});
  ImGui::EndDisabled();
  if (!cudaOk && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip(s.cudaUnavailable);
  if (!s.gpuCodeNote.empty()) {  // a build for another GPU, or the check-only one: said while it runs so
    ImGui::PushStyleColor(ImGuiCol_Text, s.theme.error);
    textWrapped(s.gpuCodeNote);
    ImGui::PopStyleColor();
  }
}

// The block selector over the grid of the run on screen.
void blockSelector(PanelContext& ctx) {
  const AppState& s = ctx.state;
  const LoadedRun* run = shownRun(s);
  if (!run) return;
  const KernelLaunch& L = run->run.plan.launch;
  int b[2] = {s.shown.bx, s.shown.by};
  ImGui::BeginDisabled(L.gridX * L.gridY <= 1);
  if (ImGui::SliderInt2("block", b, 0, int(std::max(L.gridX, L.gridY)) - 1, "%d", ImGuiSliderFlags_AlwaysClamp))
    ctx.emit(SelectBlock{std::min(b[0], int(L.gridX) - 1), std::min(b[1], int(L.gridY) - 1)});
  ImGui::EndDisabled();
  ImGui::TextDisabled("grid %ux%u blocks of %ux%u threads", L.gridX, L.gridY, L.blockX, L.blockY);
}

// Status: the newest request's fate.
void requestStatus(const AppState& s) {
  if (!s.request.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, s.theme.error);
    if (!s.request.openFile.empty())  // the reader's message names the file and what is wrong
      textWrappedF("Cannot open the trace file: %s", s.request.error.c_str());
    else
      textWrappedF("Cannot run %s: %s", describe(s.request.config).c_str(), s.request.error.c_str());
    ImGui::PopStyleColor();
  } else if (s.request.generation != s.request.shownGeneration && !s.request.openFile.empty()) {
    ImGui::TextDisabled("opening %s...", s.request.openFile.c_str());
  } else if (s.request.generation != s.request.shownGeneration) {
    ImGui::TextDisabled("running %s...", s.lab.pendingGeneration == s.request.generation ? "the Lab tab's kernel"
                                                                                          : describe(s.request.config).c_str());
  } else if (const ControlsView* view = shownControlsView(s)) {
    textWrapped(view->runLine);
  }
}

void classroomSettings(PanelContext& ctx) {
  const AppState& s = ctx.state;
  sectionTitle("Classroom");
  bool presentation = s.view.presentation;
  if (ImGui::Checkbox("presentation (P)", &presentation)) ctx.emit(SetPresentation{presentation});
  sameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("fullscreen (F)").x);
  bool fullscreen = s.view.fullscreen;
  if (ImGui::Checkbox("fullscreen (F)", &fullscreen)) ctx.emit(ToggleFullscreen{});
  float scale = s.view.fontScale;
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 5.5f);
  if (ImGui::SliderFloat("font scale", &scale, 1.0f, 3.0f, "%.2fx")) ctx.emit(SetFontScale{scale});
  ImGui::PopItemWidth();
  bool okabe = s.view.palette == Palette::OkabeIto;
  if (ImGui::Checkbox("colour-blind-safe palette", &okabe))
    ctx.emit(SetPalette{okabe ? Palette::OkabeIto : Palette::Vivid});
}

}  // namespace

// The tiling (the ladder), the tile width (the book's tiled kernels) or the block shape: true
// when `config` changed. Controls and the presenter's lesson panel (compact) draw it.
bool tileChoice(LaunchConfig& config, bool compact) {
  bool changed = false;
  // Compact (the presenter's one line): no label beside the frame, the value names itself in it.
  const char* tileLabel = compact ? "##tile" : "tile T";
  const char* tilingLabel = compact ? "##tiling" : "tiling";
  if (const auto built = kernelTilings(config.kernel); !built.empty()) {
    // The ladder's kernels run the tilings they are built for; "default" is the first that fits P.
    const Tiling shownTiling = config.tiling.empty() ? kernelDefaultTiling(config.kernel, config.dims.j, config.dims.l)
                                                     : config.tiling;
    std::string current = tilingText(shownTiling) + (config.tiling.empty() ? " (default)" : "");
    // Compact, in a frame too narrow for the whole tiling: its block tile, the rest in the list.
    if (compact && ImGui::CalcTextSize(current.c_str()).x > ImGui::CalcItemWidth() - ImGui::GetFrameHeight() * 1.5f)
      current = current.substr(0, current.find('/')) + "/..";
    if (ImGui::BeginCombo(tilingLabel, current.c_str())) {
      if (ImGui::Selectable("default: the first that fits P", config.tiling.empty())) config.tiling = {}, changed = true;
      for (const Tiling& t : built)
        if (ImGui::Selectable(tilingText(t).c_str(), config.tiling == t)) config.tiling = t, changed = true;
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
      tooltip("block tile BMxBNxBK / warp tile WMxWN / thread tile TMxTN: each block computes BM x BN of P, BK steps "
              "of k per phase; each thread a TM x TN register tile");
  } else if (kernelInfo(config.kernel).tiled) {
    if (ImGui::SliderInt(tileLabel, &config.tile, 1, kMaxTileWidth, compact ? "T = %d" : "%d", ImGuiSliderFlags_AlwaysClamp))
      changed = true;
  } else {
    if (ImGui::SliderInt(compact ? "##block x" : "block x", &config.blockX, 1, kMaxThreadsPerBlock, compact ? "x = %d" : "%d",
                         ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic))
      changed = true;
    if (compact) ImGui::SameLine();
    if (ImGui::SliderInt(compact ? "##block y" : "block y", &config.blockY, 1, kMaxThreadsPerBlock, compact ? "y = %d" : "%d",
                         ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic))
      changed = true;
  }
  return changed;
}

// The size of a square run (M, N and P n x n): true when `config` changed. A run of other
// shapes is typed (j, k, l); the slider is not drawn for it.
bool sizeSlider(LaunchConfig& config, bool compact) {
  int size = config.dims.j;
  if (config.dims.j == config.dims.k && config.dims.k == config.dims.l &&
      ImGui::SliderInt(compact ? "##size" : "size", &size, 1, kMaxUiSize, compact ? "n = %d" : "%d",
                       ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic)) {
    config.dims = {size, size, size};
    return true;
  }
  return false;
}

void drawControlsPanel(PanelContext& ctx) {
  startHintAndReplay(ctx);
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 5.5f);
  LaunchConfig config = ctx.state.request.config;
  bool changed = kernelAndSize(config);
  changed = tilingAndSeed(config) || changed;
  backendChoice(ctx);
  if (changed) ctx.emit(SetConfig{config});
  blockSelector(ctx);
  ImGui::PopItemWidth();
  requestStatus(ctx.state);

  openTraceField(ctx);  // above the presets, so it is in view without scrolling at 1280x800
  exportButtons(ctx);

  sectionTitle("Presets");
  presetButtons(ctx, 0, 3, false);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrappedF("lecture block shapes (naive, 64x64):");
  ImGui::PopStyleColor();
  presetButtons(ctx, 3, 9, true);
  presetButtons(ctx, 9, 10, false);
  classroomSettings(ctx);
  classroomViews(ctx);
  animationExport(ctx);
}

}  // namespace tilescope::ui
