#include "ui/model/timing_model.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tilescope::ui {
namespace {

// Marker and order of a variant within its family: the tile widths, then naive's block
// shapes in the lecture's order of speed (wide first).
struct Variant {
  Marker marker;
  int order;
};

Variant variantOf(const TimingCase& c) {
  const LaunchConfig& k = c.config;
  if (c.kind == TimedKind::Cublas) return {Marker::Diamond, 0};
  if (c.kind == TimedKind::CublasTf32) return {Marker::Diamond, 1};
  if (c.kind == TimedKind::Lab) return {Marker::TriangleDown, 0};  // apart from tiled's circles
  if (kernelInfo(k.kernel).tiled) {
    switch (k.tile) {
      case 8:
        return {Marker::Triangle, 0};
      case 16:
        return {Marker::Square, 1};
      case 32:
        return {Marker::Circle, 2};
      default:
        return {Marker::Cross, 3 + k.tile};
    }
  }
  constexpr std::array<std::pair<int, int>, 6> kShapes{{{32, 32}, {16, 16}, {64, 16}, {16, 64}, {32, 8}, {64, 4}}};
  constexpr std::array<Marker, 6> kMarkers{Marker::Circle,       Marker::Square,   Marker::Diamond,
                                           Marker::TriangleDown, Marker::Triangle, Marker::Cross};
  for (std::size_t i = 0; i < kShapes.size(); ++i)
    if (kShapes[i] == std::pair{k.blockX, k.blockY}) return {kMarkers[i], int(i)};
  return {Marker::Cross, 100 + k.blockX * 1000 + k.blockY};
}

constexpr std::array<std::string_view, 7> kShownByDefault{"naive (32,32)", "naive (16,16)",      "tiled T=16",
                                                          "tiled T=32",    "tiled-dynamic T=16", "tiled-dynamic T=32",
                                                          "cuBLAS SGEMM"};

bool sameCase(const TimingCase& a, const TimingCase& b) {
  return a.kind == b.kind && a.label() == b.label() && a.config.dims == b.config.dims;
}

}  // namespace

std::string_view sweepKindName(SweepKind k) {
  switch (k) {
    case SweepKind::Live:
      return "live";
    case SweepKind::Lecture:
      return "lecture";
    case SweepKind::Custom:
      return "custom";
    case SweepKind::Ladder:
      return "ladder";
    case SweepKind::Lab:
      return "lab";
  }
  return "?";
}

std::vector<TimingCase> labSweepCases(const std::string& name, int maxN) {
  std::vector<TimingCase> cases;
  for (int n = 256; n <= maxN; n *= 2) {  // size-major: cuBLAS right after the kernel, on the same inputs
    TimingCase lab;
    lab.kind = TimedKind::Lab;
    lab.name = name;
    lab.config.dims = {n, n, n};
    TimingCase cublas;
    cublas.kind = TimedKind::Cublas;
    cublas.config.dims = {n, n, n};
    cublas.config.tile = cublas.config.blockX = cublas.config.blockY = 0;  // unused: written as 0
    cases.push_back(lab);
    cases.push_back(cublas);
  }
  return cases;
}

std::vector<TimingCase> sweepCases(const SweepSpec& spec, const std::string& labName) {
  switch (spec.kind) {
    case SweepKind::Lab:
      return labName.empty() ? std::vector<TimingCase>{} : labSweepCases(labName);
    case SweepKind::Live:
      return liveSweepCases();
    case SweepKind::Lecture:
      return lectureCases();
    case SweepKind::Ladder:
      return ladderCases();
    case SweepKind::Custom:
      break;
  }
  const CustomSweep& c = spec.custom;
  std::vector<KernelId> kernels;
  if (c.naive) kernels.push_back(KernelId::Naive);
  if (c.tiled) kernels.push_back(KernelId::Tiled);
  if (c.tiledBounds) kernels.push_back(KernelId::TiledBounds);
  if (c.tiledDynamic) kernels.push_back(KernelId::TiledDynamic);
  std::vector<int> sizes, tiles;
  for (int n = std::max(c.minN, 1); n <= c.maxN && n <= kMaxDimension; n *= 2) sizes.push_back(n);
  if (c.tile8) tiles.push_back(8);
  if (c.tile16) tiles.push_back(16);
  if (c.tile32) tiles.push_back(32);
  std::vector<std::pair<int, int>> blocks;
  if (c.block16x16) blocks.emplace_back(16, 16);
  if (c.block32x32) blocks.emplace_back(32, 32);
  // A tiled kernel with no tile width or naive with no block shape adds no case by itself.
  return gridCases(kernels, sizes, tiles, blocks, c.cublas);
}

Family liveFamily(KernelId id) {
  int live = 0;
  for (const KernelInfo& k : kKernels) {
    if (!k.liveSweep) continue;
    if (k.id == id) return Family{Family::Kind::Live, live, id};
    ++live;
  }
  return Family::Other;
}

std::string_view familyName(const Family& f) {
  switch (f.kind) {
    case Family::Kind::Live:
      return kernelInfo(f.kernel).name;
    case Family::Kind::Lab:
      return "lab";
    case Family::Kind::Cublas:
      return "cuBLAS";
    case Family::Kind::Other:
      return "other";
  }
  return "?";
}

