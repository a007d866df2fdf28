// Shared-memory races: the dependences a __syncthreads() exists to protect (ch. 5: the
// first barrier of fig. 5.9 guards a read-after-write, the second a write-after-read).
//
// A barrier interval of a block is the stretch between two consecutive barriers; the trace
// keeps each thread's events interval by interval (trace.h). Threads of one block are
// ordered only by barriers, so two accesses to the same shared byte address in the same
// interval, by different threads, at least one a write, can happen in either order: a
// hazard. Its type follows the program order of the two accesses inside the interval
// (their positions since the last barrier, each in its own thread):
//   RAW  the write comes first: the reader expects the other thread's value;
//   WAR  the read comes first: the writer may overwrite it before it is read;
//   WAW  two writes: which one survives is unspecified.
// Hazards are grouped by (type, block, phase, the two source lines); each group keeps one
// example pair of threads and the number of conflicting pairs.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {

enum class HazardType { ReadAfterWrite, WriteAfterRead, WriteAfterWrite };
std::string_view hazardName(HazardType t);  // "RAW", "WAR", "WAW"

struct HazardAccess {
  uint16_t threadX = 0, threadY = 0;
  uint16_t line = 0;
  int16_t phase = 0;
  bool write = false;
};

struct Hazard {
  HazardType type = HazardType::ReadAfterWrite;
  uint16_t blockX = 0, blockY = 0;
  int interval = 0;           // barrier interval of the block (0 = before the first barrier)
  HazardAccess first, second;  // first = earlier in program order
  char matrix = 'M';          // which tile
  int sharedRow = 0, sharedCol = 0;  // the example's slot
  uint64_t pairs = 0;         // conflicting access pairs in this group
  int phase() const { return first.phase; }  // the phase whose missing barrier would order them
};

// Every hazard group of the trace, block by block, in order of interval and first line.
// Events of threads outside the launch are skipped (a trace a child returned is checked
// against its launch before any analysis: lab_ipc.h).
std::vector<Hazard> findHazards(const Trace& trace);

// The same search with a bound on its work. Accesses are grouped by word and barrier
// interval, and the pairs of one word are counted class by class (source line, phase, read or
// write) rather than compared one by one: a word of n accesses in K classes costs about
// n x (K + 8) steps (races.cpp, WordCheck), so 16,384 unsynchronised stores to one word are
// about 150,000 steps, not 134 million comparisons. A word whose cost would exceed what is left
// of `maxWork` is not checked and `capped` says so; the groups found until then are kept.
struct HazardSearch {
  std::vector<Hazard> hazards;
  bool capped = false;
};
// 2^30 steps (about 20 s at 18 ns a step, measured on 1 Mi stores to one word from 8 classes;
// reached only by a trace of tens of millions of events, itself far longer to record): a safety. The lab traces at most 2^26 events
// (kMaxTraceEvents), and 2^26 x (K + 8) stays within it while no word is touched, in one barrier
// interval, from more than K = 8 classes (a source line in a phase, reading or writing); a tile
// slot is touched from 2 or 3 (the load, the k loop's read, a zero fill), so no legal launch of
// such a kernel reaches it, however large. Words of up to 32 accesses cost at most 16 steps each.
inline constexpr uint64_t kMaxHazardWork = 1ull << 30;
HazardSearch searchHazards(const Trace& trace, uint64_t maxWork);

}  // namespace tilescope
