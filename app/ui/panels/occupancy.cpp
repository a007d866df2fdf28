// Occupancy: this kernel's block against an SM's limits, for the analysis profile the panels
// share (AppState::analysis) and a registers-per-thread slider that starts at the kernel's
// own count (cudaFuncGetAttributes on a GPU, else the estimate). On the textbook SM, 16x16
// blocks at 10 -> 12 registers show the tutorial's cliff (1536 -> 1280 threads). Below it,
// the grid dealt onto the profile's SMs in waves at that occupancy (core/run/waves.h): a
// row of SMs per wave, the last wave's idle SMs left open. For a kernel that chooses its own
// schedule, beside the waves, its choice on that profile (core/run/launch_door.h): the tiling,
// one block per tile or a persistent grid of how many blocks, and why, in words; and whether
// this run is that choice.
// The arithmetic is the view's (model/occupancy_view.h), done once per run, profile and slider
// value; this file only draws. A request refused for its size (rung 8 at 1024 on the emulator)
// leaves no run on screen (app.cpp drops the old one): the panel then draws the launch's plan
// (model/occupancy_view.h: plannedOccupancyView), its label first, so that the waves of the
// sizes the ladder's lessons speak of can be seen without a GPU. Its texts are recorded for the
// layout file (the lesson-truth test reads a page's figures there).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {
void limitRow(const LimitRow& row) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  textWrapped(row.name);  // the narrow left column wraps the names, never the figures
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(row.value.c_str());
}
// One row of cells per wave, one cell per SM: filled where the SM holds a block of that wave
// (darker with more of its slots used), an outline only where it sits idle. At most
// kShownWaves rows: after that the whole waves look alike, and the count says how many.
void drawWavesPicture(PanelContext& ctx, const Waves& w) {
  constexpr int64_t kShownWaves = 8;
  const int64_t rows = std::min(w.waveCount(), kShownWaves);
  if (rows == 0 || w.smCount <= 0) return;
  const float width = ImGui::GetContentRegionAvail().x;
  const float cell = std::max(1.0f, width / float(w.smCount));
  // A wave or two drawn as tall as a line and a half: the idle SMs of the tail visible from the back row.
  const float rowHeight = std::max(6.0f, ImGui::GetTextLineHeight() * (rows <= 2 ? 1.5f : 0.6f));
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 busy = ImGui::GetColorU32(ImGuiCol_PlotHistogram), idle = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  for (int64_t row = 0; row < rows; ++row) {
    // The rows shown are the first waves and, when there are more, the last one at the bottom.
    const int64_t wave = (row == rows - 1) ? w.waveCount() - 1 : row;
    const int64_t first = wave * w.slotsPerWave;
    const int64_t inWave = std::min(w.slotsPerWave, w.blocks - first);
    for (int sm = 0; sm < w.smCount; ++sm) {
      // Launch order: slot s of a wave goes to SM s mod SMs, so SM sm holds these many blocks.
      const int64_t held = inWave > sm ? (inWave - 1 - sm) / w.smCount + 1 : 0;
      const ImVec2 a(origin.x + sm * cell, origin.y + row * (rowHeight + 2.0f));
      const ImVec2 b(a.x + std::max(1.0f, cell - (cell > 3.0f ? 1.0f : 0.0f)), a.y + rowHeight);
      if (held == 0) draw->AddRect(a, b, idle);
      else draw->AddRectFilled(a, b, (busy & 0x00ffffffu) | (ImU32(255 * (0.45f + 0.55f * held / w.blocksPerSm)) << 24));
    }
  }
  ImGui::Dummy(ImVec2(width, rows * (rowHeight + 2.0f)));
  // Where the picture lies, for the GUI tests' pixels: its first row starts at the record.
  char where[96];
  std::snprintf(where, sizeof where, "waves picture: %d SMs across %.0f px", w.smCount, double(cell * float(w.smCount)));
  recordTextAt(ctx, "Occupancy", where, origin, ctx.theme().panelText, ctx.theme().windowBg);
  // The key, and which waves the rows are (all, or the first ones and the last), in one line.
  char key[160];
  if (w.waveCount() > kShownWaves)
    std::snprintf(key, sizeof key, "a row per wave (1-%lld, then the last, %lld), a cell per SM: filled, a block on it; open, idle",
                  (long long)(kShownWaves - 1), (long long)w.waveCount());
  else
    std::snprintf(key, sizeof key, "a row per wave, a cell per SM: filled, a block on it; open, idle");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrapped(key);
  ImGui::PopStyleColor();
}

void drawWaves(PanelContext& ctx, const OccupancyView& v) {
  ImGui::Separator();
  ImGui::TextUnformatted(v.plan.empty() ? "The grid in waves" : "The grid in waves, as planned");
  recordedWrapped(ctx, "Occupancy", v.wavesText);
  drawWavesPicture(ctx, v.waves);
  if (!v.hasSelector) return;
  // Rung 9's selector on this profile, and this run against its choice.
  ImGui::TextUnformatted("Rung 9's selector");
  recordedWrapped(ctx, "Occupancy", v.selector);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrapped(v.thisRun);
  ImGui::PopStyleColor();
  recordText(ctx, "Occupancy", v.thisRun, ctx.theme().textDisabled, ctx.theme().windowBg);
}
}  // namespace

