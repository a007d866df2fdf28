#include "core/timeline/thread_life.h"

#include <algorithm>
#include <cstdio>

namespace tilescope {

std::string elementName(const char* matrix, int row, int col) {
  return std::string(matrix) + "(" + std::to_string(row) + "," + std::to_string(col) + ")";
}

std::string slotName(const char* tile, int row, int col) {
  return std::string(tile) + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

std::string LifeEntry::text() const {
  switch (kind) {
    case Kind::Load: {
      const char* matrix = isN ? "N" : "M";
      std::string t = elementName(matrix, row, col);
      // A zero-fill names no element (the kernel computed none it could read).
      if (zeroFilled) t = row >= 0 ? "0 (" + t + " outside " + matrix + ")" : "0 (outside " + std::string(matrix) + ")";
      else if (outOfBounds) t += " (outside " + std::string(matrix) + "!)";
      if (slotRow >= 0) t += " -> " + slotName(isN ? "Nds" : "Mds", slotRow, slotCol);
      return t;
    }
    case Kind::Barrier: return "wait (line " + std::to_string(line) + ")";
    case Kind::Multiply: {
      auto operand = [](bool n, int r, int c, int sr, int sc) {
        return sr >= 0 ? slotName(n ? "Nds" : "Mds", sr, sc) : elementName(n ? "N" : "M", r, c);
      };
      return operand(false, row, col, slotRow, slotCol) + " x " + operand(true, row2, col2, slotRow2, slotCol2);
    }
    case Kind::Store: {
      char v[32];
      std::snprintf(v, sizeof v, "%.4g", double(value));
      return elementName("P", row, col) + " = " + v;
    }
  }
  return {};
}

std::string LifeEntry::valuesText() const {
  if (kind != Kind::Multiply || !hasValues) return {};
  char v[96];  // fig. 5.8's last column: Pvalue += M x N
  std::snprintf(v, sizeof v, "%.4g x %.4g, Pvalue = %.4g", double(mValue), double(nValue), double(value));
  return v;
}

LifeTime lifeTime(const LifeEntry& e, const Timeline& t, Cursor c) {
  const Cursor n = t.normalize(c);
  if (n == t.begin() || e.step > n.step) return LifeTime::Ahead;
  return e.step == n.step ? LifeTime::Current : LifeTime::Done;
}

ThreadLife threadLife(const Timeline& t, const BlockTimeline& block, int thread) {
  ThreadLife life;
  life.thread = thread;
  const auto& events = t.trace().events;
  const unsigned blockX = t.trace().launch.blockX;
  auto phaseOf = [&](int phase) -> LifePhase& {
    if (life.phases.empty() || life.phases.back().phase != phase) life.phases.push_back({phase, {}});
    return life.phases.back();
  };
  float pvalue = 0;  // the thread's running dot product, as the kernel accumulates it
  for (int s = 0; s < t.steps(); ++s) {
    // This step's operands of the dot product, paired in program order (a coarsened thread
    // multiplies several pairs per step).
    std::vector<const Event*> a, b;
    for (uint32_t i : block.stepEvents(s)) {
      const Event& e = events[i];
      if (linearThread(e, blockX) != thread) continue;
      const bool loadsForK = (e.op == Op::LoadM || e.op == Op::LoadN) && e.k >= 0 && e.sharedRow < 0;
      if (e.op == Op::ReadM || (e.op == Op::LoadM && loadsForK)) {
        a.push_back(&e);
        continue;
      }
      if (e.op == Op::ReadN || (e.op == Op::LoadN && loadsForK)) {
        b.push_back(&e);
        continue;
      }
      LifeEntry entry;
      entry.step = s;
      entry.phase = e.phase;
      entry.line = e.line;
      switch (e.op) {
        case Op::LoadM:
        case Op::LoadN:
          entry.kind = LifeEntry::Kind::Load;
          entry.isN = e.op == Op::LoadN;
          entry.row = e.globalRow, entry.col = e.globalCol;
          entry.slotRow = e.sharedRow, entry.slotCol = e.sharedCol;
          entry.zeroFilled = zeroFilled(e);
          entry.outOfBounds = !inBounds(e) && !zeroFilled(e);
          phaseOf(e.phase).entries.push_back(entry);
          break;
        case Op::Barrier:
          entry.kind = LifeEntry::Kind::Barrier;
          phaseOf(e.phase).entries.push_back(entry);
          break;
        case Op::StoreP:
          entry.kind = LifeEntry::Kind::Store;
          entry.row = e.globalRow, entry.col = e.globalCol;
          entry.value = e.value;
          life.stores.push_back(entry);
          break;
        case Op::LoadW:  // the workspace's partial sums and counters: not the dot product's operands
        case Op::StoreW:
        default: break;
      }
    }
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      const Event* m = i < a.size() ? a[i] : nullptr;
      const Event* n = i < b.size() ? b[i] : nullptr;
      const Event& any = m ? *m : *n;
      LifeEntry entry;
      entry.kind = LifeEntry::Kind::Multiply;
      entry.step = s;
      entry.phase = any.phase;
      entry.k = any.k;
      entry.line = any.line;
      if (m) entry.row = m->globalRow, entry.col = m->globalCol, entry.slotRow = m->sharedRow, entry.slotCol = m->sharedCol;
      if (n) entry.row2 = n->globalRow, entry.col2 = n->globalCol, entry.slotRow2 = n->sharedRow, entry.slotCol2 = n->sharedCol;
      if (m && n && a.size() == 1 && b.size() == 1 && eventWidth(m->flags) == 1 && eventWidth(n->flags) == 1) {
        pvalue += m->value * n->value;
        entry.hasValues = true;
        entry.mValue = m->value, entry.nValue = n->value, entry.value = pvalue;
      }
      phaseOf(any.phase).entries.push_back(entry);
    }
  }
  return life;
}

}  // namespace tilescope
