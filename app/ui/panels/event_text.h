// How the panels describe events and elements in tooltips, in one wording.
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

// Shows `text` as a tooltip when the last item is hovered (wrapped at a readable width).
void tooltip(const std::string& text);

// Continues on the same line when an item `width` pixels wide still fits in the window, so
// rows of buttons and legends wrap instead of running off (presentation mode's big fonts).
void sameLineIfFits(float width);

}  // namespace tilescope::ui