void drawAnalysisProfileChoice(PanelContext& ctx) {
  const ProfileChoice choice = analysisProfile(ctx.state.analysis);
  const bool presenter = ctx.state.lesson.presenter;
  if (presenter) ImGui::SetNextItemWidth(ImGui::CalcTextSize(choice.profile.name.c_str()).x + ImGui::GetFrameHeight() * 2.0f);
  if (ImGui::BeginCombo("profile", choice.profile.name.c_str())) {
    for (const std::string& name : analysisProfileNames(ctx.state.analysis))
      if (ImGui::Selectable(name.c_str(), name == choice.profile.name)) ctx.emit(SetAnalysisProfile{name});
    ImGui::EndCombo();
  }
  // On a projector the plot and the figures get the room: why this profile and what it is are
  // the combo's tooltip there.
  if (presenter) {
    if (ImGui::IsItemHovered()) tooltip(choice.note + "\n" + choice.profile.label);
    return;
  }
  // The note beside the combo when it fits, under it in a narrow tab (nothing cut at 1280x800).
  const float noteWidth = ImGui::CalcTextSize(choice.note.c_str()).x + ImGui::GetStyle().ItemSpacing.x;
  if (noteWidth <= ImGui::GetContentRegionAvail().x - ImGui::GetItemRectSize().x) ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrapped(choice.note);
  ImGui::PopStyleColor();
  textWrapped(choice.profile.label);
}

namespace {
// The view below the profile's choice: the registers slider, the block's limits (the waves follow).
void drawResources(PanelContext& ctx, const OccupancyView& v, int* regs) {
  if (*regs <= 0) *regs = v.kernelRegisters;
  // The slider with its label beside it, or above it where the column is too narrow for both.
  const char* label = "registers / thread";
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool labelAbove = avail * 0.5f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x > avail;
  if (labelAbove) ImGui::TextUnformatted(label);
  ImGui::SetNextItemWidth(labelAbove ? avail : avail * 0.5f);
  ImGui::SliderInt(labelAbove ? "##registers / thread" : label, regs, 1, v.maxRegisters);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrappedF("this kernel: %d (%s)", v.kernelRegisters, v.registersSource.c_str());
  ImGui::PopStyleColor();
  textWrapped(v.block);
  if (ImGui::BeginTable("limits", 2, ImGuiTableFlags_RowBg)) {
    float valueWidth = 0;
    for (const LimitRow& row : v.limits) valueWidth = std::max(valueWidth, ImGui::CalcTextSize(row.widest.c_str()).x);
    ImGui::TableSetupColumn("limit", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("blocks", ImGuiTableColumnFlags_WidthFixed, valueWidth);
    for (const LimitRow& row : v.limits) limitRow(row);
    endTable(ctx, "limits");
  }
  recordedWrapped(ctx, "Occupancy", v.summary);  // the lesson-truth test reads its blocks per SM and occupancy
  ImGui::ProgressBar(v.occupancy, ImVec2(-1, 0));
}

// No run on screen: the newest request's plan where its size is why it did not run (the
// refusal decided once per request, Request::refusedHere; the plan built here each frame: a
// plan and the selector are a few microseconds of arithmetic, no trace).
void drawPlannedView(PanelContext& ctx) {
  const AppState& s = ctx.state;
  if (s.request.error.empty() || !s.request.openFile.empty()) return;
  const std::string& why = s.request.refusedHere;
  if (why.empty()) return;
  const ProfileChoice choice = analysisProfile(s.analysis);
  const OccupancyOptions ownRegisters{choice.profile.name, 0};  // the kernel's own count, no slider
  const std::optional<OccupancyView> view = plannedOccupancyView(s.request.config, why, choice.profile, ownRegisters);
  if (!view) return;
  // The label, then the waves the page is about, then the block's resources that give them in
  // two lines (the slider and the limits table are the run's: on a projector the plan fits
  // the centre, and its notice covers the panel's foot, never the waves).
  recordedWrapped(ctx, "Occupancy", view->plan);
  drawWaves(ctx, *view);
  ImGui::Separator();
  drawAnalysisProfileChoice(ctx);
  textWrapped(view->block);
  textWrapped(view->summary);
}
}  // namespace

void drawOccupancyPanel(PanelContext& ctx) {
  if (!shownRun(ctx.state)) return drawPlannedView(ctx);
  drawAnalysisProfileChoice(ctx);
  if (!shownAnalysis(ctx)) return;  // says "Analysing..." while it is computed
  // The slider's value is widget state (0 until moved: the kernel's own count).
  int* regs = ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("registers"), 0);
  const OccupancyView* view = shownOccupancyView(ctx.state, *regs);
  if (!view) return;
  drawResources(ctx, *view, regs);
  drawWaves(ctx, *view);
}

}  // namespace tilescope::ui
