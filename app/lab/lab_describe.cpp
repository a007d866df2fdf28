// describeOutcome (lab.h): a lab outcome as the CLI prints it and the app lists it; and
// describeDivergence, the deadlock verdict's count of who waits where.
#include <algorithm>
#include <sstream>

#include "core/trace/trace.h"
#include "lab.h"

namespace tilescope::lab {

// Who waits where in a block whose threads do not all reach one barrier: each barrier's own
// count (threads at two barriers are two groups, not one).
std::string describeDivergence(const BarrierDivergence& d) {
  const int atLine = d.otherLine && d.atLine ? d.atLine : d.arrived;
  std::string s = std::to_string(atLine) + " threads wait at the __syncthreads() of line " + std::to_string(d.line);
  if (d.otherLine && d.atLine) {
    s += ", " + std::to_string(d.atOtherLine) + " at the one of line " + std::to_string(d.otherLine);
    const int elsewhere = d.arrived - d.atLine - d.atOtherLine;
    if (elsewhere > 0) s += ", " + std::to_string(elsewhere) + " at other barriers";
  } else if (d.otherLine) {
    s = std::to_string(d.arrived) + " threads wait at different barriers (lines " + std::to_string(d.line) + " and " +
        std::to_string(d.otherLine) + ")";
  }
  if (d.exited > 0 || !d.otherLine) s += ", " + std::to_string(d.exited) + " returned without reaching it";
  return s;
}

// Here, not in lab.cpp: the page's lab (app/platform) builds this file and not that one.
const std::vector<BoundsViolation>& LabOutcome::boundsViolations() const {
  return finished ? finished->outOfBounds : emulatorBounds;
}

const std::vector<Hazard>& LabOutcome::hazards() const {
  static const std::vector<Hazard> kNone;
  return finished && finished->hazards ? finished->hazards->hazards : kNone;
}

std::string describeOutcome(const LabOutcome& o, std::size_t maxItems, StudentText student) {
  std::ostringstream s;
  // What came from the student (the file's name, the compiler's words about its lines, names
  // in it, what the kernel printed), through `student` when one is given.
  const auto esc = [&](std::string_view text) { return student ? student(text) : std::string(text); };
  const LabLaunch& L = o.launch;
  if (o.verdict == LabVerdict::CompileError) {  // the first error is the summary
    s << esc(o.summary) << "\n";
    for (std::size_t i = 1; i < o.diagnostics.size() && i <= maxItems; ++i) {
      const LabDiagnostic& d = o.diagnostics[i];
      s << "  " << esc(d.file) << ":" << d.line << ":" << d.column << ": error: " << esc(d.message) << "\n";
    }
    return s.str();
  }
  s << esc(L.kernelName) << " " << L.dims.j << "x" << L.dims.k << "x" << L.dims.l << " block " << L.block.x << "x"
    << L.block.y << " grid " << L.grid.x << "x" << L.grid.y;
  for (const LabDefine& d : L.defines) s << " " << esc(d.name) << "=" << esc(d.value);
  for (const LabArg& a : L.args) s << " " << esc(a.name) << "=" << a.value;
  if (L.sharedBytes) s << " shared " << L.sharedBytes << " B";
  s << " on " << (L.backend.empty() ? "emulator" : L.backend) << (o.cached ? " (cached compile)" : "");
  if (!L.backendNote.empty()) s << " (" << L.backendNote << ")";
  s << "\n" << esc(o.summary) << "\n";
  if (o.gpu)
    s << "  " << o.gpu->device << ": " << o.gpu->registersPerThread << " registers per thread as written ("
      << o.gpu->tracedRegistersPerThread << " traced), " << o.gpu->staticSharedBytes << " B static shared, "
      << o.gpu->localBytesPerThread << " B local\n";
  std::size_t shown = 0;
  for (const BoundsViolation& v : o.boundsViolations())
    if (shown++ < maxItems) s << "  " << v.describe() << "\n";
  if (o.boundsViolations().empty())
    for (const OutOfBoundsAccess& a : o.outsideAllocation)
      if (shown++ < maxItems)
        s << "  " << esc(a.array) << "[" << a.index << "] of " << a.count << " elements " << (a.write ? "written" : "read")
          << " by blockIdx (" << a.block.x << "," << a.block.y << ") threadIdx (" << a.thread.x << "," << a.thread.y
          << ") at line " << a.line << "\n";
  shown = 0;
  for (const Hazard& h : o.hazards())
    if (shown++ < maxItems)
      s << "  " << hazardName(h.type) << " on " << h.matrix << "ds[" << h.sharedRow << "][" << h.sharedCol << "] in block ("
        << h.blockX << "," << h.blockY << "): " << threadName(h.first.threadX, h.first.threadY) << " line "
        << h.first.line << (h.first.write ? " writes" : " reads") << ", " << threadName(h.second.threadX, h.second.threadY)
        << " line " << h.second.line << (h.second.write ? " writes" : " reads") << "\n";
  if (!o.childOutput.empty() && o.verdict == LabVerdict::Crashed) {
    // Line by line, each indented and (with `student`) one line: nothing the kernel printed
    // can pass for a line of the report.
    const std::string printed = o.childOutput.substr(0, 600);
    s << "  the kernel printed:\n";
    for (std::size_t at = 0; at < printed.size();) {
      const std::size_t end = std::min(printed.find('\n', at), printed.size());
      s << "    | " << esc(std::string_view(printed).substr(at, end - at)) << "\n";
      at = end + 1;
    }
  }
  return s.str();
}

}  // namespace tilescope::lab
