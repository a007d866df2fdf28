#include "core/timing/timing.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "core/json_writer.h"

namespace tilescope {

std::string timedKindName(TimedKind k) {
  switch (k) {
    case TimedKind::Kernel: return "kernel";
    case TimedKind::ProbeFree: return "probe-free";
    case TimedKind::Cublas: return "cublas";
    case TimedKind::Lab: return "lab";
    case TimedKind::CublasTf32: return "cublas-tf32";
  }
  return "?";
}

std::string TimingCase::label() const {
  if (kind == TimedKind::Cublas) return "cuBLAS SGEMM";
  if (kind == TimedKind::CublasTf32) return "cuBLAS TF32";
  if (kind == TimedKind::Lab) return "lab: " + name;
  const KernelInfo& info = kernelInfo(config.kernel);
  std::string s(info.name);
  const bool ownBlock = info.ladderRung > 0 && info.ladderLaunch.blockX == 0;  // a rung that fixes its block itself
  if (!kernelTilings(config.kernel).empty())
    s += " " + tilingText(config.tiling.empty() ? kernelDefaultTiling(config.kernel, config.dims.j, config.dims.l)
                                                : config.tiling);
  else if (info.tiled) s += " T=" + std::to_string(config.tile);
  else if (!ownBlock) s += " (" + std::to_string(config.blockX) + "," + std::to_string(config.blockY) + ")";
  if (kind == TimedKind::ProbeFree) s += " no-probe copy";
  return s;
}

std::string todayUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &utc);
  return buf;
}

// ---------------------------------------------------------------------------------------
// Case lists
// ---------------------------------------------------------------------------------------
namespace {
TimingCase kernelCase(KernelId id, int n, int tile, int bx, int by) {
  TimingCase c;
  c.config.kernel = id;
  c.config.dims = {n, n, n};
  c.config.tile = tile;
  c.config.blockX = bx;
  c.config.blockY = by;
  return c;
}
TimingCase cublasCase(int n) {
  TimingCase c;
  c.kind = TimedKind::Cublas;
  c.config.dims = {n, n, n};
  c.config.tile = c.config.blockX = c.config.blockY = 0;  // not used: written as 0 in files
  return c;
}
}  // namespace

std::vector<TimingCase> lectureCases(int n) {
  std::vector<TimingCase> cases;
  for (auto [bx, by] : {std::pair{64, 16}, {32, 32}, {16, 64}, {64, 4}, {32, 8}, {16, 16}})
    cases.push_back(kernelCase(KernelId::Naive, n, 0, bx, by));
  for (int t : {8, 16, 32}) cases.push_back(kernelCase(KernelId::Tiled, n, t, 16, 16));
  cases.push_back(cublasCase(n));
  return cases;
}

std::vector<TimingCase> liveSweepCases(int maxN) {
  std::vector<TimingCase> cases;
  for (int n = 256; n <= maxN; n *= 2) {
    // The kernels whose facts put them in the live sweep, at T = 16 or a 16 x 16 block.
    for (const KernelInfo& k : kKernels)
      if (k.liveSweep) cases.push_back(kernelCase(k.id, n, k.tiled ? 16 : 0, 16, 16));
    cases.push_back(cublasCase(n));
  }
  return cases;
}

std::vector<TimingCase> gridCases(const std::vector<KernelId>& kernels, const std::vector<int>& sizes,
                                  const std::vector<int>& tiles, const std::vector<std::pair<int, int>>& blocks,
                                  bool cublas) {
  std::vector<TimingCase> cases;
  for (int n : sizes) {  // size-major, so consecutive cases share their inputs
    for (KernelId id : kernels) {
      if (kernelInfo(id).tiled)
        for (int t : tiles) cases.push_back(kernelCase(id, n, t, 16, 16));
      else
        for (auto [bx, by] : blocks) cases.push_back(kernelCase(id, n, 0, bx, by));
    }
    if (cublas) cases.push_back(cublasCase(n));
  }
  return cases;
}

