// tilescope-cli bench: times the plain kernels on the GPU next to cuBLAS, every case
// verified first, and prints a table (or --json / --csv). Presets:
//   lecture  the lecture's block-shape table: naive at N=8192 with six block shapes,
//            tiled at T = 8, 16, 32, and cuBLAS
//   live     the app's live sweep (4 kernels, N = 256..4096) with its wall time
//   targets  the speed targets: trace capture + decode of tiled 256^3 T=16, the
//            plain instantiation against a probe-free copy, and the live sweep's wall time
//   ladder   every rung of the ladder (kernels with a ladderRung) and cuBLAS at N = 256..8192
//            (or --sizes), each rung's % of cuBLAS at the same N in this run
//   sizes    every rung whose facts choose its own schedule (kernelHasSchedule), the rung below
//            it, and cuBLAS at N = 1024, 1536, 2048, 3000, 4096, 5000, 6144, 8192 and
//            8192 x 1024 x 8192, the choosing rung at the tiling and grid it picks for this GPU
//            (each choice printed with its reason), each rung's % of cuBLAS; the tensor-core
//            rungs (operands below FP32's 23 mantissa bits) at their default and cuBLAS TF32, with
//            each tensor-core rung's % of cuBLAS TF32
// bench --kernel K takes run's --tiling and --grid-blocks G (a persistent grid of G blocks;
// 0: one block per tile) for a kernel that takes them, else the kernel's facts choose.
// Without a CUDA device it fails with "no CUDA device" and exit code 2.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "commands.h"
#include "core/json_writer.h"
#include "core/run/launch_door.h"
#include "core/run/run.h"
#include "core/timing/timing.h"
#include "core/timing/timing_ladder.h"
#include "core/run/trace_decode.h"

