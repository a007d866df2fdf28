#include "core/teaching/bugs.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace tilescope {

namespace {

// The texts are ours; the origins name the reference documents students read. A bug's fixed
// kernel is left empty where its buggy kernel's facts name it (fixedTwin, kernels/bugs/): only
// fig. 5.9 on other sizes, a correct kernel used wrongly, names its fix here.
constexpr std::array<Bug, 7> kBugTexts{{
    {"k-typo", "The k loop that never moves",
     "study notes on chapter 5 (the tiled kernel's inner loop)",
     "Both reads in the dot-product loop use [ty][tx], the slot this thread loaded itself, where they should walk a "
     "row of Mds ([ty][k]) and a column of Nds ([k][tx]). The loop variable is never used as an index, so every "
     "phase adds one product T times instead of T different products. Loads, barriers and indices are all fine: "
     "nothing crashes and nothing is out of bounds, only the numbers are wrong.",
     "bug-k-typo", {}, {4, 4, 4}, 2, 16, 16, Symptom::WrongCells,
     "every P cell is red; in the k-step view each thread's shared reads stay on its own slot instead of sweeping a "
     "row of Mds and a column of Nds"},
    {"sync-in-k", "A barrier in every k step",
     "tutorial on reducing global memory traffic (its tiled kernel)",
     "The barrier sits inside the k loop and P is stored inside the phase loop. The result is right, because the "
     "barrier after the last k step also keeps the next phase's loads from overwriting slots still being read. But "
     "each phase now waits at 1 + T barriers instead of 2, and every thread writes its P element once per phase, "
     "each write overwriting the last. A barrier holds the whole block until its slowest warp arrives, so this costs "
     "time on every k step while protecting nothing.",
     "bug-sync-in-k", {}, {8, 8, 8}, 4, 16, 16, Symptom::ExtraBarriers,
     "P verifies, but count the barrier steps per phase (5 instead of 2 with T = 4) and the stores of P"},
    {"no-bounds", "Fig. 5.9 on a size that is not a multiple of T",
     "PMPP chapter 5, figs. 5.9 and 5.11-5.12, and the boundary-check section of the study notes",
     "The tiled kernel of fig. 5.9 assumes that every dimension is a multiple of the tile width. On a 3x3 product "
     "with 2x2 tiles, the second phase asks for column 3 of M: row-major storage turns that into the first element "
     "of the next row, a valid address holding the wrong value. It also asks for row 3 of N, which lies past the "
     "end of the array, and threads with no P element still store one. The fix (fig. 5.13) tests every load, puts "
     "0 into the slot instead, and lets only threads with a real P element store.",
     "tiled", "tiled-bounds", {3, 3, 3}, 2, 16, 16, Symptom::OutOfBounds,
     "out-of-bounds loads marked in M (wrapped to the next row) and N (past the end); P cells red"},
    {"rect-index", "blockDim.y where blockDim.x belongs",
     "lecture slides on the shared-memory matrix multiplication (its local index li)",
     "Numbering the threads of a block row by row needs the length of a row, blockDim.x. Written with blockDim.y the "
     "number is unchanged in a square block, which is all the lecture ever launches, so the slip stays hidden. In a "
     "4x2 block two threads get the same number and some numbers are never handed out: those tile slots are never "
     "loaded, the k loop reads whatever an earlier phase left there, and every P element whose row or column passes "
     "through such a slot is wrong. Launch a square block (4x4) and the bug hides again.",
     "bug-rect-index", {}, {8, 8, 8}, 2, 4, 2, Symptom::WrongCells,
     "red cells in the same columns of every block tile; the hazard report lists the stale shared reads"},
    {"square-grid", "A grid assumed to be square",
     "lecture slides on the shared-memory matrix multiplication (its loop over gridDim.x source blocks)",
     "The number of phases has to count the tiles along k, the dimension M and N share. Taking it from gridDim.x "
     "counts the tiles across the columns of P instead. With square matrices, as in the lecture, both are the same. "
     "Here M is 4x8 and N is 8x4: the grid is 2x2 blocks, so the loop stops after 2 of the 4 phases and every "
     "element of P misses its terms for k = 4 to 7. When k is shorter than l the surplus phases load only zeros: "
     "correct, but wasted work.",
     "bug-square-grid", {}, {4, 8, 4}, 2, 16, 16, Symptom::WrongCells,
     "every P cell is red; the phase slider stops at phase 1 and the right half of M is never loaded"},
    {"no-first-sync", "The read-after-write barrier left out",
     "PMPP chapter 5 (fig. 5.9 and its two barriers) and the study notes' true and false dependences",
     "Without the barrier between the loads and the k loop, a thread may start multiplying before its neighbours "
     "have written their slots of this phase's tiles, and uses whatever those slots still hold: the previous phase's "
     "tile, or what an earlier block left. The emulator runs each thread until it reaches a barrier, the most "
     "unlucky legal schedule, so the first thread of a block reads every slot but its own too early.",
     "tiled-no-first-sync", {}, {4, 4, 4}, 2, 16, 16, Symptom::StaleReads,
     "shared reads marked stale, with the value read and the value the phase loaded; P cells red"},
    {"no-second-sync", "The write-after-read barrier left out",
     "PMPP chapter 5 (fig. 5.9 and its two barriers) and the study notes' true and false dependences",
     "Without the barrier at the end of a phase, a thread that finishes its k loop goes straight on to load the next "
     "phase's tiles, overwriting slots that slower threads of the block have not read yet; they then multiply a "
     "value from the future. With a single phase there is no next load and the result is right: the race needs k "
     "larger than T.",
     "tiled-no-second-sync", {}, {4, 4, 4}, 2, 16, 16, Symptom::StaleReads,
     "shared reads marked as overwritten by the next phase; P cells red"},
}};

// The wrong cells the verification marked, with their expected values; every element is
// checked here only when the verification sampled (gallery launches are small: it never does).
std::vector<WrongCell> findWrongCells(const Run& run) {
  std::vector<WrongCell> out;
  const Verification& v = run.verification;
  const bool marked = !v.wrongCells.empty();
  for (int r = 0; r < run.p.rows; ++r)
    for (int c = 0; c < run.p.cols; ++c) {
      if (marked && !v.wrongAt(r, c)) continue;
      const ElementCheck e = checkElement(run.m, run.n, run.p, r, c);
      if (e.wrong(verificationTolerance(run.m.cols, operandMantissaBits(run)))) out.push_back({r, c, e.expected, run.p.at(r, c)});
    }
  return out;
}

// Shared slots of one block: Mds and Nds, keyed by (matrix, row, col).
uint32_t slotKey(bool nSide, int row, int col) {
  return (uint32_t(nSide) << 31) | (uint32_t(uint16_t(row)) << 15) | uint32_t(uint16_t(col));
}
uint32_t slotKey(const Event& e) {
  return slotKey(e.op == Op::LoadN || e.op == Op::ReadN || e.op == Op::CopyN, e.sharedRow, e.sharedCol);
}

// A tensor-map copy (rung 8's ring) writes its whole box from its first slot on: bm x bk
// slots of Mds, bk x bn of Nds, zero-filled ones included; no thread writes them one by one.
template <class Visit>
void forEachCopiedSlot(const Event& e, const KernelLaunch& L, Visit visit) {
  const bool n = e.op == Op::CopyN;
  const int rows = n ? L.tiling.bk : L.tiling.bm, cols = n ? L.tiling.bn : L.tiling.bk;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) visit(slotKey(n, e.sharedRow + r, e.sharedCol + c));
}

