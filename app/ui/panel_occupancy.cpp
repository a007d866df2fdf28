// Occupancy: this kernel's block against an SM's limits, for a chosen device profile and a
// registers-per-thread slider. On the textbook SM, 16x16 blocks at 10 -> 12 registers show
// the tutorial's cliff (1536 -> 1280 threads). Pure arithmetic: recomputed every frame.
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

void drawOccupancyPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  ImGuiStorage* store = ImGui::GetStateStorage();
  const auto profiles = builtinProfiles();
  int* which = store->GetIntRef(ImGui::GetID("profile"), 1);  // a100
  *which = std::clamp(*which, 0, int(profiles.size()) - 1);
  if (ImGui::BeginCombo("profile", profiles[std::size_t(*which)].name.c_str())) {
    for (int i = 0; i < int(profiles.size()); ++i)
      if (ImGui::Selectable(profiles[std::size_t(i)].name.c_str(), i == *which)) *which = i;
    ImGui::EndCombo();
  }
  const DeviceProfile& d = profiles[std::size_t(*which)];
  KernelResources r = run->analysis.resources;
  int* regs = store->GetIntRef(ImGui::GetID("registers"), r.registersPerThread);
  ImGui::SliderInt("registers / thread", regs, 1, d.maxRegistersPerThread);
  r.registersPerThread = *regs;
  const Occupancy o = computeOccupancy(d, r);
  ImGui::TextWrapped("%s", d.label.c_str());
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
