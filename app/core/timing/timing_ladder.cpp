#include "core/timing/timing_ladder.h"

#include <algorithm>
#include <cstdio>

#include "core/json_writer.h"

namespace tilescope {

std::vector<KernelId> ladderKernels() {
  std::vector<KernelId> rungs;
  for (const KernelInfo& k : kKernels)
    if (k.ladderRung > 0) rungs.push_back(k.id);
  std::stable_sort(rungs.begin(), rungs.end(),
                   [](KernelId a, KernelId b) { return kernelInfo(a).ladderRung < kernelInfo(b).ladderRung; });
  return rungs;
}

TimingCase ladderCase(KernelId id, int n) {
  const LadderLaunch& how = kernelInfo(id).ladderLaunch;
  TimingCase c;
  c.config.kernel = id;
  c.config.dims = {n, n, n};
  if (how.tile > 0) c.config.tile = how.tile;
  if (how.blockX > 0) c.config.blockX = how.blockX;
  if (how.blockY > 0) c.config.blockY = how.blockY;
  return c;
}

bool isLadderCase(const TimingCase& c) {
  if (c.kind != TimedKind::Kernel || kernelInfo(c.config.kernel).ladderRung <= 0) return false;
  // The launch fields that matter to the kernel: T for a tiled one, the block for the others.
  const TimingCase want = ladderCase(c.config.kernel, c.config.dims.j);
  if (kernelInfo(c.config.kernel).tiled) return c.config.tile == want.config.tile;
  return c.config.blockX == want.config.blockX && c.config.blockY == want.config.blockY;
}

std::vector<TimingCase> ladderCases(const std::vector<int>& sizes) {
  std::vector<TimingCase> cases;
  const std::vector<KernelId> rungs = ladderKernels();
  for (int n : sizes) {
    for (KernelId id : rungs) cases.push_back(ladderCase(id, n));
    TimingCase cublas;
    cublas.kind = TimedKind::Cublas;
    cublas.config.dims = {n, n, n};
    cublas.config.tile = cublas.config.blockX = cublas.config.blockY = 0;  // unused: written as 0
    cases.push_back(cublas);
  }
  return cases;
}

const TimingResult* cublasPartner(const TimingReport& report, const TimingResult& r) {
  const TimingResult* partner = nullptr;
  for (const TimingResult& c : report.results)  // the newest of the sweep wins, as everywhere
    if (c.what.kind == TimedKind::Cublas && c.verified && c.gflops > 0.0 && c.sweep == r.sweep &&
        c.what.config.dims == r.what.config.dims)
      partner = &c;
  return partner;
}

std::optional<double> percentOfCublas(const TimingReport& report, const TimingResult& r) {
  if (!r.verified || !(r.gflops > 0.0)) return std::nullopt;
  const TimingResult* cublas = cublasPartner(report, r);
  if (!cublas) return std::nullopt;
  return 100.0 * r.gflops / cublas->gflops;
}

LadderTable ladderTable(const TimingReport& report) {
  LadderTable t;
  for (const TimingResult& r : report.results)
    if (isLadderCase(r.what) || r.what.kind == TimedKind::Cublas) t.sizes.push_back(r.what.config.dims.j);
  std::sort(t.sizes.begin(), t.sizes.end());
  t.sizes.erase(std::unique(t.sizes.begin(), t.sizes.end()), t.sizes.end());
  auto column = [&](const TimingResult& r) -> std::optional<std::size_t> {
    const Dims& d = r.what.config.dims;
    if (d.j != d.k || d.k != d.l) return std::nullopt;  // the ladder is square
    return std::size_t(std::lower_bound(t.sizes.begin(), t.sizes.end(), d.j) - t.sizes.begin());
  };
  t.cublas.assign(t.sizes.size(), nullptr);
  for (KernelId id : ladderKernels()) {
    // Labelled at the largest size: a rung's default tiling is the first that fits inside P.
    LadderRow row{kernelInfo(id).ladderRung, id, ladderCase(id, t.sizes.empty() ? 1 : t.sizes.back()).label(), {}};
    row.cells.assign(t.sizes.size(), {});
    bool any = false;
    for (const TimingResult& r : report.results) {
      if (r.what.config.kernel != id || !isLadderCase(r.what)) continue;
      const auto col = column(r);
      if (!col) continue;
      row.cells[*col] = {&r, percentOfCublas(report, r)};
      any = true;
    }
    if (any) t.rows.push_back(std::move(row));
  }
  for (const TimingResult& r : report.results)
    if (r.what.kind == TimedKind::Cublas)
      if (const auto col = column(r)) t.cublas[*col] = &r;
  return t;
}

namespace {
std::string percentText(const std::optional<double>& p) {
  if (!p) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", *p);
  return buf;
}
}  // namespace

void writeLadderText(std::ostream& out, const TimingReport& report) {
  const LadderTable t = ladderTable(report);
  out << "The ladder from fig. 5.9 to cuBLAS: each rung at its own launch next to cuBLAS SGEMM (FP32), "
         "% of cuBLAS at the same N in this run\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%6s %5s  %-30s %11s %11s %9s  %s\n", "N", "rung", "case", "median ms", "GFLOP/s",
                "% cuBLAS", "verification");
  out << line;
  for (std::size_t c = 0; c < t.sizes.size(); ++c) {
    auto print = [&](const std::string& rung, const std::string& label, const TimingResult* r,
                     const std::optional<double>& percent) {
      if (!r) {
        std::snprintf(line, sizeof line, "%6d %5s  %-30s %11s %11s %9s  %s\n", t.sizes[c], rung.c_str(), label.c_str(),
                      "-", "-", "-", "not timed");
      } else if (!r->verified) {  // never a time or a percentage for a result that did not verify
        std::snprintf(line, sizeof line, "%6d %5s  %-30s %11s %11s %9s  %s\n", t.sizes[c], rung.c_str(), label.c_str(),
                      "-", "-", "-", r->verification.c_str());
      } else {
        std::snprintf(line, sizeof line, "%6d %5s  %-30s %11.3f %11.1f %9s  %s\n", t.sizes[c], rung.c_str(),
                      label.c_str(), r->medianMs, r->gflops, percentText(percent).c_str(), r->verification.c_str());
      }
      out << line;
    };
    for (const LadderRow& row : t.rows)
      print(std::to_string(row.rung), row.label, row.cells[c].result, row.cells[c].percent);
    const TimingResult* cublas = t.cublas[c];
    print("", "cuBLAS SGEMM", cublas, cublas && cublas->verified ? std::optional<double>(100.0) : std::nullopt);
  }
  // The story at a glance: one row per rung, one column per size.
  out << "\n% of cuBLAS (same run, same N):\n";
  std::snprintf(line, sizeof line, "%5s  %-30s", "rung", "case");
  out << line;
  for (int n : t.sizes) std::snprintf(line, sizeof line, " %8d", n), out << line;
  out << "\n";
  for (const LadderRow& row : t.rows) {
    std::snprintf(line, sizeof line, "%5d  %-30s", row.rung, row.label.c_str());
    out << line;
    for (const LadderCell& cell : row.cells) std::snprintf(line, sizeof line, " %8s", percentText(cell.percent).c_str()), out << line;
    out << "\n";
  }
  std::snprintf(line, sizeof line, "%5s  %-30s", "", "cuBLAS SGEMM GFLOP/s");
  out << line;
  for (const TimingResult* r : t.cublas) {
    if (r && r->verified) std::snprintf(line, sizeof line, " %8.0f", r->gflops);
    else std::snprintf(line, sizeof line, " %8s", "-");
    out << line;
  }
  out << "\n";
}

void writeLadderJson(JsonWriter& json, const TimingReport& report) {
  const LadderTable t = ladderTable(report);
  json.beginArray();
  for (const LadderRow& row : t.rows) {
    for (std::size_t c = 0; c < t.sizes.size(); ++c) {
      const LadderCell& cell = row.cells[c];
      if (!cell.result) continue;
      json.beginObject().field("rung", row.rung).field("kernel", std::string(kernelInfo(row.kernel).name));
      json.field("label", row.label).field("n", t.sizes[c]).field("verified", cell.result->verified);
      if (cell.result->verified) json.field("gflops", cell.result->gflops);
      if (cell.percent) {
        json.field("percent_of_cublas", *cell.percent);
        json.field("cublas_gflops", cublasPartner(report, *cell.result)->gflops);
      }
      json.endObject();
    }
  }
  json.endArray();
}

}  // namespace tilescope
