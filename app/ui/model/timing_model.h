// What the timing panel shows, computed from a TimingReport with no ImGui in it (unit tested
// in tests/ui/model/timing_model_test.cpp): the sweeps a user can start, the plot's series (one per
// kernel and tile width or block shape, verified results only), the lecture's block-shape
// table, and how results of successive live sweeps accumulate.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/timing/roofline.h"
#include "core/timing/timing.h"
#include "core/timing/timing_ladder.h"
#include "ui/model/plot_math.h"

namespace tilescope::ui {

// --- Sweeps -------------------------------------------------------------------------------
// Lab: the Lab tab's kernel as written (timed by lab::timeLab in a process of its own) and
// cuBLAS at N = 256..4096.
enum class SweepKind { Live, Lecture, Custom, Ladder, Lab };
std::string_view sweepKindName(SweepKind k);  // "live", "lecture", "custom", "ladder", "lab"

// The custom sweep's choices, as the panel edits them.
struct CustomSweep {
  bool naive = true, tiled = true, tiledBounds = false, tiledDynamic = false, cublas = true;
  int minN = 256, maxN = 2048;  // powers of two
  bool tile8 = false, tile16 = true, tile32 = true;
  bool block16x16 = true, block32x32 = true;  // naive's block shapes
  bool operator==(const CustomSweep&) const = default;
};

struct SweepSpec {
  SweepKind kind = SweepKind::Live;
  CustomSweep custom;
  bool operator==(const SweepSpec&) const = default;
};

// The cases a sweep times: liveSweepCases(), lectureCases(), ladderCases(), or gridCases()
// of the custom choices (empty when the choices select nothing). A lab sweep's cases need the
// kernel's name: `labName` (lab::labTimingName), empty for any other sweep.
std::vector<TimingCase> sweepCases(const SweepSpec& spec, const std::string& labName = {});
// The lab kernel named `name` and cuBLAS at N = 256, 512, ..., maxN.
std::vector<TimingCase> labSweepCases(const std::string& name, int maxN = 4096);

// --- Series -------------------------------------------------------------------------------
// The kernel a result belongs to, which fixes its colour: one colour per kernel, so a
// series keeps its colour whatever else is shown. The live sweep's kernels (those whose facts
// say liveSweep, kernels/) have a family each, numbered in the list's order, so a kernel added
// to that sweep gets one with no line here; a student's kernel from the Lab tab
// (TimedKind::Lab), cuBLAS and every other kernel have one family each.
struct Family {
  enum class Kind : uint8_t { Live, Lab, Cublas, Other };
  Kind kind = Kind::Other;
  int live = -1;                      // Kind::Live: its place among the live sweep's kernels
  KernelId kernel = KernelId::Naive;  // Kind::Live: which kernel
  static const Family Lab, Cublas, Other;
  auto operator<=>(const Family&) const = default;  // live kernels in list order, then the rest
};
inline const Family Family::Lab{Family::Kind::Lab};
inline const Family Family::Cublas{Family::Kind::Cublas};
inline const Family Family::Other{Family::Kind::Other};
// The family of a live-sweep kernel (Kind::Live), Family::Other for any other kernel.
Family liveFamily(KernelId id);
std::string_view familyName(const Family& f);  // the kernel's name, "lab", "cuBLAS", "other"
Family familyOf(const TimingCase& c);

struct SeriesPoint {
  double n = 0.0;       // the problem size: j when the product is square, else cbrt(j k l)
  double gflops = 0.0;  // verified only
  double medianMs = 0.0;
  int repeats = 0;
  std::optional<double> percentOfCublas;  // timing_ladder.h: same sweep, same dims, both verified
};

struct TimingSeries {
  std::string label;  // TimingCase::label(): "tiled T=16", "naive (32,32)", "cuBLAS SGEMM"
  Family family = Family::Other;
  Marker marker = Marker::Circle;   // tells the tile widths (naive: block shapes) of a kernel apart
  std::vector<SeriesPoint> points;  // by increasing n
  TimingCase what;                  // the case of its first result, at that result's dims
  int rung = 0;                     // > 0: a rung at its ladder launch (isLadderCase)
};

double problemSize(const LaunchConfig& config);

// One series per label, verified results only (an unverified result, NaN included, is never
// plotted), ordered by family and then by tile width / block shape.
std::vector<TimingSeries> buildSeries(const TimingReport& report);
// How many results failed verification or could not run (the panel says so).
int unverifiedCount(const TimingReport& report);

// Whether a series is shown before the user toggles it: the figure keeps to the lecture's
// story (naive against tiled at T=16 and 32, the run-time-T kernel, cuBLAS) and shows every
// lab kernel that was timed. tiled-bounds
// times like tiled and T=8 and the lecture's other block shapes crowd the plot; the legend
// turns them on.
bool shownByDefault(const std::string& label);

// --- The lecture's table ------------------------------------------------------------------
struct LectureRow {
  std::string label;
  const TimingResult* result = nullptr;  // null when the report has no such case
};
// The lecture's cases at size n in the lecture's order (lectureCases(n)), each with its
// result in `report` if there is one. Rows of unverified results carry the result (so the
// panel can say why) but the panel shows no numbers for them.
std::vector<LectureRow> lectureRows(const TimingReport& report, int n = 8192);
// The fastest verified naive block shape among the rows, if any.
std::optional<std::size_t> bestNaiveRow(const std::vector<LectureRow>& rows);

// --- The roofline's points ------------------------------------------------------------------
// One per kernel series (not cuBLAS, which has no trace): its largest N's GFLOP/s at the
// intensity counted from a trace of its launch (core/roofline.h), or why there is none.
struct RooflineKernel {
  std::string label;
  Family family = Family::Other;
  Marker marker = Marker::Circle;
  int rung = 0;
  double n = 0.0, gflops = 0.0;
  double intensity = 0.0;   // 0 with `error` set when it could not be counted
  std::string tracedAs;     // describe() of the traced launch
  std::string error;
};
// `cache` may be null (every intensity is traced afresh).
std::vector<RooflineKernel> rooflineKernels(const std::vector<TimingSeries>& series, IntensityCache* cache);

// --- What the panel draws -------------------------------------------------------------------
// Everything the Timing panel derives from one report, made once when the report is (by the
// timing worker, off the UI thread), so that drawing a frame sorts and groups nothing.
struct TimingDigest {
  std::shared_ptr<const TimingReport> report;
  std::vector<TimingSeries> series;      // buildSeries(*report)
  int unverified = 0;                    // unverifiedCount(*report)
  std::vector<LectureRow> lectureRows;   // lectureRows(*report): they point into *report
  std::optional<std::size_t> bestNaive;  // bestNaiveRow(lectureRows)
  LadderTable ladder;                    // ladderTable(*report): it points into *report
  std::vector<RooflineKernel> roofline;  // rooflineKernels(series, cache)
  std::optional<SeriesPoint> cublasLargest;  // cuBLAS at its largest verified N, the roofline's reference
};
// Traces a few small launches for the roofline (milliseconds each, once per launch with a cache).
std::shared_ptr<const TimingDigest> digestReport(std::shared_ptr<const TimingReport> report,
                                                 IntensityCache* cache = nullptr);

// --- Accumulating live sweeps -------------------------------------------------------------
// `newer`'s results replace those of `base` for the same case (label and dims); the others of
// `base` stay. Device, date and ceilings come from `newer`.
TimingReport mergeReports(const TimingReport& base, const TimingReport& newer);

}  // namespace tilescope::ui
