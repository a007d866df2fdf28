#include "thread_story.h"

#include <algorithm>
#include <cstdio>

#include "core/block_geometry.h"

namespace tilescope::ui {
namespace {

std::string threadName(int linear, unsigned blockX) {
  return "thread (" + std::to_string(linear % int(blockX)) + "," + std::to_string(linear / int(blockX)) + ")";
}

// What one event of a step does, in the class's words.
std::string loadWords(const Event& e) {
  const bool m = e.op == Op::LoadM;
  const char* matrix = m ? "M" : "N";
  const char* tile = m ? "Mds" : "Nds";
  if (zeroFilled(e))
    return "writes 0 into " + slotName(tile, e.sharedRow, e.sharedCol) + " (" +
           (e.globalRow >= 0 ? elementName(matrix, e.globalRow, e.globalCol) : std::string("its element")) + " lies outside " +
           matrix + ")";
  // A 128-bit access names its first element and slot: "M(0,4..7)", "Nds[1][8..11]".
  const std::string wide = (e.flags & kWide) ? ".." + std::to_string(e.globalCol + 3) : "";
  const std::string wideSlot = (e.flags & kWide) ? ".." + std::to_string(e.sharedCol + 3) : "";
  auto named = [&](const std::string& s) { return wide.empty() ? s : s.substr(0, s.size() - 1) + wide + ")"; };
  auto slotNamed = [&](const std::string& s) { return wideSlot.empty() ? s : s.substr(0, s.size() - 1) + wideSlot + "]"; };
  if (e.flags & kStagedWrite)
    return "stores " + named(elementName(matrix, e.globalRow, e.globalCol)) + " from a register into " +
           slotNamed(slotName(tile, e.sharedRow, e.sharedCol));
  std::string what = "loads " + named(elementName(matrix, e.globalRow, e.globalCol));
  if (!inBounds(e)) what += ", outside " + std::string(matrix) + "!,";
  if (e.sharedRow >= 0) what += " into " + slotNamed(slotName(tile, e.sharedRow, e.sharedCol));
  else if (e.flags & kStagedRead) what += " into a register";
  return what;
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

}  // namespace

int followedThread(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run || state.view.followX < 0) return -1;
  const KernelLaunch& L = run->run.plan.launch;
  if (state.view.followX >= int(L.blockX) || state.view.followY >= int(L.blockY)) return -1;
  return state.view.followY * int(L.blockX) + state.view.followX;
}

bool loadShadingOn(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return false;
  switch (state.view.loadShading) {
    case LoadShading::On: return true;
    case LoadShading::Off: return false;
    case LoadShading::Auto: break;
  }
  const KernelLaunch& L = run->run.plan.launch;
  return std::max({L.j, L.k, L.l}) > 16;
}

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
  const bool wholeStep = c.threads >= n && !followed && n > 1;
  const std::string who = threadName(thread, L.blockX);
  const std::string others = wholeStep ? ", as do the other " + std::to_string(n - 1) + " threads" : "";
  std::string prefix = run.run.plan.phases > 0 && L.tile > 0 ? "phase " + std::to_string(st.phase) : "";
  if (st.k >= 0) prefix += (prefix.empty() ? "" : ", ") + std::string("k = ") + std::to_string(st.k);
  if (!prefix.empty()) prefix += ": ";

  switch (st.kind) {
    case StepKind::Load: {
      std::string parts;
      for (const Event* e : mine)
        if (e->op == Op::LoadM || e->op == Op::LoadN) {
          std::string words = loadWords(*e);
          if (!parts.empty() && words.rfind("loads ", 0) == 0) words = words.substr(6);  // "loads A and B"
          parts += (parts.empty() ? "" : " and ") + words;
        }
      if (parts.empty()) return prefix + who + " loads nothing in this step";
      return prefix + who + " " + parts + others;
    }
    case StepKind::Barrier: {
      int line = 0;
      for (uint32_t i : stepEvents) line = events[i].line;
      // What the barrier protects follows from what came before it in the phase.
      int before = c.step - 1;
      while (before >= 0 && t.step(before).kind == StepKind::Barrier) --before;
      const bool afterLoads = before >= 0 && t.step(before).kind == StepKind::Load;
      const std::string which = afterLoads ? "the read-after-write barrier" : "the write-after-read barrier";
      const int arrived = std::max(block.barrierArrivals(c), 0);
      std::string text = prefix + (arrived >= n ? "all " + std::to_string(n) : std::to_string(arrived) + " of " + std::to_string(n)) +
                         " threads wait at " + which + " (line " + std::to_string(line) + ")";
      if (arrived >= n) text += afterLoads ? ": the tiles are complete, the k loop may read them"
                                           : ": every read is done, the next phase may overwrite the tiles";
      if (followed) text += "; " + who + (t.done(c, c.step, thread) ? " has arrived" : " has not arrived yet");
      return text;
    }
    case StepKind::Compute: {
      const Event* a = nullptr;
      const Event* b = nullptr;
      for (const Event* e : mine) {
        if (e->op == Op::ReadM || (e->op == Op::LoadM && e->k >= 0)) a = e;
        if (e->op == Op::ReadN || (e->op == Op::LoadN && e->k >= 0)) b = e;
      }
      if (!a || !b) break;
      const int64_t store = storeOf(t, block, thread);
      const std::string p = store >= 0 ? elementName("P", events[std::size_t(store)].globalRow, events[std::size_t(store)].globalCol)
                                       : "its P value";
      auto operand = [](const Event& e) {
        const bool m = e.op == Op::ReadM || e.op == Op::LoadM;
        return e.op == Op::ReadM || e.op == Op::ReadN ? slotName(m ? "Mds" : "Nds", e.sharedRow, e.sharedCol)
                                                      : elementName(m ? "M" : "N", e.globalRow, e.globalCol);
      };
      return prefix + who + ": " + p + " += " + operand(*a) + " x " + operand(*b) + others;
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
  for (int s = 0; s < t.steps(); ++s) {
    if (t.step(s).kind != StepKind::Store && t.step(s).kind != StepKind::Mixed) continue;
    for (uint32_t i : block.stepEvents(s))
      if (events[i].op == Op::StoreP && linearThread(events[i], blockX) == thread)
        for (const GridCell& at : elementsOf(events[i])) f.pTile.push_back({at.row, at.col});
  }
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
