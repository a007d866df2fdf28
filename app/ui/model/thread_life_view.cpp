// The Thread life panel's view (thread_life_view.h).
#include "ui/model/thread_life_view.h"

#include <algorithm>

#include "ui/model/thread_story.h"

namespace tilescope::ui {
namespace {

// What a shortened line says instead of the entries it leaves out: how many, never nothing.
std::string elision(int entries, bool allProducts) {
  return "... " + std::to_string(entries) + (allProducts ? (entries == 1 ? " product" : " products") : (entries == 1 ? " entry" : " entries"));
}

// One phase's entries at shortening level `detail`.
void phaseTokens(std::vector<LifeToken>& out, const LifePhase& p, const Timeline& t, Cursor c, int detail, bool current) {
  int products = 0, lastK = -1;
  for (const LifeEntry& e : p.entries)
    if (e.kind == LifeEntry::Kind::Multiply) ++products, lastK = std::max(lastK, e.k);
  int elided = 0;
  bool elidedProductsOnly = true;
  LifeTime elidedTime = LifeTime::Done;
  auto flush = [&] {
    if (elided > 0) out.push_back({elision(elided, elidedProductsOnly), elidedTime});
    elided = 0;
    elidedProductsOnly = true;
  };
  for (const LifeEntry& e : p.entries) {
    const LifeTime time = lifeTime(e, t, c);
    // Shortening: level 1 elides middle products, level 2 keeps only the loads and copies of other phases.
    bool keep = true;
    if (detail >= 1 && e.kind == LifeEntry::Kind::Multiply && products > 3)
      keep = e.k == 0 || e.k == lastK || time == LifeTime::Current;
    if (detail >= 2 && !current) keep = e.kind == LifeEntry::Kind::Load || e.kind == LifeEntry::Kind::Copy;
    if (!keep) {
      if (elided == 0 || time == LifeTime::Current) elidedTime = time;
      ++elided;
      elidedProductsOnly &= e.kind == LifeEntry::Kind::Multiply;
      continue;
    }
    flush();
    std::string text = e.text();
    if (e.kind == LifeEntry::Kind::Multiply && e.k >= 0) text = "k" + std::to_string(e.k) + ": " + text;
    // Fig. 5.8's Pvalue column, once the product has happened (the values are what was read).
    if (time != LifeTime::Ahead && !e.valuesText().empty()) text += " (" + e.valuesText() + ")";
    out.push_back({text, time});
  }
  flush();
}

// Phases left out at the last shortening level, said in one line: "phases 1..3: 3 phases folded".
void foldedPhases(std::vector<LifeToken>& out, int first, int last, LifeTime time) {
  const int count = last - first + 1;
  out.push_back({count == 1 ? "phase " + std::to_string(first) + ":" : "phases " + std::to_string(first) + ".." + std::to_string(last) + ":",
                 LifeTime::Done, true, true});
  out.push_back({count == 1 ? "folded" : std::to_string(count) + " phases folded", time});
}

std::vector<LifeToken> lifeTokens(const ThreadLife& life, const Timeline& t, Cursor c, int detail) {
  std::vector<LifeToken> out;
  const int currentPhase = t.step(c.step).phase;
  const bool phased = life.phases.size() > 1 || t.phases() > 0;
  int foldFirst = -1, foldLast = -1;
  LifeTime foldTime = LifeTime::Done;
  for (const LifePhase& p : life.phases) {
    const bool current = p.phase == currentPhase;
    if (detail >= 3 && !current) {  // the last resort: the current phase, the others folded with their count
      if (foldFirst < 0) foldFirst = p.phase, foldTime = p.entries.empty() ? LifeTime::Done : lifeTime(p.entries.front(), t, c);
      foldLast = p.phase;
      continue;
    }
    if (foldFirst >= 0) foldedPhases(out, foldFirst, foldLast, foldTime), foldFirst = -1;
    out.push_back({phased ? "phase " + std::to_string(p.phase) + ":" : "k loop:", LifeTime::Done, true, true});
    phaseTokens(out, p, t, c, detail, current);
  }
  if (foldFirst >= 0) foldedPhases(out, foldFirst, foldLast, foldTime);
  if (detail >= 1 && life.stores.size() > 2) {  // a register tile's stores: one line, first to last
    LifeTime time = LifeTime::Done;
    for (const LifeEntry& s : life.stores)
      if (const LifeTime one = lifeTime(s, t, c); one == LifeTime::Current || (one == LifeTime::Ahead && time == LifeTime::Done))
        time = one;
    // At the last shortening level the first and last elements without their values: on a
    // projector's short panel the values wrapped the line to three (a tensor-core lane's 8 sums).
    auto named = [&](const LifeEntry& s) {
      const std::string text = s.text();
      return detail >= 3 ? text.substr(0, text.find(" = ")) : text;
    };
    out.push_back({"store:", LifeTime::Done, true, true});
    out.push_back({named(life.stores.front()) + " ... " + named(life.stores.back()) + " (" +
                       std::to_string(life.stores.size()) + " stores)", time});
    return out;
  }
  for (const LifeEntry& s : life.stores) {
    out.push_back({"store:", LifeTime::Done, true, true});
    out.push_back({s.text(), lifeTime(s, t, c)});
  }
  return out;
}

}  // namespace

ThreadLifeView threadLifeView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor,
                              const ThreadLifeOptions& options, const ThreadLife& life) {
  ThreadLifeView v;
  v.thread = options.followed;
  if (v.thread < 0) return v;
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  const int blockX = std::max(int(run.run.plan.launch.blockX), 1);
  // The app's notation, and the book's thread_{ty,tx} (fig. 5.8 names threads by row, then column).
  const int tx = v.thread % blockX, ty = v.thread / blockX;
  const std::string of = " of block (" + std::to_string(block.bx()) + "," + std::to_string(block.by()) + ")";
  v.title = threadName(tx, ty) + " (the book's thread_{" + std::to_string(ty) + "," + std::to_string(tx) + "})" + of;
  v.shortTitle = threadName(tx, ty) + of;
  for (int detail = 0; detail < kLifeDetails; ++detail) v.tokens[std::size_t(detail)] = lifeTokens(life, t, c, detail);
  return v;
}

}  // namespace tilescope::ui
