// Occupancy: this kernel's block against an SM's limits, for the analysis profile the panels
// share (AppState::analysis) and a registers-per-thread slider that starts at the kernel's
// own count (cudaFuncGetAttributes on a GPU, else the estimate). On the textbook SM, 16x16
// blocks at 10 -> 12 registers show the tutorial's cliff (1536 -> 1280 threads). Below it,
// the grid dealt onto the profile's SMs in waves at that occupancy (core/analysis/waves.h): a
// row of SMs per wave, the last wave's idle SMs left open. For rung 9, beside the waves, its
// selector's choice on that profile (core/run/stream_k_plan.h): the tiling, one block per tile
// or stream-K over how many blocks, and why, in words; and whether this run is that choice.
// Pure arithmetic: recomputed every frame.
#include <imgui.h>

#include <algorithm>
#include <climits>
#include <string>

#include "core/analysis/waves.h"
#include "core/run/stream_k_plan.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"

namespace tilescope::ui {
namespace {
std::string limitText(int blocks, bool limiting) {
  return blocks == INT_MAX ? "no limit" : std::to_string(blocks) + (limiting ? "  <- limit" : "");
}
void limitRow(const char* name, int blocks, bool limiting) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", name);  // the narrow left column wraps the names, never the figures
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(limitText(blocks, limiting).c_str());
}
// One row of cells per wave, one cell per SM: filled where the SM holds a block of that wave
// (darker with more of its slots used), an outline only where it sits idle. At most
// kShownWaves rows: after that the whole waves look alike, and the count says how many.
void drawWavesPicture(const Waves& w) {
  constexpr int64_t kShownWaves = 8;
  const int64_t rows = std::min(w.waveCount(), kShownWaves);
  if (rows == 0 || w.smCount <= 0) return;
  const float width = ImGui::GetContentRegionAvail().x;
  const float cell = std::max(1.0f, width / float(w.smCount));
  const float rowHeight = std::max(6.0f, ImGui::GetTextLineHeight() * 0.6f);
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
  if (w.waveCount() > kShownWaves)
    ImGui::TextDisabled("waves 1-%lld shown, then the last (%lld)", (long long)(kShownWaves - 1), (long long)w.waveCount());
}

// Rung 9's selector on this profile, and this run against its choice (a run whose tiling or
// grid was set by hand shows both).
void drawStreamKChoice(const Run& run, const DeviceProfile& d) {
  const StreamKChoice choice = chooseStreamK(run.config.dims, d);
  ImGui::TextUnformatted("Rung 9's selector");
  ImGui::TextWrapped("on %d SMs (%s): %s", d.smCount, d.name.c_str(), choice.reason.c_str());
  const KernelLaunch& L = run.plan.launch;
  const bool chosen = L.tiling == choice.tiling && int(L.persistentBlocks) == choice.persistentBlocks;
  const std::string grid = L.persistentBlocks > 0 ? "stream-K over " + std::to_string(L.gridX) + " blocks"
                                                  : "one block per tile (" + std::to_string(L.gridX) + ")";
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("this run: %s, %s%s", tilingText(L.tiling).c_str(), grid.c_str(),
                     chosen ? ": the selector's choice" : ", not the selector's choice");
  ImGui::PopStyleColor();
}

void drawWaves(const LoadedRun& run, const DeviceProfile& d, const Occupancy& o) {
  const Waves w = dealBlocks(int64_t(run.run.plan.launch.gridX) * run.run.plan.launch.gridY, d.smCount, o.blocksPerSm);
  ImGui::Separator();
  ImGui::TextUnformatted("The grid in waves");
  ImGui::TextWrapped("%s", describeWaves(w).c_str());
  drawWavesPicture(w);
  if (builtInKernel(run.run) == KernelId::StreamK) drawStreamKChoice(run.run, d);
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
  ImGui::TextWrapped("%s", choice.note.c_str());
  ImGui::PopStyleColor();
  ImGui::TextWrapped("%s", choice.profile.label.c_str());
}

void drawOccupancyPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  drawAnalysisProfileChoice(ctx);
  const DeviceProfile d = analysisProfile(ctx.state.analysis).profile;
  ImGuiStorage* store = ImGui::GetStateStorage();
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  KernelResources r = analysis->resources;
  int* regs = store->GetIntRef(ImGui::GetID("registers"), r.registersPerThread);
  // The slider with its label beside it, or above it where the column is too narrow for both.
  const char* label = "registers / thread";
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool labelAbove = avail * 0.5f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x > avail;
  if (labelAbove) ImGui::TextUnformatted(label);
  ImGui::SetNextItemWidth(labelAbove ? avail : avail * 0.5f);
  ImGui::SliderInt(labelAbove ? "##registers / thread" : label, regs, 1, d.maxRegistersPerThread);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("this kernel: %d (%s)", r.registersPerThread, r.registersSource.c_str());
  ImGui::PopStyleColor();
  r.registersPerThread = *regs;
  const Occupancy o = computeOccupancy(d, r);
  ImGui::TextWrapped("block: %d threads, %d B shared (%d allocated), %d registers/thread (%d per block)", r.threadsPerBlock,
              r.sharedBytesPerBlock, o.sharedBytesPerBlock, r.registersPerThread, o.registersPerBlock);
  if (ImGui::BeginTable("limits", 2, ImGuiTableFlags_RowBg)) {
    float valueWidth = 0;
    for (int blocks : {o.blocksByThreads, o.blocksByBlocks, o.blocksByRegisters, o.blocksBySharedMemory})
      valueWidth = std::max(valueWidth, ImGui::CalcTextSize(limitText(blocks, true).c_str()).x);
    ImGui::TableSetupColumn("limit", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("blocks", ImGuiTableColumnFlags_WidthFixed, valueWidth);
    limitRow("blocks by thread slots", o.blocksByThreads, o.limiter == OccupancyLimiter::Threads);
    limitRow("blocks by block slots", o.blocksByBlocks, o.limiter == OccupancyLimiter::Blocks);
    limitRow("blocks by registers", o.blocksByRegisters, o.limiter == OccupancyLimiter::Registers);
    limitRow("blocks by shared memory", o.blocksBySharedMemory, o.limiter == OccupancyLimiter::SharedMemory);
    endTable(ctx, "limits");
  }
  ImGui::TextWrapped("%d blocks/SM, %d of %d threads: occupancy %.1f%%, limited by %s", o.blocksPerSm, o.threadsPerSm,
              d.maxThreadsPerSm, 100.0 * o.occupancy, std::string(limiterName(o.limiter)).c_str());
  ImGui::ProgressBar(float(o.occupancy), ImVec2(-1, 0));
  drawWaves(*run, d, o);
}

}  // namespace tilescope::ui
