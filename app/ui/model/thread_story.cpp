#include "ui/model/thread_story.h"

#include "core/timeline/cell_marks.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <span>

#include "core/timeline/block_geometry.h"
#include "core/timeline/copy_ring.h"
#include "core/timeline/thread_life.h"
#include "kernels/kernel_sources.h"

namespace tilescope::ui {
namespace {

// What the kernel's own comment on the barrier's line says it protects (every __syncthreads()
// of the kernels names its dependence, DESIGN.md): 1 read-after-write, 0 write-after-read, -1
// unsaid (a student's kernel), where the steps around it decide.
int statedDependence(KernelId id, int line) {
  const auto source = kernelSource(id);
  if (!source || line <= 0) return -1;
  std::size_t at = 0;
  for (int l = 1; l < line && at != std::string_view::npos; ++l) {
    at = source->find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos) return -1;
  const std::string_view text = source->substr(at, source->find('\n', at) - at);
  if (text.find("read-after-write") != std::string_view::npos) return 1;
  if (text.find("write-after-read") != std::string_view::npos) return 0;
  return -1;
}

std::string threadName(int linear, unsigned blockX) {
  return tilescope::threadName(linear % int(blockX), linear / int(blockX));  // "thread tx=1, ty=0"
}

// "M(0,4)", or a run of n elements along a row: "M(0,4..7)".
std::string elementRange(const char* matrix, int row, int col, int n) {
  const std::string one = elementName(matrix, row, col);
  return n == 1 ? one : one.substr(0, one.size() - 1) + ".." + std::to_string(col + n - 1) + ")";
}
// "Mds[1][2]", or n slots down a column ("Mds[0..3][2]") or along a row ("Nds[1][8..11]").
std::string slotRange(const char* tile, int row, int col, int n, bool down) {
  if (n == 1) return slotName(tile, row, col);
  const std::string last = std::to_string((down ? row : col) + n - 1);
  return std::string(tile) + "[" + std::to_string(row) + (down ? ".." + last : "") + "][" + std::to_string(col) +
         (down ? "" : ".." + last) + "]";
}

// A load of a step in the class's words: one event, or a run of a value's staged stores into
// consecutive slots (the four halves of a 128-bit read stored one by one), merged with the read
// itself when the same step made it.
struct LoadItem {
  const Event* e = nullptr;  // the first event
  int count = 1;             // staged stores in the run
  bool down = false;         // the run's slots go down a column
  bool viaRegister = false;  // the read and its stores, in one
};

std::string loadWords(const LoadItem& item) {
  const Event& e = *item.e;
  const bool m = e.op == Op::LoadM;
  const char* matrix = m ? "M" : "N";
  const char* tile = m ? "Mds" : "Nds";
  if (zeroFilled(e))
    return "writes 0 into " + slotName(tile, e.sharedRow, e.sharedCol) + " (" +
           (e.globalRow >= 0 ? elementName(matrix, e.globalRow, e.globalCol) : std::string("its element")) + " lies outside " +
           matrix + ")";
  // A 128-bit access names its range: "M(0,4..7)", "Nds[1][8..11]".
  const int width = eventWidth(e.flags);
  const std::string element = elementRange(matrix, e.globalRow, e.globalCol, std::max(width, item.count));
  if (item.viaRegister)
    return "loads " + element + " into " + slotRange(tile, e.sharedRow, e.sharedCol, item.count, item.down);
  if (e.flags & kStagedWrite)
    return "stores " + element + " from a register into " + slotRange(tile, e.sharedRow, e.sharedCol, item.count, item.down);
  std::string what = "loads " + element;
  if (!inBounds(e)) what += ", outside " + std::string(matrix) + "!,";
  if (e.sharedRow >= 0) what += " into " + slotRange(tile, e.sharedRow, e.sharedCol, width, false);
  else if (e.flags & kStagedRead) what += " into a register";
  return what;
}

// The step's loads as LoadItems, in trace order: staged stores of consecutive elements into
// consecutive slots become one run, and a run that stores exactly what a staged read of the
// step read takes the read's place.
std::vector<LoadItem> loadItems(const std::vector<const Event*>& events) {
  std::vector<LoadItem> runs, items;
  for (const Event* e : events) {
    if (e->op != Op::LoadM && e->op != Op::LoadN) continue;
    if (!(e->flags & kStagedWrite) || zeroFilled(*e) || eventWidth(e->flags) > 1) {
      items.push_back({e});
      continue;
    }
    if (!runs.empty()) {
      LoadItem& r = runs.back();
      const Event& f = *r.e;
      const int dr = e->sharedRow - f.sharedRow, dc = e->sharedCol - f.sharedCol;
      const bool down = dc == 0 && dr == r.count, along = dr == 0 && dc == r.count;
      if (e->op == f.op && e->globalRow == f.globalRow && e->globalCol == f.globalCol + r.count &&
          (r.count == 1 ? down || along : (r.down ? down : along))) {
        r.down = down;
        ++r.count;
        continue;
      }
    }
    runs.push_back({e});
    items.push_back({});  // where the run goes, filled below
  }
  std::size_t next = 0;
  for (LoadItem& item : items) {
    if (item.e) continue;
    item = runs[next++];
  }
  // A staged read followed in the step by the run that stores it: one item, at the read's place.
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Event& read = *items[i].e;
    if (!(read.flags & kStagedRead) || read.sharedRow >= 0) continue;
    for (std::size_t j = i + 1; j < items.size(); ++j) {
      const Event& w = *items[j].e;
      if ((w.flags & kStagedWrite) && w.op == read.op && w.globalRow == read.globalRow && w.globalCol == read.globalCol &&
          items[j].count == eventWidth(read.flags)) {
        items[i] = items[j];
        items[i].viaRegister = true;
        items.erase(items.begin() + std::ptrdiff_t(j));
        break;
      }
    }
  }
  return items;
}

// A step with more than two loads (a register tile's thread loads several elements of each
// tile) says which elements went into each tile, without the slots, which the Shared memory view
// shows: "loads M(3,3), M(7,3) into Mds and N(1,7), N(3,7) into Nds". Fills, loads out of
// bounds and staged halves on their own are said in full after them.
std::vector<std::string> loadPhrases(const std::vector<LoadItem>& items) {
  std::vector<std::string> out;
  if (items.size() <= 2) {
    for (const LoadItem& item : items) out.push_back(loadWords(item));
    return out;
  }
  std::string lists[2];  // M's elements, N's
  for (const LoadItem& item : items) {
    const Event& e = *item.e;
    const bool plain = !zeroFilled(e) && inBounds(e) && (item.viaRegister || (e.sharedRow >= 0 && !(e.flags & kStagedWrite)));
    if (!plain) continue;
    const bool n = e.op == Op::LoadN;
    std::string& list = lists[n ? 1 : 0];
    list += (list.empty() ? "" : ", ") +
            elementRange(n ? "N" : "M", e.globalRow, e.globalCol, std::max(eventWidth(e.flags), item.count));
  }
  for (int t = 0; t < 2; ++t)
    if (!lists[t].empty()) out.push_back("loads " + lists[t] + " into " + (t ? "Nds" : "Mds"));
  for (const LoadItem& item : items) {
    const Event& e = *item.e;
    if (zeroFilled(e) || !inBounds(e) || (!item.viaRegister && (e.sharedRow < 0 || (e.flags & kStagedWrite))))
      out.push_back(loadWords(item));
  }
  return out;
}

// The event of `thread` that stores its P element (the last one, for kernels that store per phase).
int64_t storeOf(const Timeline& t, const BlockTimeline& block, int thread) {
  const auto& events = t.trace().events;
  const unsigned blockX = t.trace().launch.blockX;
  for (int s = t.steps() - 1; s >= 0; --s) {
    if (t.step(s).kind != StepKind::Store && t.step(s).kind != StepKind::Mixed) continue;
    for (uint32_t i : block.stepEvents(s))
      if (events[i].op == Op::StoreP && linearThread(events[i], blockX) == thread) return int64_t(i);
  }
  return -1;
}

// Every element of P `thread` stores (its register tile on the ladder), each once.
std::vector<GridCell> storedElements(const Timeline& t, const BlockTimeline& block, int thread) {
  std::vector<GridCell> out;
  const auto& events = t.trace().events;
  const unsigned blockX = t.trace().launch.blockX;
  for (int s = 0; s < t.steps(); ++s) {
    if (t.step(s).kind != StepKind::Store && t.step(s).kind != StepKind::Mixed) continue;
    for (uint32_t i : block.stepEvents(s))
      if (events[i].op == Op::StoreP && linearThread(events[i], blockX) == thread)
        for (const GridCell& at : elementsOf(events[i]))
          if (std::find(out.begin(), out.end(), at) == out.end()) out.push_back(at);
  }
  return out;
}

std::string span(int first, int last) {
  return first == last ? std::to_string(first) : std::to_string(first) + ".." + std::to_string(last);
}

// Cells named as one rectangle when they fill one ("P(4..7,20..23)", "Mds[0][12..15]"), else
// nothing. `tile` names slots, `matrix` elements.
std::string boxName(const std::vector<GridCell>& cells, const char* tile, const char* matrix) {
  if (cells.empty()) return "";
  int r0 = cells[0].row, r1 = r0, c0 = cells[0].col, c1 = c0;
  for (const GridCell& c : cells) r0 = std::min(r0, c.row), r1 = std::max(r1, c.row), c0 = std::min(c0, c.col), c1 = std::max(c1, c.col);
  if (std::size_t(r1 - r0 + 1) * std::size_t(c1 - c0 + 1) != cells.size()) return "";
  return tile ? std::string(tile) + "[" + span(r0, r1) + "][" + span(c0, c1) + "]"
              : std::string(matrix) + "(" + span(r0, r1) + "," + span(c0, c1) + ")";
}

// The values a thread multiplies at a k step, from one side: the slots it read (or, for the
// naive kernel, the elements it loaded), as one rectangle or read by read.
std::string operands(const std::vector<const Event*>& reads) {
  const bool m = reads[0]->op == Op::ReadM || reads[0]->op == Op::LoadM;
  const bool shared = reads[0]->op == Op::ReadM || reads[0]->op == Op::ReadN;
  const char* tile = shared ? (m ? "Mds" : "Nds") : nullptr;
  const char* matrix = m ? "M" : "N";
  auto cellsOf = [&](const Event& e) {
    const EventCells c = shared ? slotsOf(e) : elementsOf(e);
    return std::vector<GridCell>(c.begin(), c.end());
  };
  std::vector<GridCell> all;
  for (const Event* e : reads)
    for (const GridCell& c : cellsOf(*e))
      if (std::find(all.begin(), all.end(), c) == all.end()) all.push_back(c);
  if (std::string box = boxName(all, tile, matrix); !box.empty()) return box;
  // Many scattered pieces (a register tile at the H100's tiling reads eight rows of Mds and four
  // float4s of Nds a step) are said as their count and span, so the caption stays a line or two.
  if (reads.size() > 3) {
    auto [rowLo, rowHi] = std::minmax_element(all.begin(), all.end(), [](auto& a, auto& b) { return a.row < b.row; });
    auto [colLo, colHi] = std::minmax_element(all.begin(), all.end(), [](auto& a, auto& b) { return a.col < b.col; });
    auto span = [](int lo, int hi) { return lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi); };
    const bool wide = eventWidth(reads[0]->flags) == 4;
    return std::to_string(reads.size()) + (wide ? " float4s of " : " values of ") + (tile ? tile : matrix) + " (rows " +
           span(rowLo->row, rowHi->row) + ", columns " + span(colLo->col, colHi->col) + ")";
  }
  std::string out;
  for (const Event* e : reads) out += (out.empty() ? "" : ", ") + boxName(cellsOf(*e), tile, matrix);
  return out;
}

