// The Counters panel's view (counters_view.h): global loads against what the naive kernel would
// need for the same multiply-adds, bytes, FLOPs, OP/B, at the cursor.
#include "ui/model/counters_view.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "ui/model/event_words.h"

namespace tilescope::ui {
namespace {

std::string fixed(const char* format, double x) {
  char v[64];
  std::snprintf(v, sizeof v, format, x);
  return v;
}

// "now / total" exactly and shortened.
CounterLine pair(const char* name, unsigned long long now, unsigned long long total, const char* tip = "") {
  return {name, std::to_string(now) + " / " + std::to_string(total), shortCount(now) + " / " + shortCount(total), tip};
}
CounterLine count(const char* name, unsigned long long n, const char* tip = "", const char* unit = "") {
  const std::string space = *unit ? " " : "";
  std::string exact = std::to_string(n) + space + unit, shortened = shortCount(n, unit);
  if (shortened == exact) shortened.clear();
  return {name, exact, shortened, tip};
}

// On a projector the Counters are a strip under the lesson's text: the saving the pages speak
// of (loads against the naive kernel's, the ratio, OP/B, loads per multiply-add), nothing more.
void keepPresenterStrip(std::vector<CounterLine>& lines) {
  constexpr std::string_view kStrip[] = {"loaded so far / run", "naive, same k steps", "saving", "OP/B",
                                         "loads / multiply-add"};
  std::erase_if(lines, [&](const CounterLine& l) { return std::find(std::begin(kStrip), std::end(kStrip), l.name) == std::end(kStrip); });
}

}  // namespace

const CounterLine* CountersView::line(std::string_view name) const {
  for (const CounterLine& l : lines)
    if (l.name == name) return &l;
  return nullptr;
}

CountersView countersView(const LoadedRun& run, Cursor cursor, const CountersOptions& options) {
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  const Counters now = t.countersAt(c);
  const Counters total = t.countersAt(t.end());
  CountersView v;
  std::vector<CounterLine>& lines = v.lines;
  // Worded so the two lines cannot be read as "tiling loads more": before the first multiply-add
  // the tiles are in (32 / 64) and the naive kernel, doing the same multiply-adds, has loaded 0.
  lines.push_back(pair("loaded so far / run", now.globalLoads, total.globalLoads,
                       "reads of M and N from global memory so far / in the whole run (a ring's: the copy engine's copies)"));
  lines.push_back(count("naive, same k steps", now.naiveLoads(),
                        "what the naive kernel loads for the multiply-adds done so far: 2 elements each"));
  if (now.globalLoads && now.fmas)
    lines.push_back({"saving", fixed("%.2fx", double(now.naiveLoads()) / double(now.globalLoads)), "",
                     "tiling divides global loads by the tile width"});
  lines.push_back(count("bytes loaded", now.bytesLoaded(), "", "B"));
  lines.push_back(count("FLOPs", now.flops(), "2 per multiply-add"));
  lines.push_back({"OP/B", fixed("%.3f", now.flopsPerByte()), "",
                   "FLOPs per byte loaded from global memory: 0.25 for naive, 0.25 T for tiled"});
  lines.push_back(count("shared reads", now.sharedReads));
  if (now.fmas) {  // the two ratios the ladder's rungs lower (lesson "the ladder to cuBLAS")
    lines.push_back({"loads / multiply-add", fixed("%.3f", double(now.globalLoads) / double(now.fmas)), "",
                     "global loads per multiply-add: 2 for naive, 2/T for tiled, 1/BM + 1/BN for a BM x BN block tile"});
    lines.push_back({"shared reads / multiply-add", fixed("%.3f", double(now.sharedReads) / double(now.fmas)), "",
                     "2 for tiled; (TM + TN) / (TM x TN) for a TM x TN register tile"});
  }
  lines.push_back(count("zero-filled", now.zeroFills));
  lines.push_back(count("out-of-bounds", now.outOfBounds, "accesses outside their matrix (the unchecked kernel on odd sizes)"));
  lines.push_back(pair("P stored", now.stores, (unsigned long long)run.run.config.dims.j * run.run.config.dims.l));
  lines.push_back(pair("phases done", (unsigned long long)t.phasesDone(c), (unsigned long long)t.phases()));
  if (options.presenter) keepPresenterStrip(lines);
  return v;
}

}  // namespace tilescope::ui
