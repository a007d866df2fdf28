// describeOutcome (lab.h): a lab outcome as the CLI prints it and the app lists it; and
// describeDivergence, the deadlock verdict's count of who waits where.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/trace/trace.h"
#include "lab.h"
#include "lab/interp/interp.h"

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
  static const std::vector<BoundsViolation> none;
  return finished ? finished->outOfBounds : none;
}

const std::vector<Hazard>& LabOutcome::hazards() const {
  static const std::vector<Hazard> kNone;
  return finished && finished->hazards ? finished->hazards->hazards : kNone;
}

namespace {

// A line the kernel printed, for a reader without a terminal's escaping (the app): each
// control byte (a tab too, which would shift the columns) as \xNN, a backslash as \\.
std::string controlsEscaped(std::string_view line) {
  std::string out;
  for (const char c : line) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", b);
      out += hex;
    } else if (c == '\\') {
      out += "\\\\";
    } else {
      out += c;
    }
  }
  return out;
}

// "phase 2", "phases 0 to 3", "phases 0, 2 and 5": the phases a hazard line stands for.
std::string phaseList(const std::vector<int>& phases) {
  if (phases.size() == 1) return "phase " + std::to_string(phases[0]);
  bool consecutive = true;
  for (std::size_t i = 1; i < phases.size(); ++i) consecutive = consecutive && phases[i] == phases[i - 1] + 1;
  if (consecutive) return "phases " + std::to_string(phases.front()) + " to " + std::to_string(phases.back());
  std::string s = "phases ";
  for (std::size_t i = 0; i < phases.size(); ++i)
    s += (i == 0 ? "" : i + 1 == phases.size() ? " and " : ", ") + std::to_string(phases[i]);
  return s;
}

// "block (0,0)", "blocks (0,0) and (1,0)", "blocks (0,0), (1,0), (0,1) and 5 more".
std::string blockList(const std::vector<std::pair<int, int>>& blocks) {
  auto name = [](std::pair<int, int> b) { return "(" + std::to_string(b.first) + "," + std::to_string(b.second) + ")"; };
  if (blocks.size() == 1) return "block " + name(blocks[0]);
  std::string s = "blocks ";
  const std::size_t shown = blocks.size() > 4 ? 3 : blocks.size();
  for (std::size_t i = 0; i < shown; ++i)
    s += (i == 0 ? "" : i + 1 == blocks.size() ? " and " : ", ") + name(blocks[i]);
  if (shown < blocks.size()) s += " and " + std::to_string(blocks.size() - shown) + " more";
  return s;
}

// One line per hazard of a kind, slot, pair of threads and lines, with the phases it happens
// in and the blocks it happens in: a barrier missing from the loop repeats the same pair in
// every phase of every block, which printed line by line read as one message many times over.
void describeHazards(std::ostringstream& s, const std::vector<Hazard>& hazards, std::size_t maxItems) {
  struct Line {
    std::string what, who;  // "RAW on Mds[0][1]", "thread tx=0, ty=0 line 19 writes, ..."
    std::pair<int, int> block;
    std::vector<int> phases;
  };
  std::vector<Line> lines;
  for (const Hazard& h : hazards) {
    std::ostringstream what, who;
    what << hazardName(h.type) << " on " << h.matrix << "ds[" << h.sharedRow << "][" << h.sharedCol << "]";
    who << threadName(h.first.threadX, h.first.threadY) << " line " << h.first.line
        << (h.first.write ? " writes" : " reads") << ", " << threadName(h.second.threadX, h.second.threadY) << " line "
        << h.second.line << (h.second.write ? " writes" : " reads");
    const std::pair<int, int> block{int(h.blockX), int(h.blockY)};
    auto same = std::find_if(lines.begin(), lines.end(),
                             [&](const Line& l) { return l.what == what.str() && l.who == who.str() && l.block == block; });
    if (same == lines.end()) lines.push_back({what.str(), who.str(), block, {h.phase()}});
    else if (same->phases.back() != h.phase()) same->phases.push_back(h.phase());
  }
  struct Folded {
    const Line* line;
    std::vector<std::pair<int, int>> blocks;
  };
  std::vector<Folded> folded;  // the same hazard in the same phases of several blocks: one line
  for (const Line& l : lines) {
    auto same = std::find_if(folded.begin(), folded.end(), [&](const Folded& f) {
      return f.line->what == l.what && f.line->who == l.who && f.line->phases == l.phases;
    });
    if (same == folded.end()) folded.push_back({&l, {l.block}});
    else same->blocks.push_back(l.block);
  }
  for (std::size_t i = 0; i < folded.size() && i < maxItems; ++i)
    s << "  " << folded[i].line->what << " in " << blockList(folded[i].blocks) << ", " << phaseList(folded[i].line->phases)
      << ": " << folded[i].line->who << "\n";
  if (folded.size() > maxItems) s << "  ... and " << folded.size() - maxItems << " more hazards\n";
}

}  // namespace

std::string describePrinted(const LabOutcome& o, std::size_t maxLines, StudentText student) {
  if (o.printed.empty()) return "";
  std::ostringstream s;
  s << "  the kernel printed:\n";
  std::size_t at = 0, lines = 0;
  const std::size_t shownEnd = std::min(o.printed.size(), kMaxShownPrintedBytes);
  while (at < shownEnd && lines < maxLines) {
    const std::size_t end = std::min(o.printed.find('\n', at), shownEnd);
    const std::string_view line = std::string_view(o.printed).substr(at, end - at);
    s << "    | " << (student ? student(line) : controlsEscaped(line)) << "\n";
    ++lines;
    at = end + (end < o.printed.size() && o.printed[end] == '\n' ? 1 : 0);  // a line cut short keeps its rest
  }
  if (at < o.printed.size()) {
    std::size_t moreLines = 0;
    for (std::size_t i = std::min(at, o.printed.size()); i < o.printed.size(); ++i) moreLines += o.printed[i] == '\n';
    if (o.printed.back() != '\n') ++moreLines;
    s << "    (cut: " << moreLines << " more line" << (moreLines == 1 ? "" : "s") << ", "
      << o.printed.size() - std::min(at, o.printed.size()) << " more bytes not shown";
    if (o.printedTruncated) s << "; the lab keeps only the first " << (interp::kMaxPrintedBytes >> 20) << " MiB a launch prints";
    s << ")\n";
  } else if (o.printedTruncated) {
    s << "    (cut: the lab keeps only the first " << (interp::kMaxPrintedBytes >> 20) << " MiB a launch prints)\n";
  }
  return s.str();
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
  describeHazards(s, o.hazards(), maxItems);
  s << describePrinted(o, 40, student);
  if (!o.childOutput.empty() && o.verdict == LabVerdict::Crashed) {
    // Line by line, each indented and (with `student`) one line: nothing the kernel printed
    // can pass for a line of the report.
    const std::string printed = o.childOutput.substr(0, 600);
    s << "  the GPU run printed:\n";  // its runner's output; the interpreter's printf is above
    for (std::size_t at = 0; at < printed.size();) {
      const std::size_t end = std::min(printed.find('\n', at), printed.size());
      s << "    | " << esc(std::string_view(printed).substr(at, end - at)) << "\n";
      at = end + 1;
    }
  }
  return s.str();
}

}  // namespace tilescope::lab