// The P elements the products of a k step add to: the row of each M value times the column of
// each N value. A value read from a slot is the element last loaded into that slot before
// `step` (by any thread of the block: the tile is shared); one read straight from global
// memory (the naive kernel) names its element. Empty when one cannot be told (a slot never
// written, a fill outside the matrix).
std::vector<GridCell> productElements(const Timeline& t, const BlockTimeline& block, int step,
                                      const std::vector<const Event*>& a, const std::vector<const Event*>& b) {
  const auto& events = t.trace().events;
  struct Wanted {
    bool isM;
    GridCell slot;
    int coordinate = -1;  // M's row or N's column
  };
  std::vector<Wanted> wanted;
  for (const auto* side : {&a, &b})
    for (const Event* e : *side) {
      const bool isM = side == &a;
      if (e->op == Op::LoadM || e->op == Op::LoadN) {  // straight from global memory
        for (const GridCell& at : elementsOf(*e)) wanted.push_back({isM, {-1, -1}, isM ? at.row : at.col});
        continue;
      }
      for (const GridCell& at : slotsOf(*e)) wanted.push_back({isM, at});
    }
  std::size_t open = std::count_if(wanted.begin(), wanted.end(), [](const Wanted& w) { return w.slot.row >= 0; });
  for (int s = step - 1; s >= 0 && open > 0; --s) {
    const auto ids = block.stepEvents(s);
    for (auto it = ids.rbegin(); it != ids.rend() && open > 0; ++it) {
      const Event& e = events[*it];
      if ((e.op != Op::LoadM && e.op != Op::LoadN) || e.sharedRow < 0) continue;
      const EventCells slots = slotsOf(e), elements = elementsOf(e);
      for (int i = 0; i < slots.count; ++i)
        for (Wanted& w : wanted)
          if (w.coordinate < 0 && w.slot.row >= 0 && w.isM == (e.op == Op::LoadM) && w.slot == slots.at[std::size_t(i)]) {
            // A fill names its element too, when it has one (-1 otherwise: unknown).
            const GridCell& from = elements.count > i ? elements.at[std::size_t(i)] : GridCell{e.globalRow, e.globalCol};
            w.coordinate = w.isM ? from.row : from.col;
            w.slot = {-1, -1};
            --open;
          }
    }
  }
  std::vector<int> rows, cols;
  for (const Wanted& w : wanted) {
    if (w.coordinate < 0) return {};
    auto& list = w.isM ? rows : cols;
    if (std::find(list.begin(), list.end(), w.coordinate) == list.end()) list.push_back(w.coordinate);
  }
  std::vector<GridCell> out;
  for (int r : rows)
    for (int c : cols) out.push_back({r, c});
  return out;
}

