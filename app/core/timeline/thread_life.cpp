#include "core/timeline/thread_life.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>

#include "core/trace/memory_layout.h"
#include "kernels/kernel_sources.h"

namespace tilescope {

std::string elementName(const char* matrix, int row, int col) {
  return std::string(matrix) + "(" + std::to_string(row) + "," + std::to_string(col) + ")";
}

std::string slotName(const char* tile, int row, int col) {
  return std::string(tile) + "[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

namespace {

std::string range(int first, int count) {
  return count > 1 ? std::to_string(first) + ".." + std::to_string(first + count - 1) : std::to_string(first);
}

std::string number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", double(v));
  return text;
}

std::string loadText(const LifeEntry& e) {
  const char* matrix = e.isN ? "N" : "M";
  std::string t = e.width > 1 ? std::string(matrix) + "(" + std::to_string(e.row) + "," + range(e.col, e.width) + ")"
                              : elementName(matrix, e.row, e.col);
  // A zero-fill names no element (the kernel computed none it could read).
  if (e.zeroFilled) t = e.row >= 0 ? "0 (" + t + " outside " + matrix + ")" : "0 (outside " + std::string(matrix) + ")";
  else if (e.outOfBounds) t += " (outside " + std::string(matrix) + "!)";
  if (e.slotRow >= 0) t += " -> " + slotName(e.isN ? "Nds" : "Mds", e.slotRow, e.slotCol);
  return t;
}

std::string multiplyText(const LifeEntry& e) {
  auto operand = [](bool n, int r, int c, int sr, int sc) {
    return sr >= 0 ? slotName(n ? "Nds" : "Mds", sr, sc) : elementName(n ? "N" : "M", r, c);
  };
  const std::string m = operand(false, e.row, e.col, e.slotRow, e.slotCol);
  const std::string n = operand(true, e.row2, e.col2, e.slotRow2, e.slotCol2);
  if (e.products == 1) return m + " x " + n;
  // An outer product too large to list: how many, from which reads.
  auto reads = [](int count) { return count > 1 ? ".. (" + std::to_string(count) + " reads)" : std::string(); };
  return std::to_string(e.products) + " multiply-adds: " + m + reads(e.mReads) + " x " + n + reads(e.nReads);
}

std::string copyText(const LifeEntry& e) {
  const char* matrix = e.isN ? "N" : "M";
  std::string t = std::string("copy ") + matrix + "(" + range(e.row, e.boxRows) + "," + range(e.col, e.boxCols) + ") -> ";
  t += e.stage >= 0 ? "stage " + std::to_string(e.stage) : slotName(e.isN ? "Nds" : "Mds", e.slotRow, e.slotCol);
  return t + " (" + std::to_string(e.bytes) + " bytes" + (e.zeroFilled ? ", part zero-filled" : "") + ")";
}

// A fragment's elements: "A[1,9][1,5]" when they are every pairing of their rows and columns
// (the PTX ISA's tables give each lane such a set: rows g and g + 8, columns t and t + 4), else
// each one, "A[1][1], A[9][2]".
std::string fragmentText(const char* name, const std::vector<std::pair<int, int>>& elements) {
  std::set<int> rows, cols;
  for (const auto& [r, c] : elements) rows.insert(r), cols.insert(c);
  const std::set<std::pair<int, int>> distinct(elements.begin(), elements.end());
  // A long list (a warpgroup's accumulator: 8 rows by 32 columns a thread) as its ends and count.
  auto joined = [](const std::set<int>& v) {
    if (v.size() > 4) return std::to_string(*v.begin()) + ".." + std::to_string(*v.rbegin()) + " (" + std::to_string(v.size()) + ")";
    std::string t;
    for (int x : v) t += (t.empty() ? "" : ",") + std::to_string(x);
    return t;
  };
  if (!elements.empty() && distinct.size() == rows.size() * cols.size())
    return std::string(name) + "[" + joined(rows) + "][" + joined(cols) + "]";
  if (elements.size() > 4) return std::to_string(elements.size()) + " elements of " + name;
  std::string t;
  for (const auto& [r, c] : elements)
    t += (t.empty() ? "" : ", ") + std::string(name) + "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
  return t;
}

// "mma A[1,9][1,5] x B[1,5][1] -> C[1,9][2,3]": the lane's fragments of one mma.sync.
// Operands a lane does not hold (a warpgroup MMA reads A and B from shared memory) are left out.
std::string mmaText(const LifeEntry& e) {
  std::string t = "mma";
  if (!e.fragmentA.empty()) t += " " + fragmentText("A", e.fragmentA);
  if (!e.fragmentB.empty()) t += (e.fragmentA.empty() ? " " : " x ") + fragmentText("B", e.fragmentB);
  return t + " -> " + fragmentText("C", e.fragmentC);
}

}  // namespace

std::string LifeEntry::text() const {
  switch (kind) {
    case Kind::Load: return loadText(*this);
    case Kind::Barrier: return "wait (line " + std::to_string(line) + ")";
    case Kind::Multiply: return multiplyText(*this);
    case Kind::Store:
      return (width > 1 ? "P(" + std::to_string(row) + "," + range(col, width) + ")" : elementName("P", row, col)) + " = " +
             number(value);
    case Kind::Copy: return copyText(*this);
    case Kind::MbarrierInit:
      return "init " + barrier + " (" + std::to_string(arrivals) + (arrivals == 1 ? " arrival)" : " arrivals)");
    case Kind::MbarrierArrive:
      return "arrive " + barrier + (bytes > 0 ? ", expect " + std::to_string(bytes) + " bytes" : "");
    case Kind::MbarrierWait: return "wait " + barrier + ", parity " + std::to_string(parity);
    case Kind::WorkspaceRead: return "read workspace[" + range(index, width) + "]";
    case Kind::WorkspaceWrite: return "write workspace[" + range(index, width) + "]";
    case Kind::FlagWait: return "wait flag[" + std::to_string(index) + "] (saw " + number(value) + ")";
    case Kind::FlagPublish: return "publish flag[" + std::to_string(index) + "] = " + number(value);
    case Kind::Mma: return mmaText(*this);
    case Kind::DescriptorRead:
      return "tensor cores read " + slotName(isN ? "Nds" : "Mds", slotRow, slotCol) +
             (width > 1 ? ".." + std::to_string(slotCol + width - 1) : "") + " for the warpgroup's MMA";
  }
  return {};
}

std::string LifeEntry::valuesText() const {
  if (kind != Kind::Multiply || !hasValues) return {};
  char v[96];  // fig. 5.8's last column: Pvalue += M x N
  std::snprintf(v, sizeof v, "%.4g x %.4g, Pvalue = %.4g", double(mValue), double(nValue), double(value));
  return v;
}

std::set<int> kernelLinesCalling(const KernelLaunch& launch, std::string_view call) {
  std::set<int> lines;
  if (launch.labTiles) return lines;
  const auto source = kernelSource(launch.kernel);
  if (!source) return lines;
  int line = 1;
  for (std::size_t at = 0; at < source->size(); ++line) {
    const std::size_t end = std::min(source->find('\n', at), source->size());
    if (source->substr(at, end - at).find(call) != std::string_view::npos) lines.insert(line);
    at = end + 1;
  }
  return lines;
}

LifeTime lifeTime(const LifeEntry& e, const Timeline& t, Cursor c) {
  const Cursor n = t.normalize(c);
  if (n == t.begin() || e.step > n.step) return LifeTime::Ahead;
  return e.step == n.step ? LifeTime::Current : LifeTime::Done;
}

namespace {

// What the thread's events are read with: the block's mbarriers' names and the source lines
// that wait on or publish a flag.
struct LifeContext {
  const Timeline& timeline;
  const KernelLaunch& launch;
  bool wideMSpansK = false;
  std::set<int> fullArrays;  // mbarrier arrays (declaration numbers) whose arrivals announce bytes
  std::set<int> flagWaitLines, flagPublishLines;
  std::set<int> descriptorLines;  // lines that issue a warpgroup MMA: their shared reads are the tensor cores'
};

// A barrier that an arrival announces bytes at is a "full" one (its stage's tiles arrived),
// the others "empty" ones (its consumers are done): the Copy engine panel's names.
void findBarrierRoles(LifeContext& c, const BlockTimeline& block) {
  const auto& events = c.timeline.trace().events;
  for (int s = 0; s < c.timeline.steps(); ++s)
    for (uint32_t i : block.stepEvents(s))
      if (events[i].op == Op::MbarrierArrive && events[i].value > 0) c.fullArrays.insert(events[i].sharedCol);
}

// Rung 9's flags are workspace accesses through waitAcquire and publishRelease, and rung 11's
// descriptor reads are shared reads at a line that calls wgmmaTf32: the kernel's own text says
// which lines those are (a lab kernel's workspace is read and written plainly).
void findKernelLines(LifeContext& c) {
  c.flagWaitLines = kernelLinesCalling(c.launch, "waitAcquire(");
  c.flagPublishLines = kernelLinesCalling(c.launch, "publishRelease(");
  c.descriptorLines = kernelLinesCalling(c.launch, "wgmmaTf32(");
}

bool isOperand(const Event& e) {
  if (e.op == Op::ReadM || e.op == Op::ReadN) return e.k >= 0;
  // A kernel without tiles reads its operands straight from global memory.
  return (e.op == Op::LoadM || e.op == Op::LoadN) && e.k >= 0 && e.sharedRow < 0 && !(e.flags & kStagedRead);
}

LifeEntry entryOf(const Event& e, int step, const LifeContext& c) {
  LifeEntry entry;
  entry.step = step;
  entry.phase = e.phase;
  entry.line = e.line;
  entry.width = eventWidth(e.flags);
  entry.row = e.globalRow, entry.col = e.globalCol;
  entry.slotRow = e.sharedRow, entry.slotCol = e.sharedCol;
  entry.value = e.value;
  entry.isN = e.op == Op::LoadN || e.op == Op::CopyN;
  const Tiling& t = c.launch.tiling;
  switch (e.op) {
    case Op::LoadM:
    case Op::LoadN:
      entry.kind = LifeEntry::Kind::Load;
      entry.zeroFilled = zeroFilled(e);
      entry.outOfBounds = !inBounds(e) && !zeroFilled(e);
      break;
    case Op::Barrier: entry.kind = LifeEntry::Kind::Barrier; break;
    case Op::StoreP: entry.kind = LifeEntry::Kind::Store; break;
    case Op::CopyM:
    case Op::CopyN: {
      entry.kind = LifeEntry::Kind::Copy;
      entry.boxRows = entry.isN ? t.bk : t.bm;
      entry.boxCols = entry.isN ? t.bn : t.bk;
      if (entry.boxRows > 0) entry.stage = e.sharedRow / entry.boxRows;
      entry.bytes = int(e.value);
      entry.zeroFilled = zeroFilled(e);
      break;
    }
    case Op::MbarrierInit:
    case Op::MbarrierArrive:
    case Op::MbarrierWait:
      entry.kind = e.op == Op::MbarrierInit     ? LifeEntry::Kind::MbarrierInit
                   : e.op == Op::MbarrierArrive ? LifeEntry::Kind::MbarrierArrive
                                                : LifeEntry::Kind::MbarrierWait;
      entry.barrier = std::string(c.fullArrays.count(e.sharedCol) ? "full[" : "empty[") + std::to_string(e.sharedRow) + "]";
      entry.stage = e.sharedRow;
      if (e.op == Op::MbarrierInit) entry.arrivals = int(e.value);
      if (e.op == Op::MbarrierArrive) entry.bytes = int(e.value);
      if (e.op == Op::MbarrierWait) entry.parity = int(e.value);
      break;
    case Op::LoadW:
    case Op::StoreW: {
      const bool read = e.op == Op::LoadW;
      const bool flag = (read ? c.flagWaitLines : c.flagPublishLines).count(e.line) > 0;
      entry.kind = flag ? (read ? LifeEntry::Kind::FlagWait : LifeEntry::Kind::FlagPublish)
                        : (read ? LifeEntry::Kind::WorkspaceRead : LifeEntry::Kind::WorkspaceWrite);
      entry.index = e.globalCol;
      break;
    }
    default: break;
  }
  return entry;
}

// One k's operands in one step: the M reads and the N reads of that k, and where in the
// thread's program order the first of them came.
struct Operands {
  int k = -1, phase = 0, line = 0;
  std::vector<const Event*> m, n;
};

// The products of one k: each M value times each N value (KStepProducts' rule); up to four
// single values listed one by one, more as one entry with its count.
void addProducts(std::vector<LifeEntry>& out, const Operands& o, int step, bool wideMSpansK, float& pvalue, int& total) {
  int mValues = 0, nValues = 0;
  bool single = true;
  for (const Event* e : o.m) mValues += wideMSpansK ? 1 : eventWidth(e->flags), single &= eventWidth(e->flags) == 1;
  for (const Event* e : o.n) nValues += eventWidth(e->flags), single &= eventWidth(e->flags) == 1;
  total += mValues * nValues;
  LifeEntry entry;
  entry.kind = LifeEntry::Kind::Multiply;
  entry.step = step, entry.phase = o.phase, entry.k = o.k, entry.line = o.line;
  auto setM = [&](const Event* m) {
    if (m) entry.row = m->globalRow, entry.col = m->globalCol, entry.slotRow = m->sharedRow, entry.slotCol = m->sharedCol;
  };
  auto setN = [&](const Event* n) {
    if (n) entry.row2 = n->globalRow, entry.col2 = n->globalCol, entry.slotRow2 = n->sharedRow, entry.slotCol2 = n->sharedCol;
  };
  if (!single || mValues * nValues > 4 || o.m.empty() || o.n.empty()) {
    setM(o.m.empty() ? nullptr : o.m.front());
    setN(o.n.empty() ? nullptr : o.n.front());
    entry.products = mValues * nValues, entry.mReads = int(o.m.size()), entry.nReads = int(o.n.size());
    out.push_back(entry);
    return;
  }
  for (const Event* m : o.m)
    for (const Event* n : o.n) {
      setM(m), setN(n);
      LifeEntry one = entry;
      if (o.m.size() == 1 && o.n.size() == 1) {  // fig. 5.8's Pvalue column
        pvalue += m->value * n->value;
        one.hasValues = true;
        one.mValue = m->value, one.nValue = n->value, one.value = pvalue;
      }
      out.push_back(one);
    }
}

// A tensor-core fragment element (rung 10) into the lane's entry for its mma.sync: one entry per
// instruction, A's elements, then B's, then the sums', so an A after a sum begins the next one.
void addFragment(std::vector<std::pair<LifeEntry, int>>& items, const Event& e, int step) {
  // A sum the entry already holds begins the next instruction too (a warpgroup MMA records its
  // accumulator alone, one instruction after another).
  bool fresh = items.empty() || items.back().second >= 0 || items.back().first.kind != LifeEntry::Kind::Mma;
  if (!fresh) {
    const std::vector<std::pair<int, int>>& sums = items.back().first.fragmentC;
    fresh = (e.op == Op::MmaA && !sums.empty()) ||
            (e.op == Op::MmaC && std::find(sums.begin(), sums.end(), std::pair<int, int>(e.sharedRow, e.sharedCol)) != sums.end());
  }
  if (fresh) {
    LifeEntry entry;
    entry.kind = LifeEntry::Kind::Mma;
    entry.step = step, entry.phase = e.phase, entry.line = e.line;
    items.push_back({entry, -1});
  }
  LifeEntry& entry = items.back().first;
  auto& into = e.op == Op::MmaA ? entry.fragmentA : e.op == Op::MmaB ? entry.fragmentB : entry.fragmentC;
  into.emplace_back(e.sharedRow, e.sharedCol);
}

// The thread's events of one step, in program order, operands gathered by their k.
void addStep(ThreadLife& life, const LifeContext& c, const std::vector<const Event*>& mine, int step, float& pvalue) {
  auto phaseOf = [&](int phase) -> LifePhase& {
    if (life.phases.empty() || life.phases.back().phase != phase) life.phases.push_back({phase, {}});
    return life.phases.back();
  };
  // Items in order: an entry, or (index into groups) the products of one k, placed where its first read came.
  std::vector<Operands> groups;
  std::vector<std::pair<LifeEntry, int>> items;
  std::map<std::pair<int, int>, int> groupOf;  // (phase, k) -> into groups
  for (const Event* e : mine) {
    if (e->op == Op::MmaA || e->op == Op::MmaB || e->op == Op::MmaC) {
      addFragment(items, *e, step);
      continue;
    }
    if ((e->op == Op::ReadM || e->op == Op::ReadN) && c.descriptorLines.count(e->line)) {
      LifeEntry entry = entryOf(*e, step, c);
      entry.kind = LifeEntry::Kind::DescriptorRead;
      entry.isN = e->op == Op::ReadN;
      items.push_back({entry, -1});
      continue;
    }
    if (isOperand(*e)) {
      auto [at, fresh] = groupOf.try_emplace({e->phase, e->k}, int(groups.size()));
      if (fresh) {
        groups.push_back({e->k, e->phase, e->line, {}, {}});
        items.push_back({{}, at->second});
      }
      (e->op == Op::ReadN || e->op == Op::LoadN ? groups[std::size_t(at->second)].n : groups[std::size_t(at->second)].m).push_back(e);
      continue;
    }
    items.push_back({entryOf(*e, step, c), -1});
  }
  for (const auto& [entry, group] : items) {
    if (group >= 0) {
      const Operands& o = groups[std::size_t(group)];
      addProducts(phaseOf(o.phase).entries, o, step, c.wideMSpansK, pvalue, life.products);
    } else if (entry.kind == LifeEntry::Kind::Store) {
      life.stores.push_back(entry);
    } else {
      phaseOf(entry.phase).entries.push_back(entry);
    }
  }
}

}  // namespace

ThreadLife threadLife(const Timeline& t, const BlockTimeline& block, int thread) {
  ThreadLife life;
  life.thread = thread;
  LifeContext context{t, t.trace().launch, wideReadOfMSpansK(t.trace().launch), {}, {}, {}, {}};
  findBarrierRoles(context, block);
  findKernelLines(context);
  const auto& events = t.trace().events;
  const unsigned blockX = t.trace().launch.blockX;
  float pvalue = 0;  // the thread's running dot product, as the kernel accumulates it
  std::vector<const Event*> mine;
  for (int s = 0; s < t.steps(); ++s) {
    mine.clear();
    for (uint32_t i : block.stepEvents(s))
      if (linearThread(events[i], blockX) == thread) mine.push_back(&events[i]);
    life.events += int(mine.size());
    addStep(life, context, mine, s, pvalue);
  }
  return life;
}

}  // namespace tilescope