struct SlotWrite {
  int phase;
  float value;
};

void findStaleReads(const Trace& trace, std::vector<StaleRead>& out) {
  const auto& ev = trace.events;
  std::size_t begin = 0;
  std::unordered_map<uint32_t, SlotWrite> last;
  std::unordered_map<uint64_t, float> loadedInPhase;  // (phase, slot) -> value
  // Slots a tensor-map copy filled, by the phase of the copy. A ring's producer and its
  // consumers are in the same phase for the same k tile (kernels/trace/step_rules.h), but
  // nothing orders the producer's events before the consumers' in the trace (no barrier
  // separates them), so a read is matched to a copy by phase, not by position.
  std::unordered_set<uint64_t> copiedInPhase;
  while (begin < ev.size()) {
    std::size_t end = begin;
    while (end < ev.size() && ev[end].blockX == ev[begin].blockX && ev[end].blockY == ev[begin].blockY) ++end;
    last.clear();
    loadedInPhase.clear();
    copiedInPhase.clear();
    for (std::size_t i = begin; i < end; ++i) {
      const Event& e = ev[i];
      if ((e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow >= 0)
        loadedInPhase[(uint64_t(uint16_t(e.phase)) << 32) | slotKey(e)] = e.value;
      if (e.op == Op::CopyM || e.op == Op::CopyN)
        forEachCopiedSlot(e, trace.launch,
                          [&](uint32_t slot) { copiedInPhase.insert((uint64_t(uint16_t(e.phase)) << 32) | slot); });
    }
    for (std::size_t i = begin; i < end; ++i) {
      const Event& e = ev[i];
      if ((e.op == Op::LoadM || e.op == Op::LoadN) && e.sharedRow >= 0) {
        last[slotKey(e)] = {e.phase, e.value};
      } else if (e.op == Op::ReadM || e.op == Op::ReadN) {
        auto it = last.find(slotKey(e));
        if (it != last.end() && it->second.phase == e.phase) continue;
        if (copiedInPhase.count((uint64_t(uint16_t(e.phase)) << 32) | slotKey(e))) continue;
        StaleRead s;
        s.read = e;
        s.writtenInPhase = it == last.end() ? -1 : it->second.phase;
        auto want = loadedInPhase.find((uint64_t(uint16_t(e.phase)) << 32) | slotKey(e));
        s.expectedKnown = want != loadedInPhase.end();
        if (s.expectedKnown) s.expected = want->second;
        out.push_back(s);
      }
    }
    begin = end;
  }
}

std::string fmt(const char* format, double a, double b = 0.0) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, a, b);
  return buf;
}

}  // namespace