// Rung 9's fix-up in words: "reads the workspace element 40..43 and 296..299", "writes the
// workspace element 7"; past two accesses, how many more.
std::string workspaceWords(const std::vector<const Event*>& events) {
  std::string words;
  int said = 0, more = 0;
  Op last = Op::None;
  for (const Event* e : events) {
    if (e->op != Op::LoadW && e->op != Op::StoreW) continue;
    if (said == 2) {
      ++more;
      continue;
    }
    const int width = eventWidth(e->flags);
    const std::string index =
        std::to_string(e->globalCol) + (width > 1 ? ".." + std::to_string(e->globalCol + width - 1) : "");
    if (e->op == last) words += " and " + index;
    else words += std::string(words.empty() ? "" : " and ") + (e->op == Op::LoadW ? "reads" : "writes") +
                  " the workspace element " + index;
    last = e->op;
    ++said;
  }
  if (more > 0) words += " and " + std::to_string(more) + " more";
  return words;
}

// A ring producer's tensor-map copies (rungs 8 and 9) in words: "has issued the copy engine's
// copies of M's 32x8 tile M(0..31,8..15) and N's 8x64 tile N(8..15,0..63) into stage 1, 3072
// bytes". Issued, not issues: the Copy engine panel's schedule has the producer run as far
// ahead as the ring lets it, so at its lockstep load step the copies are already on their way
// (the caption and the panel tell one story). A copy's box is bm x bk of M or bk x bn of N from its first element; its stage is the
// first slot's row over a stage's rows (bm of Mds, bk of Nds); its bytes are the event's value.
std::string copyWords(const std::vector<const Event*>& events, const Tiling& t) {
  std::string words;
  int stage = -1;
  long long bytes = 0;
  for (const Event* e : events) {
    if (e->op != Op::CopyM && e->op != Op::CopyN) continue;
    const bool m = e->op == Op::CopyM;
    const int rows = m ? t.bm : t.bk, cols = m ? t.bk : t.bn;
    const char* name = m ? "M" : "N";
    words += std::string(words.empty() ? "has issued the copy engine's copies of " : " and ") + name + "'s " +
             std::to_string(rows) + "x" + std::to_string(cols) + " tile " + name + "(" +
             span(e->globalRow, e->globalRow + rows - 1) + "," + span(e->globalCol, e->globalCol + cols - 1) + ")";
    stage = e->sharedRow / std::max(rows, 1);
    bytes += (long long)e->value;
  }
  if (words.empty()) return "";
  return words + " into stage " + std::to_string(stage) + ", " + std::to_string(bytes) + " bytes";
}

