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

void judge(LabOutcome& o, const RunnerResponse& r, const FinishedRun& run) {
  const Verification& verification = run.run.verification;
  const std::vector<BoundsViolation>& bounds = run.outOfBounds;
  const std::vector<Hazard>& hazards = o.hazards();
  const bool outOfBounds = !bounds.empty() || r.outOfBoundsTotal > 0;
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
    const Hazard& h = hazards.front();
    o.verdict = LabVerdict::Hazard;
    o.summary = "hazard: " + std::to_string(hazards.size()) + " groups of shared-memory races, the first " +
                std::string(hazardName(h.type)) + " on " + std::string(1, h.matrix) + "ds between line " +
                std::to_string(h.first.line) + " and line " + std::to_string(h.second.line) +
                " (the result is right here by the emulator's schedule; a GPU may not be so lucky)";
  } else {
    o.verdict = LabVerdict::Verified;
    o.summary = verification.summary();  // "verified: max relative error ..."
  }
}

}  // namespace tilescope::lab
