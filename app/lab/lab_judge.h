// A runner's response in words: the verdict a student fixes first, a signal's name, where in
// the grid a run stopped (lab.cpp's finishing of a run uses these).
#pragma once
#include <string>

#include "core/run/reference.h"
#include "lab.h"
#include "lab_ipc.h"
#include "lab_source.h"

namespace tilescope::lab {

// "SIGSEGV, a bad memory access", ...
std::string signalName(int sig);
// "in block (0,1) thread tx=2, ty=0, last recorded access at line 12"
std::string whereText(const LabWhere& w);
// The verdict, in the order a student must fix things: a deadlock, then accesses outside their
// arrays, then a wrong P, then races that happened to give the right P here.
// `shared`: the kernel's shared arrays, which name the tile of a hazard (hazardSentence).
void judge(LabOutcome& o, const RunnerResponse& r, const FinishedRun& run, const std::vector<LabSharedArray>& shared);
// The first hazard in a teacher's words: which array and slot (the student's own name), which
// two threads, which lines, what the race does and which __syncthreads() is missing, with the
// blocks and phases the same race happens in. "" without hazards.
std::string hazardSentence(const std::vector<Hazard>& hazards, const std::vector<LabSharedArray>& shared);

}  // namespace tilescope::lab