// A load step's words: "loads M(0,1) into Mds[0][1] and N(1,0) into Nds[0][1]", the verb once
// while it stays the same, the copies a ring's producer issues and the workspace's part after;
// "" when the thread loads nothing.
std::string loadStepWords(const std::vector<const Event*>& mine, const Tiling& tiling) {
  std::string parts, verb;
  std::vector<std::string> phrases = loadPhrases(loadItems(mine));
  // A caption is a sentence a class reads at a glance: a producer's step of dozens of loads and
  // stores (rung 11's N tiles) names its first few and counts the rest.
  constexpr std::size_t kPhrasesNamed = 4;
  const std::size_t more = phrases.size() > kPhrasesNamed + 1 ? phrases.size() - kPhrasesNamed : 0;
  if (more > 0) phrases.resize(kPhrasesNamed);
  for (std::string words : phrases) {
    const std::string first = words.substr(0, words.find(' ') + 1);
    if (!parts.empty() && first == verb && (verb == "loads " || verb == "stores ")) words = words.substr(verb.size());
    verb = first;
    parts += (parts.empty() ? "" : " and ") + words;
  }
  if (more > 0) parts += ", and " + std::to_string(more) + " more loads and stores";
  if (std::string w = copyWords(mine, tiling); !w.empty()) parts += (parts.empty() ? "" : " and ") + w;
  if (std::string w = workspaceWords(mine); !w.empty()) parts += (parts.empty() ? "" : " and ") + w;
  return parts;
}

