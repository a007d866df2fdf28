// Counters: what the grid has done up to the cursor (all blocks in lockstep): global loads
// against what the naive kernel would need for the same multiply-adds, bytes, FLOPs, OP/B.
#include <imgui.h>

#include <cstdio>

#include "event_text.h"
#include "panels.h"

namespace tilescope::ui {
namespace {

void row(const char* name, const char* value, const char* tip = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (tip && ImGui::IsItemHovered()) tooltip(tip);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value);
}

}  // namespace

void drawCountersPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const Timeline& t = run->timeline;
  const Cursor c = t.normalize(ctx.state.shown.cursor);
  const Counters now = t.countersAt(c);
  const Counters total = t.countersAt(t.end());
  char v[96];
  if (!ImGui::BeginTable("counters", 2, ImGuiTableFlags_SizingStretchProp)) return;
  auto ull = [](uint64_t x) { return (unsigned long long)x; };
  std::snprintf(v, sizeof v, "%llu / %llu", ull(now.globalLoads), ull(total.globalLoads));
  row("global loads", v, "reads of M and N from global memory so far / in the whole run");
  std::snprintf(v, sizeof v, "%llu", ull(now.naiveLoads()));
  row("naive loads", v, "the naive kernel loads 2 elements per multiply-add");
  if (now.globalLoads && now.fmas) {
    std::snprintf(v, sizeof v, "%.2fx", double(now.naiveLoads()) / double(now.globalLoads));
    row("saving", v, "tiling divides global loads by the tile width");
  }
  std::snprintf(v, sizeof v, "%llu B", ull(now.bytesLoaded()));
  row("bytes loaded", v);
  std::snprintf(v, sizeof v, "%llu", ull(now.flops()));
  row("FLOPs", v, "2 per multiply-add");
  std::snprintf(v, sizeof v, "%.3f", now.flopsPerByte());
  row("OP/B", v, "FLOPs per byte loaded from global memory: 0.25 for naive, 0.25 T for tiled");
  std::snprintf(v, sizeof v, "%llu", ull(now.sharedReads));
  row("shared reads", v);
  if (now.fmas) {  // the two ratios the ladder's rungs lower (lesson "the ladder to cuBLAS")
    std::snprintf(v, sizeof v, "%.3f", double(now.globalLoads) / double(now.fmas));
    row("loads / multiply-add", v, "global loads per multiply-add: 2 for naive, 2/T for tiled, 1/BM + 1/BN for a BM x BN block tile");
    std::snprintf(v, sizeof v, "%.3f", double(now.sharedReads) / double(now.fmas));
    row("shared reads / multiply-add", v, "2 for tiled; (TM + TN) / (TM x TN) for a TM x TN register tile");
  }
  std::snprintf(v, sizeof v, "%llu", ull(now.zeroFills));
  row("zero-filled", v);
  std::snprintf(v, sizeof v, "%llu", ull(now.outOfBounds));
  row("out-of-bounds", v, "accesses outside their matrix (the unchecked kernel on odd sizes)");
  std::snprintf(v, sizeof v, "%llu / %d", ull(now.stores), run->run.config.dims.j * run->run.config.dims.l);
  row("P stored", v);
  std::snprintf(v, sizeof v, "%d / %d", t.phasesDone(c), t.phases());
  row("phases done", v);
  ImGui::EndTable();
}

}  // namespace tilescope::ui
