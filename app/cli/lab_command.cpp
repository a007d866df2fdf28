// tilescope-cli lab: run a kernel of one's own (lab run), time it on the GPU next to cuBLAS
// (lab time), and grade it against an exercise (lab check, lab exercises). The lab itself is
// app/lab.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "grade_output.h"
#include "core/analysis/analysis.h"
#include "core/json_writer.h"
#include "lab/lab.h"
#include "lab/lab_process.h"
#include "core/timing/timing_ladder.h"
#include "core/trace/trace_json.h"

namespace tilescope::cli {

namespace {

using namespace tilescope::lab;

enum class LabVerb { Run, Time };

struct LabFlags {
  std::vector<LabDefine> defines;
  std::vector<LabArg> args;
  std::optional<Dim3> grid;
  std::optional<unsigned> sharedBytes;
  std::optional<double> timeout;
  std::optional<double> compileTimeout;
  std::optional<uint64_t> memoryLimitBytes;
  bool noSandbox = false;
  std::string traceOut;                          // run
  std::vector<int> sizes{256, 512, 1024, 2048, 4096};  // time: square sizes
  bool sizesGiven = false;
  TimingOptions timing;                          // time: --warmup, --repeats
  bool cublas = true;                            // time: cuBLAS at each size, for the percentage
  std::string csv;                               // time: the results as a timing CSV
};

// Ctrl-C or SIGTERM: the running lab child's process group is killed (lab_process.h), the
// run unwinds and removes its files, and the command ends with 130. A second one ends at once.
void onInterrupt(int sig) {
  labInterrupted().store(true);
  std::signal(sig, SIG_DFL);
}

Result<std::pair<std::string, std::string>> nameValue(const std::string& flag, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return invalidInput(flag + " expects NAME=VALUE, got '" + text + "'");
  return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

Result<LabFlags> parseLabFlags(const std::vector<std::string>& extra, LabVerb verb) {
  LabFlags f;
  const std::string verbName = verb == LabVerb::Run ? "lab run" : "lab time";
  for (std::size_t i = 0; i < extra.size(); ++i) {
    const std::string& flag = extra[i];
    const bool hasValue = i + 1 < extra.size() && extra[i + 1].rfind("--", 0) != 0;
    if (verb == LabVerb::Time && flag == "--no-cublas") {
      f.cublas = false;
      continue;
    }
    if (flag == "--no-sandbox") {
      f.noSandbox = true;
      continue;
    }
    if (!hasValue) return invalidInput(flag + " needs a value");
    const std::string& v = extra[++i];
    if (flag == "--define" || flag == "--arg") {
      auto nv = nameValue(flag, v);
      if (!nv) return nv.error();
      if (flag == "--define") {
        f.defines.push_back({nv->first, nv->second});
      } else {
        char* end = nullptr;
        const double value = std::strtod(nv->second.c_str(), &end);
        if (nv->second.empty() || *end != '\0') return invalidInput("--arg " + v + ": the value is not a number");
        f.args.push_back({nv->first, value});
      }
    } else if (flag == "--grid") {
      auto g = parseIntList(flag, v, 'x', 1, kMaxGridDim);
      if (!g || g->size() != 2) return invalidInput("--grid expects GXxGY with sides 1 to " + std::to_string(kMaxGridDim) + ", got '" + v + "'");
      f.grid = Dim3{unsigned((*g)[0]), unsigned((*g)[1]), 1};
    } else if (flag == "--shared-bytes") {
      auto n = parseInt(flag, v, 0, 1 << 20);
      if (!n) return n.error();
      f.sharedBytes = unsigned(*n);
    } else if (flag == "--timeout" || flag == "--compile-timeout") {
      auto s = parseSeconds(flag, v);
      if (!s) return s.error();
      (flag == "--timeout" ? f.timeout : f.compileTimeout) = *s;
    } else if (flag == "--memory-limit") {
      auto n = parseInt(flag, v, lab::kMinMemoryLimitMiB, lab::kMaxMemoryLimitMiB);
      if (!n)
        return invalidInput("--memory-limit expects MiB, " + std::to_string(lab::kMinMemoryLimitMiB) + " to " +
                            std::to_string(lab::kMaxMemoryLimitMiB) + ", got '" + v + "'");
      f.memoryLimitBytes = uint64_t(*n) << 20;
    } else if (flag == "--trace-out" && verb == LabVerb::Run) {
      f.traceOut = v;
    } else if (flag == "--sizes" && verb == LabVerb::Time) {
      auto sizes = parseIntList(flag, v, ',', 1, kMaxDimension);
      if (!sizes) return sizes.error();
      f.sizes = *sizes;
      f.sizesGiven = true;
    } else if (flag == "--repeats" && verb == LabVerb::Time) {
      auto n = parseInt(flag, v, 1, 1000);
      if (!n) return n.error();
      f.timing.repeats = *n;
    } else if (flag == "--warmup" && verb == LabVerb::Time) {
      auto n = parseInt(flag, v, 0, 100);
      if (!n) return n.error();
      f.timing.warmup = *n;
    } else if (flag == "--csv" && verb == LabVerb::Time) {
      f.csv = v;
    } else {
      return invalidInput("unknown flag '" + flag + "' for '" + verbName + "'");
    }
  }
  return f;
}

Result<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidInput("cannot read '" + path + "'");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string baseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void writeOutcomeJson(JsonWriter& json, const LabOutcome& o) {
  const LabLaunch& L = o.launch;
  json.field("kernel", L.kernelName);
  json.field("verdict", verdictName(o.verdict));
  json.field("exit_code", o.exitCode());
  json.field("summary", o.summary);
  json.key("dims").beginObject().field("j", L.dims.j).field("k", L.dims.k).field("l", L.dims.l).endObject();
  json.key("block").beginArray().value(L.block.x).value(L.block.y).endArray();
  json.key("grid").beginArray().value(L.grid.x).value(L.grid.y).endArray();
  json.key("defines").beginObject();
  for (const LabDefine& d : L.defines) json.field(d.name, d.value);
  json.endObject();
  json.key("args").beginObject();
  for (const LabArg& a : L.args) json.field(a.name, a.value);
  json.endObject();
  json.field("shared_bytes", L.sharedBytes);
  json.field("backend", L.backend);
  if (!L.backendNote.empty()) json.field("backend_note", L.backendNote);
  if (o.gpu)
    json.key("gpu").beginObject().field("device", o.gpu->device).field("registers_per_thread", o.gpu->registersPerThread)
        .field("traced_registers_per_thread", o.gpu->tracedRegistersPerThread)
        .field("static_shared_bytes", o.gpu->staticSharedBytes).field("local_bytes_per_thread", o.gpu->localBytesPerThread)
        .endObject();
  json.key("diagnostics").beginArray();
  for (const LabDiagnostic& d : o.diagnostics)
    json.beginObject().field("file", d.file).field("line", d.line).field("column", d.column).field("message", d.message).endObject();
  json.endArray();
  json.key("where");
  if (o.where)
    json.beginObject()
        .key("block").beginArray().value(o.where->block.x).value(o.where->block.y).endArray()
        .key("thread").beginArray().value(o.where->thread.x).value(o.where->thread.y).endArray()
        .field("line", o.where->line)
        .endObject();
  else json.null();
  if (o.finished) {  // what the finished run found, as `run` and `analyze` report a built-in kernel's
    const FinishedRun& f = *o.finished;
    const Verification& v = f.run.verification;
    json.field("verified", v.passed).field("max_rel_error", v.maxRelativeError).field("wrong", v.wrong);
    json.field("out_of_bounds", uint64_t(f.outOfBounds.size()));
    json.field("outside_allocation", uint64_t(f.run.outcome.outOfBoundsTotal));
    json.field("traced", f.run.trace.has_value());
    if (f.run.trace) {
      auto profile = profileByName("h100");
      json.key("analysis").beginObject();
      writeAnalysisFields(json, analyzeRun(f, *profile));
      json.endObject();
    }
  }
  json.field("cached", o.cached).field("compile_seconds", o.compileSeconds).field("run_seconds", o.runSeconds);
  json.field("sandbox", o.sandbox);
}

// The request FILE and the flags describe (the file's `// lab:` settings, then the flags).
Result<LabRequest> requestFromCli(const Options& o, const LabFlags& flags, const std::string& path) {
  auto text = readText(path);
  if (!text) return text.error();
  auto request = requestFromFile(std::move(*text), baseName(path));
  if (!request) return request.error();
  LabRequest& q = *request;
  q.cancel = &labInterrupted();  // Ctrl-C stops the interpreter's run (and a GPU child) too
  if (o.sizeGiven) q.dims = o.config.dims;
  for (const LabDefine& d : flags.defines) {
    auto same = std::find_if(q.defines.begin(), q.defines.end(), [&](const LabDefine& e) { return e.name == d.name; });
    if (same != q.defines.end()) *same = d;
    else q.defines.push_back(d);
  }
  for (const LabArg& a : flags.args) {
    auto same = std::find_if(q.args.begin(), q.args.end(), [&](const LabArg& e) { return e.name == a.name; });
    if (same != q.args.end()) *same = a;
    else q.args.push_back(a);
  }
  if (o.blockGiven) q.block = Dim3{unsigned(o.config.blockX), unsigned(o.config.blockY), 1};
  if (flags.grid) q.grid = flags.grid;
  if (flags.sharedBytes) q.sharedBytes = *flags.sharedBytes;
  if (flags.timeout) q.timeoutSeconds = *flags.timeout;
  if (flags.compileTimeout) q.compileTimeoutSeconds = *flags.compileTimeout;
  if (flags.memoryLimitBytes) q.memoryLimitBytes = *flags.memoryLimitBytes;
  if (flags.noSandbox) {
    q.sandbox = false;
    std::cerr << "tilescope-cli: warning: --no-sandbox: the kernel runs with your files, network and processes\n";
  }
  q.seed = o.config.seed;
  q.backend = o.backend == BackendChoice::Cuda ? LabBackend::Cuda
              : o.backend == BackendChoice::Emulator ? LabBackend::Emulator : LabBackend::Auto;
  return request;
}

int labRun(const Options& o, std::ostream& out) {
  if (o.operands.size() != 2) return reportLabError(invalidInput("lab run expects one file: tilescope-cli lab run FILE.cu [flags]"));
  auto flags = parseLabFlags(o.extra, LabVerb::Run);
  if (!flags) return reportLabError(flags.error());
  const std::string& path = o.operands[1];
  auto request = requestFromCli(o, *flags, path);
  if (!request) return reportLabError(request.error());
  const LabRequest& q = *request;
  auto outcome = runLab(q);
  if (labInterrupted()) return reportInterrupt();
  if (!outcome) return reportLabError(outcome.error());
  if (!flags->traceOut.empty()) {
    if (!outcome->finished || !outcome->finished->run.trace)
      return reportLabError(failure("--trace-out: the kernel left no trace (" + outcome->summary + ")"));
    std::ofstream file(flags->traceOut, std::ios::binary);
    JsonWriter json(file);
    writeTraceJson(json, *outcome->finished->run.trace);
    file << "\n";
    if (!file) return reportLabError(invalidInput("cannot write '" + flags->traceOut + "'"));
  }
  if (o.json) {
    JsonWriter json(out);
    json.beginObject();
    json.field("file", validUtf8(path));
    writeOutcomeJson(json, *outcome);
    json.endObject();
    out << "\n";
  } else {
    out << describeOutcome(*outcome, 8, &forTerminal);
    if (!outcome->sandbox.empty()) out << "  " << outcome->sandbox << "\n";
  }
  // The verdict once on a terminal (stdout has just shown it); a script that reads stdout as JSON
  // or into a file still finds the reason on stderr.
  if (outcome->exitCode() != 0 && (o.json || !isatty(STDOUT_FILENO)))
    std::cerr << "tilescope-cli: " << forTerminal(path) << ": " << forTerminal(outcome->summary) << "\n";
  return outcome->exitCode();
}

// lab time's table: the kernel, its resources, and a row per size (a time only where verified).
void printLabTimes(std::ostream& out, const TimingReport& report, const LabOutcome& last, const std::string& path) {
  const LabLaunch& L = last.launch;
  out << forTerminal(L.kernelName) << " from " << forTerminal(path) << ", block " << L.block.x << "x" << L.block.y << " on " << report.device
      << "\n";
  if (last.gpu)
    out << "  " << last.gpu->registersPerThread << " registers per thread, " << last.gpu->staticSharedBytes
        << " B static shared, " << last.gpu->localBytesPerThread << " B local\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-20s %11s %11s %10s %5s  %s\n", "j x k x l", "median ms", "GFLOP/s", "% cuBLAS",
                "reps", "verification");
  out << line;
  for (const TimingResult& t : report.results) {
    if (t.what.kind != TimedKind::Lab) continue;
    const Dims& d = t.what.config.dims;
    const std::string dims = std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l);
    const std::optional<double> percent = percentOfCublas(report, t);
    char pct[16] = "-";
    if (percent) std::snprintf(pct, sizeof pct, "%.1f%%", *percent);
    if (t.verified)
      std::snprintf(line, sizeof line, "%-20s %11.4f %11.1f %10s %5d  %s\n", dims.c_str(), t.medianMs, t.gflops, pct,
                    t.repeats, t.verification.c_str());
    else  // never a time for a result that did not verify
      std::snprintf(line, sizeof line, "%-20s %11s %11s %10s %5s  %s\n", dims.c_str(), "-", "-", "-", "-",
                    t.verification.c_str());
    out << line;
  }
}

// lab time: the kernel as written, verified and then timed on the GPU at each size, with
// cuBLAS at the same size in the same run for its percentage.
int labTime(const Options& o, std::ostream& out) {
  if (o.operands.size() != 2)
    return reportLabError(invalidInput("lab time expects one file: tilescope-cli lab time FILE.cu [--sizes N1,N2] [flags]"));
  auto flags = parseLabFlags(o.extra, LabVerb::Time);
  if (!flags) return reportLabError(flags.error());
  if (o.sizeGiven && flags->sizesGiven) return reportLabError(invalidInput("give either --size/--dims or --sizes, not both"));
  const std::string& path = o.operands[1];
  auto request = requestFromCli(o, *flags, path);
  if (!request) return reportLabError(request.error());
  std::vector<Dims> sizes;
  if (o.sizeGiven) sizes.push_back(o.config.dims);
  else
    for (int n : flags->sizes) sizes.push_back({n, n, n});

  std::unique_ptr<TimingEngine> engine;  // cuBLAS, in this process
  if (flags->cublas) {
    auto e = makeTimingEngine();
    if (!e) return reportLabError(unavailable("lab time needs a GPU: " + e.error().message));
    engine = std::move(*e);
  }
  TimingReport report;
  report.date = todayUtc();
  if (engine) {
    report.device = engine->deviceName();
    auto ceilings = engine->ceilings();
    if (!ceilings) return reportLabError(ceilings.error());
    report.ceilings = *ceilings;
  }
  const auto start = std::chrono::steady_clock::now();
  int exit = kExitOk;
  std::optional<LabOutcome> last;
  for (const Dims& d : sizes) {
    LabRequest q = *request;
    q.dims = d;
    auto outcome = timeLab(q, flags->timing);
    if (labInterrupted()) return reportInterrupt();
    if (!outcome) return reportLabError(outcome.error());
    if (!outcome->timing) {  // it did not compile, crashed or ran past its limit: no size will do better
      out << describeOutcome(*outcome, 8, &forTerminal);
      std::cerr << "tilescope-cli: " << forTerminal(path) << ": " << forTerminal(outcome->summary) << "\n";
      return outcome->exitCode();
    }
    if (outcome->exitCode() != 0) exit = kExitVerifyFailed;
    report.results.push_back(*outcome->timing);
    if (report.device.empty() && outcome->gpu) report.device = outcome->gpu->device;
    last = std::move(*outcome);
    if (engine) {
      TimingCase cublas;
      cublas.kind = TimedKind::Cublas;
      cublas.config.dims = d;
      cublas.config.tile = cublas.config.blockX = cublas.config.blockY = 0;  // unused: written as 0
      auto r = engine->time(cublas, flags->timing);
      if (!r) return reportLabError(r.error());
      report.results.push_back(std::move(*r));
    }
  }
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!flags->csv.empty()) {
    std::ofstream file(flags->csv, std::ios::binary);
    file << timingCsv(report);
    if (!file) return reportLabError(invalidInput("cannot write '" + flags->csv + "'"));
  }
  if (o.json) {
    JsonWriter json(out);
    writeTimingJson(json, report);
    out << "\n";
    return exit;
  }
  printLabTimes(out, report, *last, path);
  if (exit != kExitOk) std::cerr << "tilescope-cli: " << forTerminal(path) << ": a size did not verify and was not timed\n";
  return exit;
}

}  // namespace