namespace tilescope::cli {

namespace {

// The kernels whose facts put them in the live sweep: what bench times unless --kernel says.
std::vector<KernelId> liveSweepKernels() {
  std::vector<KernelId> ids;
  for (const KernelInfo& k : kKernels)
    if (k.liveSweep) ids.push_back(k.id);
  return ids;
}

struct BenchFlags {
  std::string preset;  // "", "lecture", "live", "targets", "ladder", "sizes"
  std::vector<KernelId> kernels = liveSweepKernels();
  std::vector<int> sizes{1024, 2048};
  std::vector<int> tiles{16, 32};
  std::vector<std::pair<int, int>> blocks{{32, 32}, {16, 16}};
  bool cublas = true;
  bool csv = false;
  bool sizesGiven = false;
  TimingOptions timing;
};

Result<BenchFlags> parseBenchFlags(const Options& o) {
  BenchFlags f;
  if (o.kernelGiven) f.kernels = {o.config.kernel};
  if (o.sizeGiven) {
    if (o.config.dims.j != o.config.dims.k || o.config.dims.k != o.config.dims.l)
      return invalidInput("bench times square products: use --size N or --sizes N1,N2");
    f.sizes = {o.config.dims.j};
    f.sizesGiven = true;
  }
  const auto& x = o.extra;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::string& flag = x[i];
    if (flag == "--csv") { f.csv = true; continue; }
    if (flag == "--no-cublas") { f.cublas = false; continue; }
    if (i + 1 >= x.size() || x[i + 1].rfind("--", 0) == 0) return invalidInput(flag + " needs a value (or is unknown to bench)");
    const std::string& v = x[++i];
    if (flag == "--preset") {
      if (v != "lecture" && v != "live" && v != "targets" && v != "ladder" && v != "sizes")
        return invalidInput("--preset expects lecture, live, targets, ladder or sizes, got '" + v + "'");
      f.preset = v;
    } else if (flag == "--kernels") {
      f.kernels.clear();
      std::size_t start = 0;
      for (;;) {
        const std::size_t end = v.find(',', start);
        const std::string name = v.substr(start, end - start);
        auto id = kernelByName(name);
        if (!id) return invalidInput("--kernels: unknown kernel '" + name + "' (see tilescope-cli kernels)");
        f.kernels.push_back(*id);
        if (end == std::string::npos) break;
        start = end + 1;
      }
    } else if (flag == "--sizes") {
      auto s = parseIntList(flag, v, ',', 1, kMaxDimension);
      if (!s) return s.error();
      f.sizes = *s;
      f.sizesGiven = true;
    } else if (flag == "--tiles") {
      auto t = parseIntList(flag, v, ',', 1, kMaxTileWidth);
      if (!t) return t.error();
      f.tiles = *t;
    } else if (flag == "--blocks") {
      f.blocks.clear();
      std::size_t start = 0;
      for (;;) {
        const std::size_t end = v.find(',', start);
        const std::string item = v.substr(start, end - start);
        auto b = parseIntList("--blocks", item, 'x', 1, kMaxThreadsPerBlock);
        if (!b || b->size() != 2 || (*b)[0] * (*b)[1] > kMaxThreadsPerBlock)
          return invalidInput("--blocks expects BXxBY shapes of at most " + std::to_string(kMaxThreadsPerBlock) +
                              " threads, e.g. 64x16,32x32; got '" + item + "'");
        f.blocks.emplace_back((*b)[0], (*b)[1]);
        if (end == std::string::npos) break;
        start = end + 1;
      }
    } else if (flag == "--repeats") {
      auto r = parseInt(flag, v, 3, 1000);
      if (!r) return r.error();
      f.timing.repeats = *r;
    } else if (flag == "--warmup") {
      auto w = parseInt(flag, v, 0, 100);
      if (!w) return w.error();
      f.timing.warmup = *w;
    } else {
      return invalidInput("unknown flag '" + flag + "' for 'bench'");
    }
  }
  if (f.csv && o.json) return invalidInput("give either --json or --csv, not both");
  if (!f.preset.empty() && (o.gridBlocksGiven || o.tilingGiven))
    return invalidInput("--preset " + f.preset + " runs each rung as its facts pick: --grid-blocks and --tiling apply "
                        "to bench --kernel K");
  return f;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

void printHeader(const TimingReport& r, std::ostream& out) {
  out << "device: " << r.device << "   date: " << r.date << (r.recorded ? "   (recorded)" : "") << "\n";
  out << "FP32 peak: " << fmt("%.0f", r.ceilings.fp32PeakGflops) << " GFLOP/s (" << r.ceilings.peakDerivation
      << ")\n";
  out << "device-to-device copy: " << fmt("%.0f", r.ceilings.copyGBps) << " GB/s (bytes read + written)\n\n";
}

void printTable(const TimingReport& r, std::ostream& out) {
  printHeader(r, out);
  char line[512];
  std::snprintf(line, sizeof line, "%-34s %17s %11s %11s %7s %5s  %s\n", "case", "j x k x l", "median ms",
                "GFLOP/s", "% peak", "reps", "verification");
  out << line;
  for (const TimingResult& t : r.results) {
    const Dims& d = t.what.config.dims;
    const std::string dims = std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l);
    if (t.verified) {
      std::snprintf(line, sizeof line, "%-34s %17s %11.3f %11.1f %6.1f%% %5d  %s\n", t.what.label().c_str(),
                    dims.c_str(), t.medianMs, t.gflops, 100.0 * t.gflops / std::max(r.ceilings.fp32PeakGflops, 1.0),
                    t.repeats, t.verification.c_str());
    } else {  // never a time for a result that did not verify
      std::snprintf(line, sizeof line, "%-34s %17s %11s %11s %7s %5s  %s\n", t.what.label().c_str(), dims.c_str(),
                    "-", "-", "-", "-", t.verification.c_str());
    }
    out << line;
  }
  out << "\nsweep wall time: " << fmt("%.2f", r.seconds) << " s" << (r.cancelled ? " (cancelled)" : "") << "\n";
}

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Target 1: capture (GPU launch of the traced kernel, trace buffer to the host) plus
// decode (canonical order) of tiled 256^3 T=16, median of 5 after a warm-up run.
Status traceCaptureTarget(std::ostream& out, JsonWriter* json) {
  auto backend = makeCudaBackend();
  if (!backend) return backend.error();
  LaunchConfig c;
  c.kernel = KernelId::Tiled;
  c.dims = {256, 256, 256};
  c.tile = 16;
  auto plan = planLaunch(c, true);
  if (!plan) return plan.error();
  const Matrix M = inputM(c), N = inputN(c);
  std::vector<double> capture, decode, total;
  std::size_t events = 0;
  for (int r = 0; r < 6; ++r) {
    Matrix P(256, 256);
    poison(P);
    EventVector slots;
    const auto t0 = Clock::now();
    auto outcome = (*backend)->launch(*plan, M, N, P, &slots);
    if (!outcome) return outcome.error();
    const double tCapture = since(t0);
    const auto t1 = Clock::now();
    auto trace = finishTrace(*plan, std::move(slots), *outcome);
    if (!trace) return trace.error();
    const double tDecode = since(t1);
    events = trace->events.size();
    const Verification v = verifyProduct(M, N, P);
    if (!v.passed) return failure("trace capture run did not verify: " + v.summary());
    if (r == 0) continue;  // warm-up: context creation and first allocations
    capture.push_back(tCapture);
    decode.push_back(tDecode);
    total.push_back(tCapture + tDecode);
  }
  const double mb = double(events) * sizeof(Event) / double(1 << 20);
  char line[400];
  std::snprintf(line, sizeof line,
                "trace capture + decode, %s: %zu events (%.0f MiB): capture %.1f ms + decode %.1f ms = %.1f ms "
                "(median of 5; target <= 100 ms: %s)\n",
                describe(c).c_str(), events, mb, medianOf(capture), medianOf(decode), medianOf(total),
                medianOf(total) <= 100.0 ? "met" : "NOT met");
  out << line;
  if (json) {
    json->key("trace_capture").beginObject().field("config", describe(c)).field("events", uint64_t(events));
    json->field("capture_ms", medianOf(capture)).field("decode_ms", medianOf(decode));
    json->field("total_ms", medianOf(total)).field("target_ms", 100.0).endObject();
  }
  return Ok{};
}

// Target 2: the plain instantiation against the bench-only probe-free copy, same inputs,
// alternating three times so clock drift hits both alike.
Status probeOverheadTarget(TimingEngine& engine, std::ostream& out, JsonWriter* json) {
  const std::vector<TimingCase> kernels = gridCases({KernelId::Naive, KernelId::Tiled}, {4096}, {16, 32}, {{32, 32}}, false);
  if (json) json->key("probe_overhead").beginArray();
  TimingOptions options;
  options.repeats = 20;
  for (const TimingCase& plain : kernels) {
    TimingCase bare = plain;
    bare.kind = TimedKind::ProbeFree;
    std::vector<double> withProbe, without;
    for (int round = 0; round < 3; ++round) {
      for (const TimingCase* c : std::initializer_list<const TimingCase*>{&plain, &bare}) {
        auto r = engine.time(*c, options);
        if (!r) return r.error();
        if (!r->verified) return failure(c->label() + " did not verify: " + r->verification);
        (c == &plain ? withProbe : without).push_back(r->medianMs);
      }
    }
    const double a = medianOf(withProbe), b = medianOf(without);
    const double diff = 100.0 * (a - b) / b;
    char line[300];
    std::snprintf(line, sizeof line,
                  "probe overhead, %s 4096^3: plain build %.3f ms vs raw-pointer copy %.3f ms: %+.2f%% "
                  "(target within 2%%: %s)\n",
                  plain.label().c_str(), a, b, diff, std::abs(diff) <= 2.0 ? "met" : "NOT met");
    out << line;
    if (json)
      json->beginObject().field("case", plain.label()).field("plain_ms", a).field("probe_free_ms", b)
          .field("difference_percent", diff).endObject();
  }
  if (json) json->endArray();
  return Ok{};
}

// The sizes preset's shapes: where rung 8's tiles fill the H100 badly and where they fill it
// well, and one product with a short k (issue 28).
std::vector<Dims> sizeSweepShapes() {
  std::vector<Dims> shapes;
  for (int n : {1024, 1536, 2048, 3000, 4096, 5000, 6144, 8192}) shapes.push_back({n, n, n});
  shapes.push_back({8192, 1024, 8192});
  return shapes;
}

// Per shape: each rung whose facts choose its schedule, as it picks for the CUDA device (each
// choice in `choices`), after the rung below it at its default, then cuBLAS.
std::vector<TimingCase> sizeSweepCases(const DeviceProfile& device, std::vector<std::string>& choices) {
  std::vector<TimingCase> cases;
  for (const Dims& d : sizeSweepShapes()) {
    for (const KernelInfo& chooser : kKernels) {
      if (!kernelHasSchedule(chooser.id) || chooser.ladderRung == 0) continue;
      for (const KernelInfo& below : kKernels)
        if (below.ladderRung == chooser.ladderRung - 1) {
          TimingCase c;
          c.config = withKernel(c.config, below.id);
          c.config.dims = d;
          cases.push_back(c);
        }
      TimingCase c;
      c.config = withKernel(c.config, chooser.id);
      c.config.dims = d;
      std::string reason;
      c.config = scheduledConfig(c.config, device, reason);
      choices.push_back(std::string(chooser.name) + " " + std::to_string(d.j) + "x" + std::to_string(d.k) + "x" +
                        std::to_string(d.l) + ": " + reason);
      cases.push_back(c);
    }
    TimingCase cublas;
    cublas.kind = TimedKind::Cublas;
    cublas.config.dims = d;
    cases.push_back(cublas);
    for (const KernelInfo& tensorRung : kKernels) {
      if (tensorRung.ladderRung == 0 || tensorRung.operandMantissaBits >= 23) continue;
      TimingCase c;
      c.config = withKernel(c.config, tensorRung.id);
      c.config.dims = d;
      cases.push_back(c);
    }
    TimingCase cublasTf32;
    cublasTf32.kind = TimedKind::CublasTf32;
    cublasTf32.config.dims = d;
    cases.push_back(cublasTf32);
  }
  return cases;
}

// `t`'s % of the verified cuBLAS TF32 case of its shape, if the run has one.
std::optional<double> percentOfCublasTf32(const TimingReport& r, const TimingResult& t) {
  std::optional<double> p;
  for (const TimingResult& c : r.results)
    if (c.what.kind == TimedKind::CublasTf32 && c.verified && c.gflops > 0 && c.what.config.dims == t.what.config.dims &&
        t.verified)
      p = 100.0 * t.gflops / c.gflops;
  return p;
}

// Each rung's % of cuBLAS at its shape, after the table; a TF32 rung's of cuBLAS TF32 too.
void printPercentOfCublas(const TimingReport& r, std::ostream& out) {
  out << "\n% of cuBLAS SGEMM (and of cuBLAS TF32, for a TF32 rung) at the same shape, this run:\n";
  for (const TimingResult& t : r.results) {
    if (t.what.kind != TimedKind::Kernel) continue;
    const Dims& d = t.what.config.dims;
    const auto p = percentOfCublas(r, t);
    const auto tf32 = kernelInfo(t.what.config.kernel).operandMantissaBits < 23 ? percentOfCublasTf32(r, t) : std::nullopt;
    char line[240];
    std::snprintf(line, sizeof line, "  %5dx%5dx%5d  %-44s %s%s\n", d.j, d.k, d.l, t.what.label().c_str(),
                  p ? fmt("%.1f%%", *p).c_str() : "- (not verified)",
                  tf32 ? fmt("  (%.1f%% of cuBLAS TF32)", *tf32).c_str() : "");
    out << line;
  }
}

// A kernel that chooses its own schedule left to it, as `run` does (each choice said in
// `choices`), unless --tiling or --grid-blocks set it by hand (as `run` takes them;
// --grid-blocks 0: one block per tile).
void scheduleCases(const Options& o, const DeviceProfile& device, std::vector<TimingCase>& cases,
                   std::vector<std::string>& choices) {
  for (auto& c : cases) {
    if (c.kind == TimedKind::Kernel && kernelHasSchedule(c.config.kernel)) {
      if (o.tilingGiven) c.config.tiling = o.config.tiling;
      if (o.gridBlocksGiven) c.config.persistentBlocks = o.config.persistentBlocks;
    }
    std::string reason;
    c.config = scheduledConfig(c.config, device, reason);
    if (!reason.empty()) choices.push_back(describe(c.config) + ": " + reason);
  }
}

}  // namespace

