// Tensor core: rung 10's warp at the cursor, drawn large for a class. One MMA (mma.sync
// m16n8k8) of the followed thread's warp, as its three operands side by side, A (16 x 8) x
// B (8 x 8) -> the sums (16 x 8): each cell coloured by the lane that holds it (the palette's
// hue of lane % 8) and numbered with it, the followed lane's cells ringed, and that lane's
// fragment in words under them. Everything comes from the lanes' fragment events (Op::MmaA,
// MmaB, MmaC) of the last step at or before the cursor in which the warp issued an MMA: which
// element each lane holds is what the trace recorded, which the GPU's trace holds to the
// emulator's (the PTX ISA's tables, kernels/trace/mma_fragments.h).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "kernels/trace/mma_fragments.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

// One MMA of a warp as its events say: who holds each element, and the followed lane's part.
struct WarpMma {
  int step = -1, warp = 0, lane = 0;
  int mmas = 0;  // MMAs the warp issues in that step
  TensorCoreRect record;
  std::string laneWords;
};

// The lanes' first MMA in step `s` of warp `warp`: each lane's first 4 A, 2 B and 4 sum events.
bool gatherMma(const LoadedRun& run, const BlockTimeline& block, int s, int warp, WarpMma& out) {
  const auto& events = run.run.trace->events;
  const unsigned blockX = run.run.trace->launch.blockX;
  int seen[3][kWarpLanes] = {};
  int aEvents = 0;
  std::string a, b, c;
  for (uint32_t i : block.stepEvents(s)) {
    const Event& e = events[i];
    if ((e.op != Op::MmaA && e.op != Op::MmaB && e.op != Op::MmaC) || warpOf(e, blockX) != warp) continue;
    const int lane = linearThread(e, blockX) % kWarpLanes, which = int(e.op) - int(Op::MmaA);
    const int perMma = e.op == Op::MmaB ? kMmaRegsB : kMmaRegsA;
    if (e.sharedRow >= (e.op == Op::MmaB ? kMmaK : kMmaM) || e.sharedCol >= kMmaN) continue;  // a warpgroup's sums
    aEvents += e.op == Op::MmaA;
    if (seen[which][lane]++ >= perMma) continue;  // a later MMA of the step
    std::vector<int>& owner = which == 0 ? out.record.ownerA : which == 1 ? out.record.ownerB : out.record.ownerC;
    const int cols = kMmaN;
    owner[std::size_t(e.sharedRow * cols + e.sharedCol)] = lane;
    if (lane == out.lane) {
      std::string& words = which == 0 ? a : which == 1 ? b : c;
      words += (words.empty() ? "" : ", ") + std::string(which == 0 ? "A" : which == 1 ? "B" : "C") + "[" +
               std::to_string(e.sharedRow) + "][" + std::to_string(e.sharedCol) + "]";
    }
  }
  if (aEvents == 0) return false;
  out.step = s;
  out.mmas = aEvents / (kWarpLanes * kMmaRegsA);
  // A warpgroup MMA (rung 11) takes B through its descriptor, from no lane, and its sums are
  // read once, after the last group: say what the lane holds, and what it does not.
  out.laneWords = "lane " + std::to_string(out.lane) + " (group " + std::to_string(out.lane / 4) + ", thread " +
                  std::to_string(out.lane % 4) + " in it) holds " + a + "; " +
                  (b.empty() ? "B from no lane (the tensor cores read it from shared memory)" : b) + "; " +
                  (c.empty() ? "no sums read yet" : "and the sums " + c) + ".";
  return true;
}