std::string_view symptomName(Symptom s) {
  switch (s) {
    case Symptom::WrongCells: return "wrong-cells";
    case Symptom::OutOfBounds: return "out-of-bounds";
    case Symptom::ExtraBarriers: return "extra-barriers";
    case Symptom::StaleReads: return "stale-reads";
  }
  return "?";
}

namespace {
// The gallery with every fix filled in from the kernels' facts, made on first use (the kernel
// list is another translation unit's static).
const std::array<Bug, 7>& bugTable() {
  static const std::array<Bug, 7> bugs = [] {
    std::array<Bug, 7> b = kBugTexts;
    for (Bug& bug : b)
      if (bug.fixedKernel.empty())
        if (auto id = kernelByName(bug.buggyKernel)) bug.fixedKernel = kernelInfo(*id).fixedTwin;
    return b;
  }();
  return bugs;
}
}  // namespace

std::span<const Bug> bugGallery() { return bugTable(); }

const Bug* findBug(std::string_view id) {
  for (const Bug& b : bugTable())
    if (b.id == id) return &b;
  return nullptr;
}

Result<LaunchConfig> bugConfig(const Bug& bug, bool fixed, uint64_t seed) {
  const std::string_view name = fixed ? bug.fixedKernel : bug.buggyKernel;
  auto id = kernelByName(name);
  if (!id) return unavailable("bug '" + std::string(bug.id) + "' needs kernel '" + std::string(name) +
                              "', which this build does not have");
  LaunchConfig c;
  c.kernel = *id;
  c.dims = bug.dims;
  c.tile = bug.tile;
  c.blockX = bug.blockX;
  c.blockY = bug.blockY;
  c.seed = seed;
  if (auto plan = planLaunch(c, true); !plan) return plan.error();
  return c;
}

std::optional<GalleryLaunch> galleryLaunchOf(const LaunchConfig& c) {
  for (const Bug& bug : bugTable())
    for (bool fixed : {false, true}) {
      auto bc = bugConfig(bug, fixed, c.seed);
      // The block shape is the tile for tiled kernels, so only the others must match it.
      if (bc && bc->kernel == c.kernel && bc->dims == c.dims && bc->tile == c.tile &&
          (kernelInfo(c.kernel).tiled || (bc->blockX == c.blockX && bc->blockY == c.blockY)))
        return GalleryLaunch{&bug, fixed};
    }
  return std::nullopt;
}

BugEvidence examineRun(const Run& run) {
  BugEvidence ev;
  ev.verified = run.verification.passed;
  ev.phases = run.plan.phases;
  ev.wrongCells = findWrongCells(run);
  if (!run.trace) return ev;
  ev.traced = true;
  const Trace& t = *run.trace;
  ev.outOfBounds = findBoundsViolations(t);
  findStaleReads(t, ev.staleReads);
  const KernelLaunch& L = t.launch;
  const std::size_t perBlock = std::size_t(L.blockX) * L.blockY;
  std::vector<unsigned> barriers(std::size_t(L.gridX) * L.gridY * perBlock, 0), stores(barriers.size(), 0);
  for (const Event& e : t.events) {
    ev.ringWaits = ev.ringWaits || e.op == Op::MbarrierWait;
    if (e.op != Op::Barrier && e.op != Op::StoreP) continue;
    const std::size_t thread = (std::size_t(e.blockY) * L.gridX + e.blockX) * perBlock + linearThread(e, L.blockX);
    if (thread >= barriers.size()) continue;
    if (e.op == Op::Barrier) {
      ++barriers[thread];
      ++ev.barrierArrivals;
      ev.maxBarriersPerThread = std::max(ev.maxBarriersPerThread, barriers[thread]);
    } else {
      ++stores[thread];
      ev.maxStoresPerThread = std::max(ev.maxStoresPerThread, stores[thread]);
    }
  }
  return ev;
}

