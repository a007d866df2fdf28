#include "lab_judge.h"

#include <algorithm>
#include <csignal>
#include <cstring>

#include "core/analysis/races.h"
#include "core/trace/trace.h"

namespace tilescope::lab {

std::string signalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV, a bad memory access";
    case SIGFPE: return "SIGFPE, an arithmetic error such as an integer division by zero";
    case SIGABRT: return "SIGABRT, the program aborted";
    case SIGBUS: return "SIGBUS, a misaligned or unmapped access";
    case SIGILL: return "SIGILL, an illegal instruction";
    // A refused call made with every signal blocked (glibc's system() and popen() start
    // their child so) ends the runner before its handler can name the call.
    case SIGSYS: return "SIGSYS, the sandbox stopped a system call a kernel may not make (starting a process, "
                        "running a program, a network connection)";
    default: return "signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
}

std::string whereText(const LabWhere& w) {
  std::string s = "in block (" + std::to_string(w.block.x) + "," + std::to_string(w.block.y) + ") " +
                  threadName(int(w.thread.x), int(w.thread.y));
  if (w.line > 0) s += ", last recorded access at line " + std::to_string(w.line);
  return s;
}

namespace {

// The student's own name for the tile a hazard is on (the first shared array that holds tiles
// of that matrix), with the slot as the student indexes it.
std::string slotName(const Hazard& h, const std::vector<LabSharedArray>& shared) {
  const MatrixRole role = h.matrix == 'N' ? MatrixRole::N : MatrixRole::M;
  const auto a = std::find_if(shared.begin(), shared.end(), [&](const LabSharedArray& s) { return s.matrix == role; });
  const std::string name = a != shared.end() ? a->name : std::string(1, h.matrix) + "ds";
  if (a != shared.end() && !a->twoDimensional)
    return "the element of " + name + " at row " + std::to_string(h.sharedRow) + ", column " + std::to_string(h.sharedCol) +
           " of the tile";
  return name + "[" + std::to_string(h.sharedRow) + "][" + std::to_string(h.sharedCol) + "]";
}

std::string lineText(int line) { return "line " + std::to_string(line); }

// Where the missing barrier goes: between the two lines in one phase, else after the first
// line, before the next phase reaches the second.
std::string missingBarrier(const Hazard& h) {
  if (h.second.phase > h.first.phase)
    return "a __syncthreads() is missing after " + lineText(h.first.line) + ", before the next phase reaches " +
           lineText(h.second.line);
  return "a __syncthreads() is missing between " + lineText(h.first.line) + " and " + lineText(h.second.line);
}

// The hazard groups that are the same race as `h` (its kind, tile and two lines) in other
// blocks and phases, as "in 4 blocks, phases 0 to 1".
std::string spread(const Hazard& h, const std::vector<Hazard>& hazards) {
  std::vector<std::pair<int, int>> blocks;
  int firstPhase = h.phase(), lastPhase = h.phase();
  for (const Hazard& o : hazards) {
    if (o.type != h.type || o.matrix != h.matrix || o.first.line != h.first.line || o.second.line != h.second.line) continue;
    const std::pair<int, int> b{o.blockX, o.blockY};
    if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
    firstPhase = std::min(firstPhase, int(o.phase())), lastPhase = std::max(lastPhase, int(o.phase()));
  }
  std::string s = "in " + std::to_string(blocks.size()) + (blocks.size() == 1 ? " block" : " blocks");
  s += firstPhase == lastPhase ? ", phase " + std::to_string(firstPhase)
                               : ", phases " + std::to_string(firstPhase) + " to " + std::to_string(lastPhase);
  return s;
}

}  // namespace

std::string hazardSentence(const std::vector<Hazard>& hazards, const std::vector<LabSharedArray>& shared) {
  if (hazards.empty()) return "";
  const Hazard& h = hazards.front();
  const std::string slot = slotName(h, shared);
  const std::string a = threadName(h.first.threadX, h.first.threadY), b = threadName(h.second.threadX, h.second.threadY);
  const std::string where = spread(h, hazards);
  std::string s;
  switch (h.type) {
    case HazardType::ReadAfterWrite:
      s = a + " writes " + slot + " at " + lineText(h.first.line) + " and " + b + " reads it at " +
          lineText(h.second.line) + " with no __syncthreads() between them, so the read may come first and get an old "
          "value: " + missingBarrier(h) + ", so that the whole tile is written before any thread reads it";
      break;
    case HazardType::WriteAfterRead:
      s = a + " reads " + slot + " at " + lineText(h.first.line) + " and " + b + " overwrites it at " +
          lineText(h.second.line) + " with no __syncthreads() between them, so the write may come first and the read get "
          "the next value: " + missingBarrier(h) + ", so that every thread has finished reading the tile before it is "
          "loaded again";
      break;
    case HazardType::WriteAfterWrite:
      s = a + " writes " + slot + " at " + lineText(h.first.line) + " and " + b + " writes it too at " +
          lineText(h.second.line) + " with no __syncthreads() between them, so which value stays is not defined: " +
          missingBarrier(h) + ", or each element of the tile must be written by one thread";
      break;
  }
  return s + " (" + where + ")";
}

void judge(LabOutcome& o, const RunnerResponse& r, const FinishedRun& run, const std::vector<LabSharedArray>& shared) {
  const Verification& verification = run.run.verification;
  const std::vector<BoundsViolation>& bounds = run.outOfBounds;
  const std::vector<Hazard>& hazards = o.hazards();
  const bool outOfBounds = !bounds.empty() || r.outOfBoundsTotal > 0;
  o.hazardSentence = hazardSentence(hazards, shared);
  if (!r.divergences.empty()) {
    const BarrierDivergence& d = r.divergences.front();
    o.verdict = LabVerdict::Deadlocked;
    o.where = LabWhere{d.block, {}, d.line};
    o.summary = "deadlocked: barrier divergence in block (" + std::to_string(d.block.x) + "," +
                std::to_string(d.block.y) + "): " + describeDivergence(d) + " (on a GPU the block hangs or computes garbage)";
  } else if (outOfBounds) {
    o.verdict = LabVerdict::OutOfBounds;
    const std::size_t n = std::max<std::size_t>(bounds.size(), r.outOfBoundsTotal);
    o.summary = "out-of-bounds: " + std::to_string(n) + " accesses outside their array" +
                (bounds.empty() ? "" : ", the first " + bounds.front().describe()) +
                (bounds.empty() && !r.outOfBounds.empty()
                     ? ", the first " + r.outOfBounds.front().array + "[" + std::to_string(r.outOfBounds.front().index) +
                           "] at line " + std::to_string(r.outOfBounds.front().line)
                     : "");
  } else if (!verification.passed) {
    o.verdict = LabVerdict::WrongResult;
    o.summary = "wrong result: " + verification.summary();
  } else if (!hazards.empty()) {
    o.verdict = LabVerdict::Hazard;
    o.summary = "hazard: " + o.hazardSentence +
                " (the result is right here by the emulator's schedule; a GPU may not be so lucky)";
  } else {
    o.verdict = LabVerdict::Verified;
    o.summary = verification.summary();  // "verified: max relative error ..."
  }
}

}  // namespace tilescope::lab