// One operand's grid at (x, y), cells of `cell` pixels; each cell in its lane's colour with the
// lane's number, the followed lane's ringed. Returns the grid's rectangle.
std::array<float, 4> drawOperand(PanelContext& ctx, const char* name, const std::vector<int>& owner, int rows, int lane,
                                 ImVec2 at, float cell) {
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float px = ImGui::GetFontSize();
  draw->AddText(at, theme.panelText, name);
  recordTextAt(ctx, "Tensor core", name, at, theme.panelText, theme.windowBg);
  const float top = at.y + px * 1.3f;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < kMmaN; ++c) {
      const int who = owner[std::size_t(r * kMmaN + c)];
      const ImVec2 lo(at.x + float(c) * cell, top + float(r) * cell), hi(lo.x + cell, lo.y + cell);
      draw->AddRectFilled(lo, hi, who < 0 ? theme.cellIdle : theme.threadColour(who));
      draw->AddRect(lo, hi, theme.cellOutline);
      if (who < 0) continue;
      if (who == lane) draw->AddRect(lo, hi, theme.follow, 0.0f, 0, theme.followPx);
      const std::string number = std::to_string(who);
      const ImVec2 size = ImGui::CalcTextSize(number.c_str());
      if (size.x < cell * 0.95f)
        draw->AddText(ImVec2(lo.x + (cell - size.x) / 2, lo.y + (cell - size.y) / 2), theme.background, number.c_str());
    }
  return {at.x, top, cell * float(kMmaN), cell * float(rows)};
}

}  // namespace

void drawTensorCorePanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  const BlockTimeline* block = ctx.state.shown.block.get();
  if (!run || !block || !run->run.trace) return;
  const int followed = followedThread(ctx.state);
  WarpMma mma;
  mma.warp = followed >= 0 ? followed / kWarpLanes : 0;
  mma.lane = followed >= 0 ? followed % kWarpLanes : 0;
  mma.record.ownerA.assign(kMmaM * kMmaN, -1);
  mma.record.ownerB.assign(kMmaK * kMmaN, -1);
  mma.record.ownerC.assign(kMmaM * kMmaN, -1);
  bool found = false;
  for (int s = std::min(ctx.state.shown.cursor.step, run->timeline.steps() - 1); s >= 0 && !found; --s)
    found = gatherMma(*run, *block, s, mma.warp, mma);
  if (!found) {
    textWrappedF(
        "No warp of this block has multiplied on the tensor cores by this step. Rung 10 (mma-tf32) has each warp "
        "issue mma.sync: 32 lanes multiply a 16 x 8 piece of M's tile by an 8 x 8 piece of N's together.");
    return;
  }
  const std::string head = "Block (" + std::to_string(block->bx()) + "," + std::to_string(block->by()) + "), warp " +
                           std::to_string(mma.warp) + ", step " + std::to_string(mma.step) + ": the first of its " +
                           std::to_string(mma.mmas) + " MMAs there. Each cell is one element, in the colour and with "
                           "the number of the lane that holds it.";
  textWrapped(head);
  recordText(ctx, "Tensor core", head);
  const float px = ImGui::GetFontSize(), gap = px * 1.5f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  // As large as the window allows: three grids of 8 columns across, 16 rows and the grids'
  // titles and the lane's words (about 4 lines) down.
  const float byWidth = (width - 2 * gap) / float(3 * kMmaN);
  const float byHeight = (ImGui::GetContentRegionAvail().y - px * 5.5f) / float(kMmaM);
  const float cell = std::max(px * 0.8f, std::min({byWidth, byHeight, px * 2.2f}));
  TensorCoreRect& r = mma.record;
  r.a = drawOperand(ctx, "A (16 x 8)", r.ownerA, kMmaM, mma.lane, origin, cell);
  r.b = drawOperand(ctx, "B (8 x 8)", r.ownerB, kMmaK, mma.lane, ImVec2(origin.x + cell * kMmaN + gap, origin.y), cell);
  r.c = drawOperand(ctx, "sums (16 x 8)", r.ownerC, kMmaM, mma.lane,
                    ImVec2(origin.x + 2 * (cell * kMmaN + gap), origin.y), cell);
  r.warp = mma.warp, r.lane = mma.lane, r.step = mma.step, r.mmas = mma.mmas;
  ImGui::SetCursorScreenPos(ImVec2(origin.x, r.a[1] + r.a[3] + px * 0.5f));
  textWrapped(mma.laneWords);
  recordText(ctx, "Tensor core", mma.laneWords);
  ctx.layout.tensorCore = std::move(mma.record);
}

}  // namespace tilescope::ui
