// Bank conflicts, one warp's request at a time: for the chosen warp at the cursor's step, each
// shared request drawn as the 32 banks side by side with every lane stacked in the bank its
// word lives in (word = byte address / 4, bank = word % 32). Lanes asking for one word share
// a colour and are served together (a broadcast); distinct words in one bank are served one
// after another: the tallest stack of distinct words is the request's wavefront count. The
// pad slider of tiled-transposed re-runs the kernel, so the stacks spread as it moves.
#include <imgui.h>

#include <algorithm>
#include <map>

#include "core/analysis/bank_conflicts.h"
#include "kernels/ceil_div.h"
#include "ui/panels/panels.h"
#include "ui/panels/thread_story.h"

namespace tilescope::ui {
namespace {

// The banks as columns, lanes stacked by word; returns the height used.
void drawBanks(const RequestPicture& pic, const Theme& theme) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float col = std::max(6.0f, width / float(kBanks));
  const float text = ImGui::GetTextLineHeight();
  const float box = std::min(col, text + 2.0f);
  int tallest = 1;
  for (int bank = 0; bank < kBanks; ++bank) {
    std::map<uint64_t, std::vector<int>> words;  // word -> its lanes
    for (std::size_t i = 0; i < pic.lanes.size(); ++i)
      if (int(pic.addresses[i] / kBankWidthBytes % kBanks) == bank) words[pic.addresses[i] / kBankWidthBytes].push_back(pic.lanes[i]);
    const float x = origin.x + float(bank) * col;
    char label[8];
    std::snprintf(label, sizeof label, "%d", bank);
    if (col >= ImGui::CalcTextSize("00").x + 2 || bank % 4 == 0) draw->AddText(ImVec2(x + 1, origin.y), theme.panelText, label);
    float y = origin.y + text + 2;
    int lanes = 0;
    for (const auto& [word, ls] : words) {
      // One colour per word (the lowest lane's): a broadcast is one colour stacked, a conflict
      // several colours in one column.
      const Rgba fill = theme.threadColour(ls.front());
      for (int lane : ls) {
        draw->AddRectFilled(ImVec2(x + 1, y), ImVec2(x + col - 1, y + box - 1), fill);
        if (col >= ImGui::CalcTextSize("00").x + 2) {
          std::snprintf(label, sizeof label, "%d", lane);
          draw->AddText(ImVec2(x + 2, y), theme.background, label);
        }
        y += box;
        ++lanes;
      }
      draw->AddLine(ImVec2(x, y - 0.5f), ImVec2(x + col, y - 0.5f), theme.highlight, 2.0f);  // end of one word
    }
    tallest = std::max(tallest, lanes);
  }
  ImGui::Dummy(ImVec2(width, text + 2 + box * float(tallest) + 4));
}

}  // namespace

void drawBanksPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  const BankReport& b = analysis->banks;
  // The padding lesson: tiled-transposed's row stride is T + pad, a run-time argument.
  const LaunchConfig& asked = ctx.state.request.config;
  if (kernelInfo(asked.kernel).takesPad) {
    int pad = asked.pad;
    if (ImGui::SliderInt("pad (tile rows of T + pad floats)", &pad, 0, 4)) {
      LaunchConfig c = asked;
      c.pad = pad;
      ctx.emit(SetConfig{c});
    }
  }
  if (b.requests.empty()) {
    ImGui::TextDisabled("this kernel uses no shared memory");
    return;
  }
  ImGui::TextWrapped("all shared loads: %llu requests, %llu wavefronts (%llu conflicts); stores: %llu, %llu wavefronts",
                     (unsigned long long)b.loads.requests, (unsigned long long)b.loads.wavefronts,
                     (unsigned long long)b.loads.conflicts(), (unsigned long long)b.stores.requests,
                     (unsigned long long)b.stores.wavefronts);
  const KernelLaunch& L = run->run.plan.launch;
  const int warps = ceilDiv(int(L.blockX * L.blockY), kWarpSize);
  int* warp = ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("warp"), 0);
  *warp = std::clamp(*warp, 0, warps - 1);
  // A followed thread picks its warp (scripts and lessons follow a thread); else the slider.
  if (const int followed = followedThread(ctx.state); followed >= 0) {
    *warp = std::min(followed / kWarpSize, warps - 1);
    ImGui::Text("warp %d: the followed thread's (lanes = threads %d..%d)", *warp, *warp * kWarpSize, *warp * kWarpSize + kWarpSize - 1);
  } else {
    ImGui::SliderInt("warp", warp, 0, warps - 1);
  }
  const Cursor c = run->timeline.normalize(ctx.state.shown.cursor);
  const StepInfo& step = run->timeline.step(c.step);
  int shown = 0;
  ImGui::BeginChild("requests", ImVec2(0, 0), false);  // scrolls on a projector
  for (const SharedRequest& s : b.requests) {
    const WarpRequest& r = s.request;
    if (r.blockX != ctx.state.shown.bx || r.blockY != ctx.state.shown.by || r.warp != *warp) continue;
    if (!requestInStep(r, step.phase, step.k) || shown >= 4) continue;
    const RequestPicture pic = pictureOf(s);
    ctx.layout.warpRequests.push_back(pic);
    ++shown;
    ImGui::Separator();
    ImGui::TextWrapped("%s %s, line %d: %zu lanes -> %d wavefront%s%s", pic.write ? "write of" : "read of",
                       pic.array.c_str(), pic.line, pic.lanes.size(), pic.wavefronts, pic.wavefronts == 1 ? "" : "s",
                       pic.wavefronts == 1 ? " (conflict-free)" : ": one per distinct word in the fullest bank");
    drawBanks(pic, ctx.theme());
  }
  if (shown == 0)
    ImGui::TextWrapped("warp %d makes no shared access at this step (%s): step to a load or a k step.", *warp,
                       run->timeline.stepLabel(c.step).c_str());
  ImGui::TextWrapped(
      "Columns: the 32 banks (4-byte words; bank = word %% 32). Each box is a lane, coloured by the word it asks for: "
      "lanes on one word are one broadcast; several words in one bank are served one after another. Padding a tile "
      "row by one word shifts each row one bank over. Source-level requests: nvcc may merge four Mds[ty][kk] reads "
      "into one 128-bit load where T is a compile-time multiple of 4; tiled-dynamic and tiled-transposed match ncu.");
  ImGui::EndChild();
}

}  // namespace tilescope::ui