bool showsSymptom(Symptom symptom, const BugEvidence& ev) {
  switch (symptom) {
    case Symptom::WrongCells: return !ev.wrongCells.empty();
    case Symptom::OutOfBounds: return !ev.outOfBounds.empty();
    case Symptom::ExtraBarriers: return ev.maxBarriersPerThread > unsigned(2 * ev.phases) || ev.maxStoresPerThread > 1;
    case Symptom::StaleReads: return !ev.staleReads.empty();
  }
  return false;
}

bool isClean(const BugEvidence& ev) {
  if (!ev.verified) return false;
  for (Symptom s : {Symptom::WrongCells, Symptom::OutOfBounds, Symptom::ExtraBarriers, Symptom::StaleReads})
    if (showsSymptom(s, ev)) return false;
  return true;
}

std::string describeEvidence(const BugEvidence& ev, std::size_t maxItems) {
  std::string s;
  s += ev.wrongCells.empty() ? "P: every element matches the reference\n"
                             : "P: " + std::to_string(ev.wrongCells.size()) + " wrong element" +
                                   (ev.wrongCells.size() == 1 ? "" : "s") + "\n";
  for (std::size_t i = 0; i < std::min(maxItems, ev.wrongCells.size()); ++i) {
    const WrongCell& w = ev.wrongCells[i];
    s += "  P(" + std::to_string(w.row) + "," + std::to_string(w.col) + ")" +
         fmt(": expected %+.5f, got %+.5f\n", w.expected, double(w.actual));
  }
  if (ev.wrongCells.size() > maxItems) s += "  ... and " + std::to_string(ev.wrongCells.size() - maxItems) + " more\n";
  if (!ev.traced) return s + "(not traced: no access, barrier or shared-memory evidence)\n";

  s += "out-of-bounds accesses: " + (ev.outOfBounds.empty() ? std::string("none") : std::to_string(ev.outOfBounds.size())) + "\n";
  for (std::size_t i = 0; i < std::min(maxItems, ev.outOfBounds.size()); ++i)
    s += "  " + ev.outOfBounds[i].describe() + "\n";
  if (ev.outOfBounds.size() > maxItems) s += "  ... and " + std::to_string(ev.outOfBounds.size() - maxItems) + " more\n";

  s += "barriers: at most " + std::to_string(ev.maxBarriersPerThread) + " per thread over " +
       std::to_string(ev.phases) + " phase" + (ev.phases == 1 ? "" : "s") +
       (ev.ringWaits ? " (a ring of stages waits on mbarriers instead), " : " (a tiled kernel needs 2 per phase), ") +
       std::to_string(ev.barrierArrivals) + " arrivals in all; stores of P: at most " +
       std::to_string(ev.maxStoresPerThread) + " per thread\n";

  s += "stale shared reads: " + (ev.staleReads.empty() ? std::string("none") : std::to_string(ev.staleReads.size())) + "\n";
  for (std::size_t i = 0; i < std::min(maxItems, ev.staleReads.size()); ++i) {
    const StaleRead& r = ev.staleReads[i];
    const Event& e = r.read;
    s += std::string("  ") + (e.op == Op::ReadM ? "Mds" : "Nds") + "[" + std::to_string(e.sharedRow) + "][" +
         std::to_string(e.sharedCol) + "] read by blockIdx (" + std::to_string(e.blockX) + "," +
         std::to_string(e.blockY) + ") threadIdx (" + std::to_string(e.threadX) + "," + std::to_string(e.threadY) +
         ") in phase " + std::to_string(e.phase) + ", k " + std::to_string(e.k) + ": " + fmt("got %+.5f", e.value);
    if (r.writtenInPhase < 0) s += " (not written by this block: a leftover)";
    else if (r.writtenInPhase < e.phase) s += " (left from phase " + std::to_string(r.writtenInPhase) + ")";
    else s += " (already overwritten by phase " + std::to_string(r.writtenInPhase) + ")";
    if (r.expectedKnown) s += fmt(", phase's value %+.5f", r.expected);
    s += "\n";
  }
  if (ev.staleReads.size() > maxItems) s += "  ... and " + std::to_string(ev.staleReads.size() - maxItems) + " more\n";
  return s;
}

}  // namespace tilescope
