#include "commands.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "grade_output.h"
#include "core/run/bounds_report.h"
#include "core/json_writer.h"
#include "core/run/run.h"
#include "core/run/launch_door.h"
#include "core/trace/trace.h"
#include "core/trace/trace_json.h"

namespace tilescope::cli {

int reportError(const Error& e) {
  std::cerr << "tilescope-cli: " << e.message << "\n";
  return e.kind == ErrorKind::Failed ? kExitRuntime : kExitBadInput;
}

int reportLabError(const Error& e) { return reportError(escapedError(e)); }

int reportInterrupt() {
  std::cerr << "tilescope-cli: interrupted: the lab's processes were stopped and their files removed\n";
  return 130;
}

Result<std::shared_ptr<FinishedRun>> finishedRun(const Options& o, const LaunchConfig& config, Tracing tracing) {
  auto backend = makeBackend(o.backend);
  if (!backend) return backend.error();
  RunOptions options;
  options.tracing = tracing;
  return runAndFinish(**backend, config, options, FinishOptions{.timeline = false, .startedAt = std::nullopt});
}

Result<DeviceProfile> selectorDevice(BackendChoice backend) {
  auto made = makeBackend(backend);
  if (!made) return made.error();
  Result<DeviceProfile> device = (*made)->deviceProfile();
  if (!device && device.error().kind == ErrorKind::Unavailable) return profileByName(kProfileWithoutGpu);
  return device;
}

Result<LaunchConfig> throughTheDoor(const LaunchConfig& config, BackendChoice backend, std::string& reason) {
  reason.clear();
  if (!needsDevice(config)) return config;
  auto device = selectorDevice(backend);
  if (!device) return device.error();
  return scheduledConfig(config, *device, reason);
}

namespace {

Status noExtraFlags(const Options& o) {
  if (!o.extra.empty()) return invalidInput("unknown flag '" + o.extra.front() + "' for '" + o.command + "'");
  return Ok{};
}


void writeVerificationJson(JsonWriter& json, const Verification& v) {
  json.field("verified", v.passed);
  json.field("max_rel_error", v.maxRelativeError);
  json.field("tolerance", v.tolerance);
  json.field("checked", v.checked);
  json.field("wrong", v.wrong);
  json.field("non_finite", v.nonFinite);
}

// A kernel's facts as the GPU scripts read them (scripts/gpu-check, scripts/gpu-analysis):
// what it takes, whether it is correct, its tilings, and the launches Nsight Compute profiles.
void writeKernelFactsJson(JsonWriter& json, const KernelInfo& k) {
  json.beginObject()
      .field("name", k.name)
      .field("description", k.description)
      .field("tiled", k.tiled)
      .field("source", k.sourceFile)
      .field("ladder_rung", k.ladderRung)
      .field("correct", isCorrectKernel(k))
      .field("textbook", k.textbook)
      .field("needs_multiple_of_tile", k.needsMultipleOfTile)
      .field("tile_is_compile_time", k.tileIsCompileTime)
      .field("takes_pad", k.takesPad)
      .field("rows_multiple_of", k.rowsMultipleOf)
      .field("live_sweep", k.liveSweep)
      .field("fixed_twin", k.fixedTwin);
  json.key("tilings").beginArray();
  for (const Tiling& t : kernelTilings(k.id)) json.value(tilingText(t));
  json.endArray();
  // Rows as tests/fixtures/ncu names them: [j, k, l, tile, bx, by, pad].
  json.key("ncu_launches").beginArray();
  for (const NcuLaunch& n : k.ncuLaunches) {
    if (n.j == 0) break;
    json.beginArray();
    for (int v : {n.j, n.k, n.l, n.tile, n.blockX, n.blockY, n.pad}) json.value(v);
    json.endArray();
  }
  json.endArray();
  json.endObject();
}

}  // namespace

int listKernels(const Options& o, std::ostream& out) {
  if (auto s = noExtraFlags(o); !s) return reportError(s.error());
  if (o.json) {
    JsonWriter json(out);
    json.beginArray();
    for (const auto& k : kKernels) writeKernelFactsJson(json, k);
    json.endArray();
    out << "\n";
    return kExitOk;
  }
  std::size_t width = 0;
  for (const auto& k : kKernels) width = std::max(width, k.name.size());
  for (const auto& k : kKernels)
    out << std::string(k.name) << std::string(width + 2 - k.name.size(), ' ') << k.description << "\n";
  return kExitOk;
}

int runCommand(const Options& o, std::ostream& out) {
  if (auto s = noExtraFlags(o); !s) return reportError(s.error());
  // Trace when the config fits the trace cap: the trace is what reveals out-of-bounds
  // accesses the way figs. 5.11-5.12 describe them.
  std::string choice;
  auto scheduled = throughTheDoor(o.config, o.backend, choice);  // asks the device only where the kernel chooses
  if (!scheduled) return reportError(scheduled.error());
  const LaunchConfig config = *scheduled;
  auto finished = finishedRun(o, config, Tracing::IfItFits);
  if (!finished) return reportError(finished.error());
  const Run& r = (*finished)->run;
  const std::vector<BoundsViolation>& violations = (*finished)->outOfBounds;
  const KernelLaunch& L = r.plan.launch;

  if (o.json) {
    JsonWriter json(out);
    json.beginObject();
    writeLaunchFields(json, L);
    json.field("phases", r.plan.phases);
    json.field("seed", r.config.seed);
    json.field("backend", r.backend);
    json.field("device", r.device);
    writeVerificationJson(json, r.verification);
    json.field("traced", r.trace.has_value());
    json.key("out_of_bounds").beginArray();
    for (const auto& v : violations) {
      json.beginObject()
          .field("matrix", std::string(1, v.matrix))
          .key("element").pairOrNull(v.event.globalRow, v.event.globalCol)
          .key("block").pairOrNull(v.event.blockX, v.event.blockY)
          .key("thread").pairOrNull(v.event.threadX, v.event.threadY)
          .field("phase", int(v.event.phase))
          .field("line", int(v.event.line))
          .field("index", v.linearIndex)
          .field("inside_allocation", v.insideAllocation)
          .key("wraps_to").pairOrNull(v.wrapsToRow, v.wrapsToCol)
          .endObject();
    }
    json.endArray();
    json.field("outside_allocation", uint64_t(r.outcome.outOfBoundsTotal));
    json.key("barrier_divergence").beginArray();
    for (const auto& d : r.outcome.divergences)
      json.beginObject()
          .key("block").pairOrNull(int(d.block.x), int(d.block.y))
          .field("arrived", d.arrived)
          .field("exited", d.exited)
          .field("line", d.line)
          .field("other_line", d.otherLine)
          .endObject();
    json.endArray();
    json.field("seconds", r.seconds);
    if (!choice.empty()) json.field("selector", choice);
    json.endObject();
    out << "\n";
  } else {
    out << describe(r.config) << " on " << r.backend << " (" << r.device << ")\n";
    if (!choice.empty()) out << choice << "\n";
    out << "grid " << L.gridX << "x" << L.gridY << " blocks of " << L.blockX << "x" << L.blockY << " threads";
    if (r.plan.phases > 0) out << ", " << r.plan.phases << " phase" << (r.plan.phases == 1 ? "" : "s");
    out << ", seed " << r.config.seed << "\n";
    out << r.verification.summary() << "\n";
    if (r.trace) {
      out << "out-of-bounds accesses: " << (violations.empty() ? "none" : std::to_string(violations.size())) << "\n";
      const std::size_t shown = std::min<std::size_t>(violations.size(), 12);
      for (std::size_t i = 0; i < shown; ++i) out << "  " << violations[i].describe() << "\n";
      if (violations.size() > shown) out << "  ... and " << violations.size() - shown << " more\n";
    } else {
      out << "out-of-bounds accesses: not checked (the config is over the trace cap)\n";
    }
    if (r.outcome.outOfBoundsTotal > 0)
      out << "accesses outside an allocation (caught by the emulator): " << r.outcome.outOfBoundsTotal << "\n";
    for (const auto& d : r.outcome.divergences)
      out << "barrier divergence in block (" << d.block.x << "," << d.block.y << "): " << d.arrived
          << " threads wait at the barrier on line " << d.line << ", " << d.exited << " never reach it\n";
  }
  return r.verification.passed ? kExitOk : kExitVerifyFailed;
}

int traceCommand(const Options& o, std::ostream& out) {
  if (auto s = noExtraFlags(o); !s) return reportError(s.error());
  auto finished = finishedRun(o, o.config, Tracing::On);
  if (!finished) return reportError(finished.error());
  const Run* run = &(*finished)->run;
  JsonWriter json(out);
  writeTraceJson(json, *run->trace);
  out << "\n";
  if (!run->verification.passed) std::cerr << "tilescope-cli: " << run->verification.summary() << "\n";
  return run->verification.passed ? kExitOk : kExitVerifyFailed;
}

int demoCommand(const Options& o, std::ostream& out) {
  if (auto s = noExtraFlags(o); !s) return reportError(s.error());
  Options d = o;
  if (!o.sizeGiven) d.config.dims = {4, 4, 4};
  if (!o.tileGiven) d.config.tile = 2;
  d.backend = o.backend;
  auto finished = finishedRun(d, d.config, Tracing::On);
  if (!finished) return reportError(finished.error());
  const Run* run = &(*finished)->run;
  const Trace& t = *run->trace;
  if (o.json) {  // the demo's trace, as `trace` writes it
    JsonWriter json(out);
    writeTraceJson(json, t);
    out << "\n";
    return run->verification.passed ? kExitOk : kExitVerifyFailed;
  }
  out << "tilescope demo: " << describe(d.config) << " (the book's figs. 5.7-5.8), block (0,0), on "
      << run->device << "\n";
  int phase = -1;
  for (const Event& e : t.events) {
    if (e.blockX != 0 || e.blockY != 0) break;
    if (e.op != Op::LoadM && e.op != Op::LoadN) continue;
    if (e.phase != phase) {
      phase = e.phase;
      out << "phase " << phase << ":\n";
    }
    char line[160];
    std::snprintf(line, sizeof line, " loads %c(%d,%d) -> %cds[%d][%d] = %+.4f\n", e.op == Op::LoadM ? 'M' : 'N',
                  e.globalRow, e.globalCol, e.op == Op::LoadM ? 'M' : 'N', e.sharedRow, e.sharedCol, double(e.value));
    out << "  " << threadName(e.threadX, e.threadY) << line;
  }
  out << t.events.size() << " events traced; " << run->verification.summary() << "\n";
  return run->verification.passed ? kExitOk : kExitVerifyFailed;
}

}  // namespace tilescope::cli
