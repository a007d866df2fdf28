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

#include "core/analysis/bank_conflicts.h"
#include "kernels/ceil_div.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"
#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

constexpr const char* kPanel = "Bank conflicts";

// One pass of a request over the banks: per bank, its distinct words and the lanes of each.
struct Pass {
  int firstLane = 0, lastLane = 31;
  std::array<std::map<uint64_t, std::vector<int>>, kBanks> words;
  int tallest() const {
    std::size_t most = 1;
    for (const auto& w : words) most = std::max(most, w.size());
    return int(most);
  }
};

std::vector<Pass> passesOf(const WarpRequest& r) {
  const bool wide = !r.lanes.empty() && r.lanes.front().bytes > kBankWidthBytes;
  const int lanesPerPass = wide ? kWarpSize / 4 : kWarpSize;
  std::vector<Pass> passes(std::size_t(kWarpSize / lanesPerPass));
  for (std::size_t p = 0; p < passes.size(); ++p)
    passes[p].firstLane = int(p) * lanesPerPass, passes[p].lastLane = int(p + 1) * lanesPerPass - 1;
  for (const RequestLane& l : r.lanes)
    for (uint64_t b = 0; b < l.bytes; b += kBankWidthBytes) {
      const uint64_t word = (l.address + b) / kBankWidthBytes;
      auto& lanes = passes[std::size_t(l.lane / lanesPerPass)].words[std::size_t(word % kBanks)][word];
      if (lanes.empty() || lanes.back() != l.lane) lanes.push_back(l.lane);
    }
  std::erase_if(passes, [](const Pass& p) { return std::all_of(p.words.begin(), p.words.end(), [](const auto& w) { return w.empty(); }); });
  return passes;
}

// The banks of one pass as columns, each distinct word one box; returns nothing, reserves its height.
void drawPass(PanelContext& ctx, const Pass& pass, float col, float box) {
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

// The pass in words: its broadcasts and its fullest bank.
std::string passWords(const Pass& pass, bool quarters) {
  int broadcastWords = 0, broadcastLanes = 0, worstBank = 0;
  std::size_t worst = 0;
  for (int b = 0; b < kBanks; ++b) {
    const auto& words = pass.words[std::size_t(b)];
    for (const auto& [word, lanes] : words)
      if (lanes.size() > 1) ++broadcastWords, broadcastLanes += int(lanes.size());
    if (words.size() > worst) worst = words.size(), worstBank = b;
  }
  std::string s = quarters ? "lanes " + std::to_string(pass.firstLane) + "-" + std::to_string(pass.lastLane) + ": " : "";
  if (worst > 1) {
    s += "conflict: bank " + std::to_string(worstBank) + " holds " + std::to_string(worst) +
         " different words, served one after another (" + std::to_string(worst) + " passes)";
  } else {
    s += "no bank holds two different words: one pass";
  }
  if (broadcastWords > 0)
    s += broadcastWords == 1 ? "; broadcast: one word served to " + std::to_string(broadcastLanes) + " lanes at once"
                             : "; broadcasts: " + std::to_string(broadcastWords) + " words each served to several lanes at once";
  return s;
}

void drawRequest(PanelContext& ctx, const SharedRequest& s) {
  const RequestPicture pic = pictureOf(s);
  ctx.layout.warpRequests.push_back(pic);
  ImGui::Separator();
  const int extra = s.wavefronts - s.minimumWavefronts;
  char head[160];
  std::snprintf(head, sizeof head, "%s %s, line %d: %zu lanes -> %d wavefront%s (%d conflict%s)", pic.write ? "write of" : "read of",
                pic.array.c_str(), pic.line, pic.lanes.size(), pic.wavefronts, pic.wavefronts == 1 ? "" : "s", extra,
                extra == 1 ? "" : "s");
  recordedWrapped(ctx, kPanel, head);
  const std::vector<Pass> passes = passesOf(s.request);
  const float width = ImGui::GetContentRegionAvail().x;
  const float col = std::max(6.0f, width / float(kBanks));
  const float box = std::max(6.0f, std::min(col, ImGui::GetTextLineHeight() * 0.8f));
  for (const Pass& pass : passes) {
    drawPass(ctx, pass, col, box);
    recordedWrapped(ctx, kPanel, passWords(pass, passes.size() > 1));
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
  const BankReport& b = analysis->banks;
  drawPad(ctx);
  if (b.requests.empty()) {
    ImGui::TextDisabled("this kernel uses no shared memory");
    return;
  }
  char totals[200];
  std::snprintf(totals, sizeof totals, "all shared loads: %llu requests, %llu wavefronts (%llu conflicts); stores: %llu, %llu wavefronts",
                (unsigned long long)b.loads.requests, (unsigned long long)b.loads.wavefronts,
                (unsigned long long)b.loads.conflicts(), (unsigned long long)b.stores.requests,
                (unsigned long long)b.stores.wavefronts);
  recordedWrapped(ctx, kPanel, totals);
  const KernelLaunch& L = run->run.plan.launch;
  const int warps = ceilDiv(int(L.blockX * L.blockY), kWarpSize);
  int* warp = ImGui::GetStateStorage()->GetIntRef(ImGui::GetID("warp"), 0);
  *warp = std::clamp(*warp, 0, warps - 1);
  // A followed thread picks its warp (scripts and lessons follow a thread); else the slider.
  if (const int followed = followedThread(ctx.state); followed >= 0) {
    *warp = std::min(followed / kWarpSize, warps - 1);
    char text[96];
    std::snprintf(text, sizeof text, "warp %d: the followed thread's (lanes = threads %d..%d)", *warp, *warp * kWarpSize,
                  *warp * kWarpSize + kWarpSize - 1);
    recordedWrapped(ctx, kPanel, text);
  } else {
    ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 8));
    ImGui::SliderInt("warp", warp, 0, warps - 1);
  }
  const Cursor c = run->timeline.normalize(ctx.state.shown.cursor);
  const StepInfo& step = run->timeline.step(c.step);
  // This step's requests of the warp, the most wavefronts first: the conflict before a broadcast.
  std::vector<const SharedRequest*> here;
  for (const SharedRequest& s : b.requests) {
    const WarpRequest& r = s.request;
    if (r.blockX == ctx.state.shown.bx && r.blockY == ctx.state.shown.by && r.warp == *warp && requestInStep(r, step.phase, step.k))
      here.push_back(&s);
  }
  std::stable_sort(here.begin(), here.end(), [](const SharedRequest* a, const SharedRequest* z) { return a->wavefronts > z->wavefronts; });
  ImGui::BeginChild("requests", ImVec2(0, 0), false);  // scrolls on a projector
  for (std::size_t i = 0; i < here.size() && i < 4; ++i) drawRequest(ctx, *here[i]);
  if (here.empty()) {
    char text[200];
    std::snprintf(text, sizeof text, "warp %d makes no shared access at this step (%s): step to a load or a k step.", *warp,
                  run->timeline.stepLabel(c.step).c_str());
    recordedWrapped(ctx, kPanel, text);
  }
  ImGui::Separator();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
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
