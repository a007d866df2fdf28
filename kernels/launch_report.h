// What went wrong in a launch, as the backends report it: plain data, shared by the
// emulator (which sees every access), the backends' interface and trace files.
#pragma once
#include <cstddef>
#include <string>

namespace tilescope {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct OutOfBoundsAccess {
  std::string array;    // "M", "N", "P", or a shared array's name ("Mds")
  long long index = 0;  // linear index the kernel computed
  long long count = 0;  // elements in the array
  bool write = false;
  int line = 0;         // of the subscript
  Dim3 block, thread;
};

struct BarrierDivergence {
  Dim3 block;
  int arrived = 0;    // threads waiting at a barrier
  int exited = 0;     // threads that returned instead
  int line = 0;       // line of the barrier the first waiting thread reached
  int otherLine = 0;  // a different barrier line another thread waits at (0 if none)
  // Of `arrived`: how many wait at `line`, and how many at `otherLine` (the rest wait at yet
  // other barriers). 0 where not known (a trace file written before they were counted).
  int atLine = 0, atOtherLine = 0;
};

// Accesses kept with their details; the rest are only counted.
inline constexpr std::size_t kMaxRecordedOutOfBounds = 4096;

}  // namespace tilescope
