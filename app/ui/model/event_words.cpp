// The words the panels use for events and counts (event_words.h).
#include "ui/model/event_words.h"

#include <cstdio>
#include <iterator>

#include "core/timeline/cell_marks.h"

namespace tilescope::ui {
namespace {

// One notation everywhere (captions, Thread life, tooltips): an element of M, N or P is
// M(row,col), as the book writes it; a shared slot is Mds[row][col], as the kernel indexes it.
// A 128-bit access touches four consecutive elements or slots: "M(2,4..7)", "Mds[2][4..7]".
std::string columns(int c, const Event& e) {
  return (e.flags & kWide) ? std::to_string(c) + ".." + std::to_string(c + 3) : std::to_string(c);
}
std::string at(int r, int c, const Event& e) { return "[" + std::to_string(r) + "][" + columns(c, e) + "]"; }
std::string element(int r, int c, const Event& e) { return "(" + std::to_string(r) + "," + columns(c, e) + ")"; }

}  // namespace

std::string describeEvent(const Event& e) {
  std::string who = threadName(e.threadX, e.threadY) + " of block (" + std::to_string(e.blockX) + "," +
                    std::to_string(e.blockY) + ")";
  char value[32];
  std::snprintf(value, sizeof value, "%.4g", double(e.value));
  std::string what;
  const bool zero = (e.flags & kZeroFill) != 0;
  const bool outside = (e.flags & kInBounds) == 0;
  switch (e.op) {
    case Op::LoadM:
    case Op::LoadN: {
      const char* matrix = e.op == Op::LoadM ? "M" : "N";
      const char* tile = e.op == Op::LoadM ? "Mds" : "Nds";
      const std::string wide = (e.flags & kWide) ? " (one 128-bit access; the first value)" : "";
      if (zero) what = std::string("wrote 0 into ") + tile + at(e.sharedRow, e.sharedCol, e) + " instead of " + matrix +
                       element(e.globalRow, e.globalCol, e) + " (outside the matrix)";
      else if (e.flags & kStagedWrite)
        what = std::string("stored ") + matrix + element(e.globalRow, e.globalCol, e) + " = " + value +
               ", read earlier into a register, into " + tile + at(e.sharedRow, e.sharedCol, e) + wide;
      else if (e.sharedRow >= 0) what = std::string("loaded ") + matrix + element(e.globalRow, e.globalCol, e) + " = " + value +
                                        " into " + tile + at(e.sharedRow, e.sharedCol, e) + wide;
      else if (e.flags & kStagedRead)
        what = std::string("read ") + matrix + element(e.globalRow, e.globalCol, e) + " = " + value +
               " from global memory into a register, for " + tile + wide;
      else what = std::string("read ") + matrix + element(e.globalRow, e.globalCol, e) + " = " + value + " from global memory" + wide;
      if (outside && !zero) what += " OUT OF BOUNDS";
      break;
    }
    case Op::ReadM:
    case Op::ReadN:
      what = std::string("read ") + (e.op == Op::ReadM ? "Mds" : "Nds") + at(e.sharedRow, e.sharedCol, e) + " = " + value +
             ((e.flags & kWide) ? " (one 128-bit read; the first value)" : "");
      break;
    case Op::Barrier: what = "arrived at __syncthreads()"; break;
    case Op::StoreP:
      what = "stored P" + element(e.globalRow, e.globalCol, e) + " = " + value + ((e.flags & kWide) ? " (one 128-bit store)" : "") +
             (outside ? " OUT OF BOUNDS" : "");
      break;
    case Op::LoadW:
    case Op::StoreW:  // the workspace: an array beside M, N and P, named by the element's index
      what = std::string(e.op == Op::LoadW ? "read" : "wrote") + " the workspace element " + columns(e.globalCol, e) +
             " = " + value + ((e.flags & kWide) ? " (one 128-bit access; the first value)" : "");
      break;
    default: what = "?"; break;
  }
  std::string where = " (";
  if (e.phase >= 0) where += "phase " + std::to_string(e.phase) + ", ";
  if (e.k >= 0) where += "k " + std::to_string(e.k) + ", ";
  where += "line " + std::to_string(e.line) + ")";
  return who + " " + what + where;
}

std::string shortCount(unsigned long long n, const char* unit) {
  const std::string space = *unit ? " " : "";
  if (n < 10000) return std::to_string(n) + space + unit;
  constexpr const char* kPrefixes[] = {"k", "M", "G", "T", "P", "E"};
  double x = double(n) / 1000.0;
  int p = 0;
  // 999999 is 1.00M, not 1000k: move on when three digits would round up to 1000.
  while (x >= 999.5 && p + 1 < int(std::size(kPrefixes))) x /= 1000.0, ++p;
  char text[32];
  std::snprintf(text, sizeof text, "%.3g%s%s%s", x, space.c_str(), kPrefixes[p], unit);
  return text;
}

}  // namespace tilescope::ui
