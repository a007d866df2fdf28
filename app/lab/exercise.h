// Lab exercises (assets/exercises/*.exercise): a starter kernel, a goal, and a grade measured
// on runs of the student's kernel. The format, one setting a line, then the kernel:
//   # a comment
//   title: Boundary checks for any j x k x l
//   goal: one sentence; further goal: lines continue the paragraph
//   define: TILE_WIDTH=4        block: 4x4      grid-coarsen-x: 2
//   arg: NAME=VALUE             shared-bytes: 128
//   sizes: 8,8,8 5,7,3          (J,K,L each)
//   check: correct              verified at every size (no wrong element, nothing out of bounds)
//   check: no-hazards           the race detector finds nothing at any size
//   check: max METRIC LIMIT     / check: min METRIC LIMIT, METRIC one of kMetricNames, measured at
//                               every size and graded by its worst value; `... at 8,8,8` measures
//                               it at the sizes named only (a figure that holds at those, e.g.
//                               2 / TILE_WIDTH loads per multiply-add where the tiles divide P)
//   starter:                    the rest of the file is the starter kernel
// A malformed file is refused with its file and line.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "lab.h"

namespace tilescope::lab {

// global-loads-per-multiply-add: loads of M and N from global memory / (j * k * l)
// load-efficiency: bytes the warps used / bytes of the 32-byte sectors they fetched (loads)
// bank-conflicts: extra shared-memory wavefronts of the reads (analyze's shared_bank_conflicts)
// barriers-per-thread: barrier arrivals / threads
// static-shared-bytes: bytes of static __shared__ arrays per block
extern const std::vector<std::string> kMetricNames;
Result<double> measureMetric(std::string_view metric, const LabOutcome& outcome);

struct ExerciseCheck {
  enum class Kind { Correct, NoHazards, Max, Min } kind = Kind::Correct;
  std::string metric;
  double limit = 0.0;
  std::vector<Dims> at;  // the sizes a metric is measured at; empty: every size
};
// "8x8x8"
std::string sizeName(const Dims& d);
// How a grade names the check: "max bank-conflicts 0", "max global-loads-per-multiply-add 0.5 at
// 8x8x8"; "correct" and "no hazards" (whose items are named per size / once).
std::string checkName(const ExerciseCheck& check);
// How a failed "no hazards" check's detail begins when the race check spent its budget before
// the end of a trace: no hazard found so far is no pass (the grade's verdict says so too).
inline constexpr const char* kRaceCheckStopped = "the race check stopped at its limit before the end of the trace";

struct Exercise {
  std::string id;  // the file's name without .exercise
  std::string title, goal, starter;
  int starterLine = 0;  // the starter's first line in the file
  std::vector<LabDefine> defines;
  std::vector<LabArg> args;
  std::optional<Dim3> block;
  int gridCoarsenX = 1;  // the grid covers P with bx * this many columns per block
  unsigned sharedBytes = 0;
  std::vector<Dims> sizes;
  std::vector<ExerciseCheck> checks;
};

Result<Exercise> parseExercise(std::string_view text, const std::string& fileName);
// Every *.exercise in `dir` (default: the assets' exercises/), sorted by id.
Result<std::vector<Exercise>> loadExercises(const std::filesystem::path& dir = {});
Result<Exercise> findExercise(std::string_view idOrPath);

struct GradeItem {
  std::string check;  // "correct at 5x7x3", "max bank-conflicts 0"
  bool passed = false;
  std::string detail;  // the measured value, or what went wrong
  std::optional<double> value;  // a metric check's measured value
};
struct Grade {
  bool passed = false;
  std::vector<GradeItem> items;
  std::optional<LabOutcome> measured;  // the run at the first size
  uint64_t seed = 1;  // the inputs' seed: the same seed gives the same grade (lab grade --seed N)
};

// Runs `source` at every size of the exercise; `base` gives the time limit, the cache and the
// inputs' seed (`lab check` and `lab grade` draw a fresh one per run, so no answer can be
// computed in advance). A size whose trace could not be recorded (a thread recorded past its
// bound) fails its correctness, accounting and race checks: what cannot be checked is not passed.
// An Error only where the lab refuses the kernel outright (bad input, no compiler).
Result<Grade> gradeExercise(const Exercise& exercise, const std::string& source, const std::string& fileName,
                            const LabRequest& base = {});

// The request that runs `source` as the exercise launches it at size `d`: the exercise's
// defines, arguments, block, grid and shared memory over `base` (time limit, seed, backend).
LabRequest exerciseRequest(const Exercise& exercise, const LabRequest& base, const std::string& source,
                           const std::string& fileName, const Dims& d);

// With --backend cuda (tilescope_lab, lab.cpp: it starts the GPU's runner): at every size, the
// kernel's traced run on the GPU must give the interpreter's trace, event for event, and a right
// P ("the same on the GPU at SIZE"); else the check fails, saying where it behaves differently.
// Added to `grade` after gradeExercise's checks; nothing for a file that did not compile.
inline std::string gpuCheckName(const Dims& d) { return "the same on the GPU at " + sizeName(d); }
Status addGpuChecks(const Exercise& exercise, const std::string& source, const std::string& fileName,
                    const LabRequest& base, Grade& grade);

// Progress between runs of the app: the exercises passed, in
// $XDG_STATE_HOME/tilescope/lab-progress (else ~/.local/state/tilescope/lab-progress).
std::filesystem::path progressFile();
std::map<std::string, bool> loadProgress(const std::filesystem::path& file = progressFile());
Status saveProgress(const std::map<std::string, bool>& passed, const std::filesystem::path& file = progressFile());

}  // namespace tilescope::lab