int benchCommand(const Options& o, std::ostream& out) {
  auto flags = parseBenchFlags(o);
  if (!flags) return reportError(flags.error());
  const BenchFlags& f = *flags;
  auto engine = makeTimingEngine();
  if (!engine) return reportError(engine.error());

  std::vector<TimingCase> cases;
  if (f.preset == "lecture") cases = lectureCases(f.sizesGiven ? f.sizes.front() : 8192);
  else if (f.preset == "live" || f.preset == "targets") cases = liveSweepCases(4096);
  else if (f.preset == "ladder") cases = f.sizesGiven ? ladderCases(f.sizes) : ladderCases();
  else if (f.preset != "sizes") cases = gridCases(f.kernels, f.sizes, f.tiles, f.blocks, f.cublas);
  std::vector<std::string> choices;  // the kernels' own schedules, per shape
  const bool asks = f.preset == "sizes" || std::any_of(cases.begin(), cases.end(), [](const TimingCase& c) {
                      return c.kind == TimedKind::Kernel && kernelHasSchedule(c.config.kernel);
                    });
  auto device = asks ? selectorDevice(BackendChoice::Cuda) : Result<DeviceProfile>(DeviceProfile{});
  if (!device) return reportError(device.error());
  if (f.preset == "sizes") {
    cases = sizeSweepCases(*device, choices);
  } else {
    scheduleCases(o, *device, cases, choices);
  }
  for (const std::string& c : choices) std::cerr << c << "\n";
  for (auto& c : cases) c.config.seed = o.config.seed;

  auto progress = [](const SweepProgress& p) {
    if (!p.current.empty()) std::cerr << "[" << p.done + 1 << "/" << p.total << "] " << p.current << "\n";
  };
  auto report = runSweep(**engine, cases, f.timing, progress);
  if (!report) return reportError(report.error());

  JsonWriter* json = nullptr;
  JsonWriter writer(out);
  if (o.json) {
    json = &writer;
    json->beginObject().key("sweep");
    writeTimingJson(*json, *report);
    if (f.preset == "ladder") writeLadderJson(json->key("ladder"), *report);
  } else if (f.csv) {
    out << timingCsv(*report);
  } else if (f.preset == "ladder") {
    printHeader(*report, out);
    writeLadderText(out, *report);
    out << "\nsweep wall time: " << fmt("%.2f", report->seconds) << " s" << (report->cancelled ? " (cancelled)" : "") << "\n";
  } else {
    printTable(*report, out);
    if (f.preset == "sizes") {
      out << "\nthe kernels' own schedules:\n";
      for (const std::string& c : choices) out << "  " << c << "\n";
      printPercentOfCublas(*report, out);
    }
  }
  if (f.preset == "live" || f.preset == "targets") {
    char line[200];
    std::snprintf(line, sizeof line, "full live sweep (4 kernels + cuBLAS, N = 256..4096): %.2f s (target <= 10 s: %s)\n",
                  report->seconds, report->seconds <= 10.0 ? "met" : "NOT met");
    if (json) json->field("live_sweep_seconds", report->seconds);
    else if (!f.csv) out << line;
    else std::cerr << line;
  }
  if (f.preset == "targets") {
    std::ostream& text = json || f.csv ? std::cerr : out;
    if (auto s = traceCaptureTarget(text, json); !s) return reportError(s.error());
    if (auto s = probeOverheadTarget(**engine, text, json); !s) return reportError(s.error());
  }
  if (json) {
    json->endObject();
    out << "\n";
  }
  const bool allVerified =
      std::all_of(report->results.begin(), report->results.end(), [](const TimingResult& t) { return t.verified; });
  return allVerified ? kExitOk : kExitVerifyFailed;
}

}  // namespace tilescope::cli