Family familyOf(const TimingCase& c) {
  if (c.kind == TimedKind::Cublas) return Family::Cublas;
  if (c.kind == TimedKind::Lab) return Family::Lab;
  if (c.kind != TimedKind::Kernel) return Family::Other;
  return liveFamily(c.config.kernel);
}

double problemSize(const LaunchConfig& config) {
  const Dims& d = config.dims;
  if (d.j == d.k && d.k == d.l) return d.j;
  return std::cbrt(double(d.j) * d.k * d.l);
}

std::vector<TimingSeries> buildSeries(const TimingReport& report) {
  struct Keyed {
    TimingSeries series;
    int order;
  };
  std::vector<Keyed> all;
  for (const TimingResult& r : report.results) {
    if (!r.verified || !std::isfinite(r.gflops) || r.gflops <= 0.0) continue;
    const std::string label = r.what.label();
    auto it = std::find_if(all.begin(), all.end(), [&](const Keyed& k) { return k.series.label == label; });
    if (it == all.end()) {
      const Variant v = variantOf(r.what);
      const int rung = isLadderCase(r.what) ? kernelInfo(r.what.config.kernel).ladderRung : 0;
      all.push_back({TimingSeries{label, familyOf(r.what), v.marker, {}, r.what, rung}, v.order});
      it = all.end() - 1;
    }
    it->series.points.push_back(
        {problemSize(r.what.config), r.gflops, r.medianMs, r.repeats, percentOfCublas(report, r)});
  }
  std::stable_sort(all.begin(), all.end(), [](const Keyed& a, const Keyed& b) {
    if (a.series.family != b.series.family) return a.series.family < b.series.family;
    return a.order < b.order;
  });
  std::vector<TimingSeries> out;
  for (Keyed& k : all) {
    auto& p = k.series.points;
    std::stable_sort(p.begin(), p.end(), [](const SeriesPoint& a, const SeriesPoint& b) { return a.n < b.n; });
    out.push_back(std::move(k.series));
  }
  return out;
}

int unverifiedCount(const TimingReport& report) {
  return int(
      std::count_if(report.results.begin(), report.results.end(), [](const TimingResult& r) { return !r.verified; }));
}

bool shownByDefault(const std::string& label) {
  if (label.rfind("lab: ", 0) == 0) return true;
  return std::find(kShownByDefault.begin(), kShownByDefault.end(), label) != kShownByDefault.end();
}

std::vector<LectureRow> lectureRows(const TimingReport& report, int n) {
  std::vector<LectureRow> rows;
  for (const TimingCase& c : lectureCases(n)) {
    LectureRow row{c.label(), nullptr};
    // The newest result of the case wins (a report may hold a case twice after merges).
    for (const TimingResult& r : report.results)
      if (sameCase(r.what, c)) row.result = &r;
    rows.push_back(row);
  }
  return rows;
}

std::optional<std::size_t> bestNaiveRow(const std::vector<LectureRow>& rows) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TimingResult* r = rows[i].result;
    if (!r || !r->verified || r->what.kind != TimedKind::Kernel || r->what.config.kernel != KernelId::Naive) continue;
    if (!best || r->gflops > rows[*best].result->gflops) best = i;
  }
  return best;
}

std::vector<RooflineKernel> rooflineKernels(const std::vector<TimingSeries>& series, IntensityCache* cache) {
  std::vector<RooflineKernel> out;
  for (const TimingSeries& s : series) {
    if (s.family == Family::Cublas || s.what.kind != TimedKind::Kernel || s.points.empty()) continue;
    const SeriesPoint& p = s.points.back();  // the largest N: the steadiest rate
    RooflineKernel k{s.label, s.family, s.marker, s.rung, p.n, p.gflops, 0.0, {}, {}};
    auto intensity = cache ? cache->get(s.what.config) : tracedIntensity(s.what.config);
    if (intensity) {
      k.intensity = intensity->intensity;
      k.tracedAs = describe(intensity->traced);
    } else {
      k.error = intensity.error().message;
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::shared_ptr<const TimingDigest> digestReport(std::shared_ptr<const TimingReport> report, IntensityCache* cache) {
  auto d = std::make_shared<TimingDigest>();
  d->series = buildSeries(*report);
  d->unverified = unverifiedCount(*report);
  d->lectureRows = lectureRows(*report);
  d->bestNaive = bestNaiveRow(d->lectureRows);
  d->ladder = ladderTable(*report);
  d->roofline = rooflineKernels(d->series, cache);
  for (const TimingSeries& s : d->series)
    if (s.family == Family::Cublas && !s.points.empty()) d->cublasLargest = s.points.back();
  d->report = std::move(report);
  return d;
}

TimingReport mergeReports(const TimingReport& base, const TimingReport& newer) {
  TimingReport out = newer;
  out.results.clear();
  for (const TimingResult& r : base.results) {
    const bool replaced = std::any_of(newer.results.begin(), newer.results.end(),
                                      [&](const TimingResult& n) { return sameCase(n.what, r.what); });
    if (!replaced) out.results.push_back(r);
  }
  out.results.insert(out.results.end(), newer.results.begin(), newer.results.end());
  out.seconds = base.seconds + newer.seconds;
  return out;
}

}  // namespace tilescope::ui
