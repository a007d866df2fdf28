// Occupancy: this kernel's block against an SM's limits, for the analysis profile the panels
// share (AppState::analysis) and a registers-per-thread slider that starts at the kernel's
// own count (cudaFuncGetAttributes on a GPU, else the estimate). On the textbook SM, 16x16
// blocks at 10 -> 12 registers show the tutorial's cliff (1536 -> 1280 threads). Pure
// arithmetic: recomputed every frame.
#include <imgui.h>

#include <algorithm>
#include <climits>

#include "panels.h"

namespace tilescope::ui {
namespace {
void limitRow(const char* name, int blocks, bool limiting) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  ImGui::TableNextColumn();
  if (blocks == INT_MAX) ImGui::TextUnformatted("no limit");
  else ImGui::Text("%d%s", blocks, limiting ? "  <- limit" : "");
}
}  // namespace

void drawAnalysisProfileChoice(PanelContext& ctx) {
  const ProfileChoice choice = analysisProfile(ctx.state.analysis);
  if (ImGui::BeginCombo("profile", choice.profile.name.c_str())) {
    for (const std::string& name : analysisProfileNames(ctx.state.analysis))
      if (ImGui::Selectable(name.c_str(), name == choice.profile.name)) ctx.emit(SetAnalysisProfile{name});
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%s", choice.note.c_str());
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
  ImGui::SliderInt("registers / thread", regs, 1, d.maxRegistersPerThread);
  ImGui::TextDisabled("this kernel: %d (%s)", r.registersPerThread, r.registersSource.c_str());
  r.registersPerThread = *regs;
  const Occupancy o = computeOccupancy(d, r);
  ImGui::Text("block: %d threads, %d B shared (%d allocated), %d registers/thread (%d per block)", r.threadsPerBlock,
              r.sharedBytesPerBlock, o.sharedBytesPerBlock, r.registersPerThread, o.registersPerBlock);
  if (ImGui::BeginTable("limits", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    limitRow("blocks by thread slots", o.blocksByThreads, o.limiter == OccupancyLimiter::Threads);
    limitRow("blocks by block slots", o.blocksByBlocks, o.limiter == OccupancyLimiter::Blocks);
    limitRow("blocks by registers", o.blocksByRegisters, o.limiter == OccupancyLimiter::Registers);
    limitRow("blocks by shared memory", o.blocksBySharedMemory, o.limiter == OccupancyLimiter::SharedMemory);
    ImGui::EndTable();
  }
  ImGui::Text("%d blocks/SM, %d of %d threads: occupancy %.1f%%, limited by %s", o.blocksPerSm, o.threadsPerSm,
              d.maxThreadsPerSm, 100.0 * o.occupancy, std::string(limiterName(o.limiter)).c_str());
  ImGui::ProgressBar(float(o.occupancy), ImVec2(-1, 0));
}

}  // namespace tilescope::ui