// Where a copy engine's ring runs (rung 8), what the moment holds once a barrier has let every
// thread through, as the ring's schedule (core/timeline/copy_ring.h) and so the Copy engine
// panel have it: the copies issued, for which k tiles, and where the consumers wait. "" for a
// block without tensor-map copies.
std::string ringWords(const LoadedRun& run, const BlockTimeline& block, Cursor c) {
  const CopySchedule schedule = CopySchedule::build(run.timeline, block);
  if (!schedule.applies()) return "";
  const CopyRing ring = schedule.at(c);
  std::set<int> tiles;
  for (const RingStage& s : ring.stages)
    if (s.m.tile >= 0) tiles.insert(s.m.tile);
  std::string issued;
  int left = int(tiles.size());
  for (int tile : tiles) issued += std::to_string(tile) + (--left == 0 ? "" : left == 1 ? " and " : ", ");
  const std::string producer = threadName(ring.producerY * int(run.run.plan.launch.blockX) + ring.producerX,
                                          run.run.plan.launch.blockX);
  std::string text = producer + " has issued " + std::to_string(ring.copiesIssued) + " of " +
                     std::to_string(ring.copiesTotal) + " copies" + (tiles.empty() ? "" : " (k tiles " + issued + ")");
  if (ring.waitBarrier >= 0)
    text += " and " + std::to_string(ring.waiting) + " consumers wait on full[" + std::to_string(ring.waitBarrier) +
            "], parity " + std::to_string(ring.waitParity);
  return text;
}

// A barrier step's words: how many threads wait at which barrier (the kernel's own comment on
// its line says what it protects; else what came before it in the phase), and once all have
// arrived, what that allows.
std::string barrierWords(const LoadedRun& run, const BlockTimeline& block, Cursor c) {
  const Timeline& t = run.timeline;
  const auto& events = t.trace().events;
  const int n = t.threadsPerBlock();
  int line = 0;
  for (uint32_t i : block.stepEvents(c.step)) line = events[i].line;
  int before = c.step - 1;
  while (before >= 0 && t.step(before).kind == StepKind::Barrier) --before;
  const int stated = builtInKernel(run.run) ? statedDependence(*builtInKernel(run.run), line) : -1;
  const bool setUp = before < 0 || (stated == 1 && t.step(before).kind != StepKind::Load);  // what the kernel set up
  const bool afterLoads = stated >= 0 ? stated == 1 : setUp || t.step(before).kind == StepKind::Load;
  const std::string which = afterLoads ? "the read-after-write barrier" : "the write-after-read barrier";
  const int arrived = std::max(block.barrierArrivals(c), 0);
  if (arrived >= n)
    if (std::string ring = ringWords(run, block, c); !ring.empty())
      return "all " + std::to_string(n) + " threads passed " + which + " (line " + std::to_string(line) + "); " + ring;
  std::string text = (arrived >= n ? "all " + std::to_string(n) : std::to_string(arrived) + " of " + std::to_string(n)) +
                     " threads wait at " + which + " (line " + std::to_string(line) + ")";
  if (arrived >= n) text += setUp        ? ": what was set up before it is written, every thread may read it"
                            : afterLoads ? ": the tiles are complete, the k loop may read them"
                                         : ": every read is done, the next phase may overwrite the tiles";
  return text;
}

