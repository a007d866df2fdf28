// The Bank conflicts panel's view (banks_view.h).
#include "ui/model/banks_view.h"

#include <algorithm>
#include <cstdio>

#include "kernels/catalog.h"

namespace tilescope::ui {
namespace {

std::vector<BankPass> passesOf(const WarpRequest& r) {
  const bool wide = !r.lanes.empty() && r.lanes.front().bytes > kBankWidthBytes;
  const int lanesPerPass = wide ? kWarpSize / 4 : kWarpSize;
  std::vector<BankPass> passes(std::size_t(kWarpSize / lanesPerPass));
  for (std::size_t p = 0; p < passes.size(); ++p)
    passes[p].firstLane = int(p) * lanesPerPass, passes[p].lastLane = int(p + 1) * lanesPerPass - 1;
  for (const RequestLane& l : r.lanes)
    for (uint64_t b = 0; b < l.bytes; b += kBankWidthBytes) {
      const uint64_t word = (l.address + b) / kBankWidthBytes;
      auto& lanes = passes[std::size_t(l.lane / lanesPerPass)].words[std::size_t(word % kBanks)][word];
      if (lanes.empty() || lanes.back() != l.lane) lanes.push_back(l.lane);
    }
  std::erase_if(passes, [](const BankPass& p) { return std::all_of(p.words.begin(), p.words.end(), [](const auto& w) { return w.empty(); }); });
  return passes;
}

// The pass in words: its broadcasts and its fullest bank.
std::string passWords(const BankPass& pass, bool quarters) {
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

BankRequestView requestView(const SharedRequest& s) {
  BankRequestView v;
  v.picture = pictureOf(s);
  const RequestPicture& pic = v.picture;
  const int extra = s.wavefronts - s.minimumWavefronts;
  char head[160];
  std::snprintf(head, sizeof head, "%s %s, line %d: %zu lanes -> %d wavefront%s (%d conflict%s)", pic.write ? "write of" : "read of",
                pic.array.c_str(), pic.line, pic.lanes.size(), pic.wavefronts, pic.wavefronts == 1 ? "" : "s", extra,
                extra == 1 ? "" : "s");
  v.heading = head;
  v.passes = passesOf(s.request);
  for (BankPass& pass : v.passes) pass.text = passWords(pass, v.passes.size() > 1);
  return v;
}

}  // namespace

int BankPass::tallest() const {
  std::size_t most = 1;
  for (const auto& w : words) most = std::max(most, w.size());
  return int(most);
}

BanksView banksView(const LoadedRun& run, const AnalysisReport& analysis, int bx, int by, Cursor cursor, int warp) {
  BanksView v;
  const BankReport& b = analysis.banks;
  v.noShared = b.requests.empty();
  if (v.noShared) return v;
  char totals[200];
  std::snprintf(totals, sizeof totals, "all shared loads: %llu requests, %llu wavefronts (%llu conflicts); stores: %llu, %llu wavefronts",
                (unsigned long long)b.loads.requests, (unsigned long long)b.loads.wavefronts,
                (unsigned long long)b.loads.conflicts(), (unsigned long long)b.stores.requests,
                (unsigned long long)b.stores.wavefronts);
  v.totals = totals;
  const Cursor c = run.timeline.normalize(cursor);
  const StepInfo& step = run.timeline.step(c.step);
  // This step's requests of the warp, the most wavefronts first: the conflict before a broadcast.
  std::vector<const SharedRequest*> here;
  for (const SharedRequest& s : b.requests) {
    const WarpRequest& r = s.request;
    if (r.blockX == bx && r.blockY == by && r.warp == warp && requestInStep(r, step.phase, step.k)) here.push_back(&s);
  }
  std::stable_sort(here.begin(), here.end(), [](const SharedRequest* a, const SharedRequest* z) { return a->wavefronts > z->wavefronts; });
  for (std::size_t i = 0; i < here.size() && i < 4; ++i) v.requests.push_back(requestView(*here[i]));
  if (here.empty()) {
    char text[200];
    std::snprintf(text, sizeof text, "warp %d makes no shared access at this step (%s): step to a load or a k step.", warp,
                  run.timeline.stepLabel(c.step).c_str());
    v.none = text;
  }
  return v;
}

}  // namespace tilescope::ui