// ---------------------------------------------------------------------------------------
// Sweeps
// ---------------------------------------------------------------------------------------
Result<TimingReport> runSweep(TimingEngine& engine, const std::vector<TimingCase>& cases,
                              const TimingOptions& options, const ProgressFn& progress) {
  const auto start = std::chrono::steady_clock::now();
  TimingReport report;
  report.device = engine.deviceName();
  report.date = todayUtc();
  auto ceilings = engine.ceilings();
  if (!ceilings) return ceilings.error();
  report.ceilings = *ceilings;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (options.cancel && options.cancel->load()) {
      report.cancelled = true;
      break;
    }
    if (progress) progress({i, cases.size(), cases[i].label()});
    auto r = engine.time(cases[i], options);
    if (r) {
      report.results.push_back(std::move(*r));
    } else {
      if (options.cancel && options.cancel->load()) {
        report.cancelled = true;
        break;
      }
      TimingResult failed;
      failed.what = cases[i];
      failed.verification = "not timed: " + r.error().message;
      report.results.push_back(std::move(failed));
    }
  }
  if (progress) progress({report.results.size(), cases.size(), ""});
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

// ---------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------
namespace {
std::string csvSafe(std::string s) {
  for (char& c : s)
    if (c == ',' || c == '\n' || c == '\r') c = ';';
  return s;
}
constexpr const char* kCsvColumns =
    "kind,kernel,j,k,l,tile,block_x,block_y,verified,median_ms,min_ms,max_ms,repeats,gflops,max_rel_error,note";
}  // namespace

std::string timingCsv(const TimingReport& r) {
  std::ostringstream s;
  char buf[512];
  s << "# tilescope timings\n";
  s << "# device: " << csvSafe(r.device) << "\n";
  s << "# date: " << r.date << "\n";
  std::snprintf(buf, sizeof buf, "# fp32_peak_gflops: %.1f\n# peak_derivation: %s\n# copy_gbps: %.1f\n",
                r.ceilings.fp32PeakGflops, csvSafe(r.ceilings.peakDerivation).c_str(), r.ceilings.copyGBps);
  s << buf << kCsvColumns << "\n";
  for (const TimingResult& t : r.results) {
    const LaunchConfig& c = t.what.config;
    const std::string kernel = isCublas(t.what.kind) ? timedKindName(t.what.kind)
                               : t.what.kind == TimedKind::Lab  ? csvSafe(t.what.name)
                                                                : std::string(kernelInfo(c.kernel).name);
    // The block that ran: T x T for the tiled kernels (their config's block fields are unused).
    const bool tiled = t.what.kind == TimedKind::Kernel && kernelInfo(c.kernel).tiled;
    std::snprintf(buf, sizeof buf, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%.6f,%.6f,%.6f,%d,%.2f,%.3g,%s\n",
                  timedKindName(t.what.kind).c_str(), kernel.c_str(), c.dims.j, c.dims.k, c.dims.l, c.tile,
                  tiled ? c.tile : c.blockX, tiled ? c.tile : c.blockY, t.verified ? 1 : 0, t.medianMs, t.minMs, t.maxMs, t.repeats, t.gflops, t.maxRelativeError,
                  csvSafe(t.verification).c_str());
    s << buf;
  }
  return s.str();
}

void writeTimingJson(JsonWriter& json, const TimingReport& r) {
  json.beginObject();
  json.field("device", r.device).field("date", r.date).field("recorded", r.recorded);
  json.key("ceilings").beginObject();
  json.field("fp32_peak_gflops", r.ceilings.fp32PeakGflops).field("peak_derivation", r.ceilings.peakDerivation);
  json.field("copy_gbps", r.ceilings.copyGBps).endObject();
  json.field("cancelled", r.cancelled).field("seconds", r.seconds);
  json.key("results").beginArray();
  for (const TimingResult& t : r.results) {
    const LaunchConfig& c = t.what.config;
    json.beginObject();
    json.field("label", t.what.label()).field("kind", timedKindName(t.what.kind));
    const bool builtIn = !isCublas(t.what.kind) && t.what.kind != TimedKind::Lab;
    if (builtIn) json.field("kernel", std::string(kernelInfo(c.kernel).name));
    if (t.what.kind == TimedKind::Lab) json.field("kernel", t.what.name);
    json.key("dims").beginArray().value(c.dims.j).value(c.dims.k).value(c.dims.l).endArray();
    if (builtIn) {
      if (kernelInfo(c.kernel).tiled) json.field("tile", c.tile);
      else json.key("block").beginArray().value(c.blockX).value(c.blockY).endArray();
    }
    json.field("verified", t.verified).field("verification", t.verification);
    json.field("max_rel_error", t.maxRelativeError);
    if (t.verified) {  // an unverified case carries no timing at all
      json.field("median_ms", t.medianMs).field("min_ms", t.minMs).field("max_ms", t.maxMs);
      json.field("repeats", t.repeats).field("gflops", t.gflops);
    }
    json.endObject();
  }
  json.endArray();
  json.endObject();
}