// Rung 11's compute step: the tensor cores read the operands through descriptors for the whole
// warpgroup; the trace records the reads in its threads' names, which multiply nothing. For the
// thread `who` with reads `a` and `b`, or, where it read none (a producer), the step's reads.
// "" where they are no descriptor reads.
std::string descriptorReadWords(const KernelLaunch& L, const std::vector<const Event*>& a,
                                const std::vector<const Event*>& b, std::span<const uint32_t> stepEvents,
                                const EventVector& events, const std::string& who) {
  const std::set<int> lines = kernelLinesCalling(L, "wgmmaTf32(");
  if (lines.empty()) return "";
  if (!a.empty() && !b.empty())
    return lines.count(a.front()->line) ? "the tensor cores read " + operands(a) + " and " + operands(b) +
                                              " for the warpgroup's MMA (recorded in " + who +
                                              "'s name; the thread multiplies nothing itself)"
                                        : "";
  int m = 0, n = 0;
  for (uint32_t i : stepEvents)
    if (lines.count(events[i].line)) {
      m += events[i].op == Op::ReadM;
      n += events[i].op == Op::ReadN;
    }
  if (m + n == 0) return "";
  // Counted as the timeline cuts the step: a thread that records A's chunks alone (no B chunk
  // between) has all of them in its first k step.
  return "the tensor cores' reads in this step, through descriptors for the warpgroup's MMAs: " + std::to_string(m) +
         " 128-bit chunks of Mds and " + std::to_string(n) + " of Nds (recorded in its threads' names; no thread multiplies)";
}

}  // namespace

std::string stepCaption(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, int thread) {
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  if (c == t.begin()) return "the start: nothing has run yet";
  const auto& events = t.trace().events;
  const KernelLaunch& L = run.run.plan.launch;
  const int n = t.threadsPerBlock();
  const StepInfo& st = t.step(c.step);
  const auto stepEvents = block.stepEvents(c.step);
  const bool followed = thread >= 0;
  if (!followed) {  // the newest thread through the step
    const int64_t current = block.currentEvent(c);
    thread = current >= 0 ? linearThread(events[std::size_t(current)], L.blockX) : 0;
  }
  std::vector<const Event*> mine;
  for (uint32_t i : stepEvents)
    if (linearThread(events[i], L.blockX) == thread) mine.push_back(&events[i]);
  // In real order (a race) a step is one thread's: the others have not started, or wait.
  const bool wholeStep = c.threads >= n && !followed && n > 1 && st.thread < 0;
  const std::string who = threadName(thread, L.blockX);
  // The others that act in this step: all the block's threads in the book's kernels, only the
  // consumers in rung 8's (its producer warpgroup issues copies and waits, it computes nothing).
  std::vector<bool> acts(std::size_t(n), false);
  for (uint32_t i : stepEvents) acts[std::size_t(linearThread(events[i], L.blockX))] = true;
  const long actors = std::count(acts.begin(), acts.end(), true);
  const std::string others =
      wholeStep && actors > 1 ? ", as do the other " + std::to_string(actors - 1) + " threads" : "";
  std::string prefix = run.run.plan.phases > 0 && L.tile > 0 ? "phase " + std::to_string(st.phase) : "";
  if (st.k >= 0) prefix += (prefix.empty() ? "" : ", ") + std::string("k = ") + std::to_string(st.k);
  if (!prefix.empty()) prefix += ": ";

  switch (st.kind) {
    case StepKind::Load: {
      const std::string parts = loadStepWords(mine, L.tiling);
      if (parts.empty()) return prefix + who + " loads nothing in this step";
      // A ring's producer issues the copies alone: the others of its step wait for them.
      const bool copies = std::any_of(mine.begin(), mine.end(), [](const Event* e) { return e->op == Op::CopyM || e->op == Op::CopyN; });
      return prefix + who + " " + parts + (copies ? "" : others);
    }
    case StepKind::Barrier: {
      std::string text = prefix + barrierWords(run, block, c);
      if (followed) text += "; " + who + (t.done(c, c.step, thread) ? " has arrived" : " has not arrived yet");
      return text;
    }
    case StepKind::Compute: {
      // A thread multiplies every M value it read by every N value: one product in the chapter's
      // kernels, a register tile's outer product on the ladder ("P(4..7,4..7) += Mds[0][4..7] x
      // Nds[0][4..7]").
      std::vector<const Event*> a, b;
      for (const Event* e : mine) {
        if (e->op == Op::ReadM || (e->op == Op::LoadM && e->k >= 0)) a.push_back(e);
        if (e->op == Op::ReadN || (e->op == Op::LoadN && e->k >= 0)) b.push_back(e);
      }
      if (std::string w = descriptorReadWords(L, a, b, stepEvents, events, who); !w.empty()) return prefix + w;
      if (a.empty() || b.empty()) break;
      std::vector<GridCell> product = productElements(t, block, c.step, a, b);
      if (product.empty()) product = storedElements(t, block, thread);  // the element it stores, at least
      std::string p = boxName(product, nullptr, "P");
      if (p.empty()) p = product.empty() ? "its P value" : "its " + std::to_string(product.size()) + " elements of P";
      return prefix + who + ": " + p + " += " + operands(a) + " x " + operands(b) + others;
    }
    case StepKind::Store:
      for (const Event* e : mine)
        if (e->op == Op::StoreP) {
          char value[32];
          std::snprintf(value, sizeof value, "%.4g", double(e->value));
          return prefix + who + " stores " + elementName("P", e->globalRow, e->globalCol) + " = " + value + others;
        }
      break;
    case StepKind::Mixed: break;
  }
  if (std::string w = workspaceWords(mine); !w.empty()) return prefix + who + " " + w + others;
  return prefix + t.stepLabel(c.step);
}

