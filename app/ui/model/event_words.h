// How the app describes events and counts in words, in one wording (tooltips, the Counters'
// figures): GUI-free, so that a view can hold the words it shows.
#pragma once
#include <string>

#include "kernels/trace/trace_event.h"

namespace tilescope::ui {

// "thread tx=1, ty=0 of block (0,1) loaded M(1,2) into Mds[0][1] (phase 1, line 31)"
std::string describeEvent(const Event& e);

// A count in at most four characters and a unit letter, for a narrow column: exact below
// 10000, else three significant digits with k, M, G or T (196608 -> "197k", 33554432 ->
// "33.6M"); `unit` follows with a space ("786 kB"). The exact figure belongs in a tooltip.
std::string shortCount(unsigned long long n, const char* unit = "");

}  // namespace tilescope::ui