namespace {
// The global flags a lab subcommand does not read: refused, never silently ignored. run and
// time take the launch's --size/--dims and --block; check, grade and exercises take the
// exercise's.
Status refuseUnusedFlags(const Options& o, const std::string& sub) {
  const char* flag = o.kernelGiven ? "--kernel" : o.tileGiven ? "--tile" : o.padGiven ? "--pad"
                     : o.tilingGiven ? "--tiling" : !o.out.empty() ? "--out" : nullptr;
  const bool launch = sub == "run" || sub == "time";
  if (!flag && !launch) flag = o.sizeGiven ? "--size/--dims" : o.blockGiven ? "--block" : nullptr;
  if (!flag) return Ok{};
  return invalidInput(std::string(flag) + " does not apply to 'lab " + sub + "'" +
                      (launch ? " (the kernel is the file; its launch takes --size, --dims, --block, --define, --grid)"
                              : " (the exercise sets the sizes and the launch)"));
}
}  // namespace

int labCommand(const Options& o, std::ostream& out) {
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  const std::string sub = o.operands.empty() ? "" : o.operands.front();
  if (sub == "grade" || sub == "run" || sub == "time" || sub == "check" || sub == "exercises")
    if (Status s = refuseUnusedFlags(o, sub); !s) return reportLabError(s.error());
  if (sub == "grade") return labGrade(o, out);
  if (sub == "grade-file") return labGradeFile(o, out);
  if (sub == "run") return labRun(o, out);
  if (sub == "time") return labTime(o, out);
  if (sub == "check") return labCheck(o, out);
  if (sub == "exercises") return labExercises(o, out);
  if (sub == "autograder") return labAutograder(o, out);
  return reportLabError(invalidInput(
      "lab expects 'run FILE.cu', 'time FILE.cu', 'check EXERCISE FILE.cu', 'grade EXERCISE DIR', 'exercises' or 'autograder gradescope|classroom OUTDIR --exercise NAME'"));
}

}  // namespace tilescope::cli