ThreadFootprint threadFootprint(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, int thread) {
  ThreadFootprint f;
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  const auto& events = t.trace().events;
  const unsigned blockX = run.run.plan.launch.blockX;
  const int phase = t.step(c.step).phase;
  for (int s = 0; s <= c.step; ++s) {
    if (!t.done(c, s, thread)) continue;
    for (uint32_t i : block.stepEvents(s)) {
      const Event& e = events[i];
      if (linearThread(e, blockX) != thread) continue;
      const bool m = e.op == Op::LoadM || e.op == Op::ReadM;
      switch (e.op) {
        case Op::LoadM:
        case Op::LoadN:  // a 128-bit access: four elements and slots
          if (!zeroFilled(e))
            for (const GridCell& at : elementsOf(e)) (m ? f.mLoads : f.nLoads).push_back({at.row, at.col});
          if (e.sharedRow >= 0 && e.phase == phase)
            for (const GridCell& at : slotsOf(e)) (m ? f.mdsWritten : f.ndsWritten).push_back({at.row, at.col});
          break;
        case Op::ReadM:
        case Op::ReadN:
          if (s == c.step)
            for (const GridCell& at : slotsOf(e)) (m ? f.mdsRead : f.ndsRead).push_back({at.row, at.col});
          break;
        case Op::StoreP: f.stored = true; break;
        default: break;
      }
    }
  }
  if (const int64_t store = storeOf(t, block, thread); store >= 0)
    f.p = {events[std::size_t(store)].globalRow, events[std::size_t(store)].globalCol};
  for (const GridCell& at : storedElements(t, block, thread)) f.pTile.push_back({at.row, at.col});
  return f;
}

std::vector<FollowLink> followLinks(const LoadedRun& run, const BlockTimeline& block, Cursor cursor, int thread) {
  std::vector<FollowLink> links;
  const Timeline& t = run.timeline;
  const Cursor c = t.normalize(cursor);
  if (c == t.begin()) return links;
  const int phase = t.step(c.step).phase;
  for (const LifePhase& p : threadLife(t, block, thread).phases) {
    if (p.phase != phase) continue;
    for (const LifeEntry& e : p.entries)
      if (e.kind == LifeEntry::Kind::Load && e.slotRow >= 0 && t.done(c, e.step, thread))
        links.push_back({e.isN, {e.row, e.col}, {e.slotRow, e.slotCol}});
  }
  return links;
}

}  // namespace tilescope::ui