namespace {
std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = line.find(',', start);
    out.push_back(line.substr(start, end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}
}  // namespace

Result<TimingReport> parseTimingCsv(std::string_view text) {
  TimingReport r;
  std::istringstream in{std::string(text)};
  std::string line;
  int lineNo = 0;
  bool header = false;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty()) continue;
    if (line[0] == '#') {
      const std::size_t colon = line.find(": ");
      if (colon == std::string::npos) continue;
      const std::string key = line.substr(2, colon - 2), value = line.substr(colon + 2);
      if (key == "device") r.device = value;
      else if (key == "date") r.date = value;
      else if (key == "fp32_peak_gflops") r.ceilings.fp32PeakGflops = std::atof(value.c_str());
      else if (key == "peak_derivation") r.ceilings.peakDerivation = value;
      else if (key == "copy_gbps") r.ceilings.copyGBps = std::atof(value.c_str());
      continue;
    }
    if (!header) {
      if (line != kCsvColumns) return invalidInput("timing CSV line " + std::to_string(lineNo) + ": unexpected header");
      header = true;
      continue;
    }
    const auto f = splitCsv(line);
    if (f.size() != 16) return invalidInput("timing CSV line " + std::to_string(lineNo) + ": expected 16 fields");
    TimingResult t;
    if (f[0] == "kernel") t.what.kind = TimedKind::Kernel;
    else if (f[0] == "probe-free") t.what.kind = TimedKind::ProbeFree;
    else if (f[0] == "cublas") t.what.kind = TimedKind::Cublas;
    else if (f[0] == "lab") t.what.kind = TimedKind::Lab;
    else if (f[0] == "cublas-tf32") t.what.kind = TimedKind::CublasTf32;
    else return invalidInput("timing CSV line " + std::to_string(lineNo) + ": unknown kind '" + f[0] + "'");
    if (t.what.kind == TimedKind::Lab) {
      t.what.name = f[1];
    } else if (!isCublas(t.what.kind)) {
      auto id = kernelByName(f[1]);
      if (!id) return invalidInput("timing CSV line " + std::to_string(lineNo) + ": unknown kernel '" + f[1] + "'");
      t.what.config.kernel = *id;
    }
    t.what.config.dims = {std::atoi(f[2].c_str()), std::atoi(f[3].c_str()), std::atoi(f[4].c_str())};
    t.what.config.tile = std::atoi(f[5].c_str());
    t.what.config.blockX = std::atoi(f[6].c_str());
    t.what.config.blockY = std::atoi(f[7].c_str());
    t.verified = f[8] == "1";
    t.maxRelativeError = std::atof(f[14].c_str());
    t.verification = f[15];
    if (t.verified) {
      t.medianMs = std::atof(f[9].c_str());
      t.minMs = std::atof(f[10].c_str());
      t.maxMs = std::atof(f[11].c_str());
      t.repeats = std::atoi(f[12].c_str());
      t.gflops = std::atof(f[13].c_str());
    }
    r.results.push_back(std::move(t));
  }
  if (!header) return invalidInput("timing CSV has no header line");
  return r;
}

Result<TimingReport> loadRecordedTimings(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return unavailable("cannot open recorded timings '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  auto r = parseTimingCsv(text.str());
  if (!r) return invalidInput(path + ": " + r.error().message);
  r->recorded = true;
  return r;
}

#if !defined(TILESCOPE_HAVE_CUDA)
Result<std::unique_ptr<TimingEngine>> makeTimingEngine() {
  return unavailable("No CUDA in this build (nvcc was not found when it was configured): the CPU emulator runs the kernels; timings shown are the recorded H100 ones");
}
#endif

}  // namespace tilescope
