// Bank conflicts, one warp's request at a time: for the chosen warp at the cursor's step, each
// shared request drawn as the 32 banks side by side with every distinct 4-byte word the lanes
// ask for stacked in its bank (word = byte address / 4, bank = word % 32). A word is one box
// however many lanes read it: a broadcast is one box with a fan and its lane count under it;
// a conflict is several boxes stacked in one bank, bracketed and numbered ("4-way"). The
// tallest stack is the request's wavefront count. A 128-bit request is served a quarter warp
// (8 lanes, 128 bytes) at a time, so it is drawn as four rows of banks, one per pass. The
// request with the most wavefronts comes first, so the conflict a page talks about is in view;
// each one is also told in words under its picture. The pad of tiled-transposed re-runs the
// kernel (lessons set it with `set pad`), so the stacks spread as it changes.
#include <imgui.h>

#include <algorithm>
#include <map>

#include "ui/model/banks_view.h"
#include "kernels/ceil_div.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

constexpr const char* kPanel = "Bank conflicts";

// The banks of one pass as columns, each distinct word one box; returns nothing, reserves its height.
void drawPass(PanelContext& ctx, const BankPass& pass, float col, float box) {
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float text = ImGui::GetTextLineHeight();
  const bool labels = col >= ImGui::CalcTextSize("00").x + 2;
  char label[16];
  for (int bank = 0; bank < kBanks; ++bank) {
    const float x = origin.x + float(bank) * col;
    if (labels || bank % 8 == 0) {
      std::snprintf(label, sizeof label, "%d", bank);
      draw->AddText(ImVec2(x + 1, origin.y), theme.panelText, label);
    }
    float y = origin.y + text + 2;
    const auto& words = pass.words[std::size_t(bank)];
    for (const auto& [word, lanes] : words) {
      const Rgba fill = theme.threadColour(lanes.front());
      draw->AddRectFilled(ImVec2(x + 1, y), ImVec2(x + col - 1, y + box - 1), fill);
      if (lanes.size() > 1) {  // a broadcast: a fan from the one word down to its lanes
        const Rgba ink = readableOn(fill);
        draw->AddTriangleFilled(ImVec2(x + col * 0.5f, y + box * 0.3f), ImVec2(x + 2, y + box - 2),
                                ImVec2(x + col - 2, y + box - 2), ink);
      }
      y += box;
    }
    if (words.size() > 1) {  // a conflict: the stack bracketed in the error colour, "N-way" under it
      const float top = origin.y + text + 2, bottom = y;
      draw->AddRect(ImVec2(x, top), ImVec2(x + col, bottom), theme.error, 0.0f, 0, 2.0f);
      std::snprintf(label, sizeof label, "%zu", words.size());
      if (labels) draw->AddText(ImVec2(x + 1, bottom + 1), theme.error, label);
    }
  }
  ImGui::Dummy(ImVec2(col * kBanks, text + 2 + box * float(pass.tallest()) + text + 4));
}

void drawRequest(PanelContext& ctx, const BankRequestView& r) {
  ctx.layout.warpRequests.push_back(r.picture);
  ImGui::Separator();
  recordedWrapped(ctx, kPanel, r.heading);
  const float width = ImGui::GetContentRegionAvail().x;
  const float col = std::max(6.0f, width / float(kBanks));
  const float box = std::max(6.0f, std::min(col, ImGui::GetTextLineHeight() * 0.8f));
  for (const BankPass& pass : r.passes) {
    drawPass(ctx, pass, col, box);
    recordedWrapped(ctx, kPanel, pass.text);
  }
}

void drawPad(PanelContext& ctx) {
  const LaunchConfig& asked = ctx.state.request.config;
  if (!kernelInfo(asked.kernel).takesPad) return;
  int pad = asked.pad;
  ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 8));
  if (ImGui::SliderInt("pad", &pad, 0, 4)) {
    LaunchConfig c = asked;
    c.pad = pad;
    ctx.emit(SetConfig{c});
  }
  recordedWrapped(ctx, kPanel, "each tile row is T + pad = " + std::to_string(asked.tile + asked.pad) + " floats");
}

}  // namespace

void drawBanksPanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  if (!run) return;
  const auto analysis = shownAnalysis(ctx);
  if (!analysis) return;
  drawPad(ctx);
  if (analysis->banks.requests.empty()) {
    ImGui::TextDisabled("this kernel uses no shared memory");
    return;
  }
  const KernelLaunch& L = run->run.plan.launch;
  const int warps = ceilDiv(int(L.blockX * L.blockY), kWarpSize);
  int* warp = ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("warp"), 0);
  *warp = std::clamp(*warp, 0, warps - 1);
  // A followed thread picks its warp (scripts and lessons follow a thread); else the slider.
  const int followed = followedThread(ctx.state);
  if (followed >= 0) *warp = std::min(followed / kWarpSize, warps - 1);
  const BanksView* view = shownBanksView(ctx.state, *warp);
  if (!view) return;
  recordedWrapped(ctx, kPanel, view->totals);
  if (followed >= 0) {
    char text[96];
    std::snprintf(text, sizeof text, "warp %d: the followed thread's (lanes = threads %d..%d)", *warp, *warp * kWarpSize,
                  *warp * kWarpSize + kWarpSize - 1);
    recordedWrapped(ctx, kPanel, text);
  } else {
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 8));
    ImGui::SliderInt("warp", warp, 0, warps - 1);
  }
  ImGui::BeginChild("requests", ImVec2(0, 0), false);  // scrolls on a projector
  for (const BankRequestView& r : view->requests) drawRequest(ctx, r);
  if (!view->none.empty()) recordedWrapped(ctx, kPanel, view->none);
  ImGui::Separator();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrappedF(
      "Columns: the 32 banks (4-byte words; bank = word %% 32). Each box is one word, coloured by the first lane that "
      "asks for it. A box with a fan is a broadcast: one word served to many lanes at once. Boxes stacked in one bank, "
      "framed and numbered, are a conflict: different words served one after another. A 128-bit load is served a "
      "quarter warp (8 lanes) at a time: one row of banks per quarter. Padding a tile row by one word shifts each row "
      "one bank over. Source-level requests: nvcc may merge four Mds[ty][kk] reads into one 128-bit load where T is a "
      "compile-time multiple of 4; tiled-dynamic and tiled-transposed match ncu.");
  ImGui::PopStyleColor();
  ImGui::EndChild();
}

}  // namespace tilescope::ui
