// tilescope-cli analyze: traces one launch and prints every analysis of app/core/analysis
// (coalescing, bank conflicts, hazards, traffic and intensity, occupancy) for a device
// profile. Flags of its own: --profile NAME, --registers R (registers per thread for the
// occupancy model, instead of the estimate), --plain-run (after the traced launch, launch
// the plain NoProbe instantiation once more: what scripts/gpu-analysis profiles with ncu,
// since the traced kernel's own trace stores would swamp the store counters). A racing kernel's wrong result is reported,
// not an error: showing it is the point, so the exit code is 0 once the analysis ran.
#include <iostream>

#include "commands.h"
#include "core/analysis/analysis.h"
#include "core/json_writer.h"
#include "core/run.h"

namespace tilescope::cli {

namespace {
struct AnalyzeFlags {
  std::string profile = "a100";
  int registers = 0;  // 0: the estimate
  bool plainRun = false;
};

Result<AnalyzeFlags> parseAnalyzeFlags(const std::vector<std::string>& extra) {
  AnalyzeFlags f;
  for (std::size_t i = 0; i < extra.size(); ++i) {
    const std::string& a = extra[i];
    const bool hasValue = i + 1 < extra.size() && extra[i + 1].rfind("--", 0) != 0;
    if (a == "--plain-run") {
      f.plainRun = true;
    } else if (a == "--profile" || a == "--registers") {
      if (!hasValue) return invalidInput(a + " needs a value");
      const std::string& v = extra[++i];
      if (a == "--profile") {
        f.profile = v;
      } else {
        auto r = parseInt(a, v, 1, 255);
        if (!r) return r.error();
        f.registers = *r;
      }
    } else {
      return invalidInput("unknown flag '" + a + "' for 'analyze' (it takes --profile NAME, --registers R, --plain-run)");
    }
  }
  return f;
}
}  // namespace

int analyzeCommand(const Options& o, std::ostream& out) {
  auto flags = parseAnalyzeFlags(o.extra);
  if (!flags) return reportError(flags.error());
  auto profile = profileByName(flags->profile);
  if (!profile) return reportError(profile.error());
  auto backend = makeBackend(o.backend);
  if (!backend) return reportError(backend.error());
  auto run = executeRun(**backend, o.config, true);
  if (!run) return reportError(run.error());
  const Run& r = *run;
  if (flags->plainRun) {
    auto plain = executeRun(**backend, o.config, false);
    if (!plain) return reportError(plain.error());
  }

  KernelResources resources = kernelResources(r.plan.launch);
  if (flags->registers > 0) {
    resources.registersPerThread = flags->registers;
    resources.registersSource = "--registers";
  }
  const AnalysisReport report = analyzeTrace(*r.trace, *profile, resources);
  const KernelLaunch& L = r.plan.launch;

  if (o.json) {
    JsonWriter json(out);
    json.beginObject();
    json.field("kernel", kernelInfo(L.kernel).name);
    json.key("dims").beginObject().field("j", L.j).field("k", L.k).field("l", L.l).endObject();
    json.key("tile");
    if (kernelInfo(L.kernel).tiled) json.value(L.tile);
    else json.null();
    json.key("block").beginArray().value(L.blockX).value(L.blockY).endArray();
    json.field("pad", L.pad);
    json.field("backend", r.backend);
    json.field("device", r.device);
    json.field("verified", r.verification.passed);
    json.field("wrong", r.verification.wrong);
    writeAnalysisFields(json, report);
    json.endObject();
    out << "\n";
  } else {
    out << describe(r.config) << " on " << r.backend << " (" << r.device << ")\n";
    out << r.verification.summary() << "\n";
    writeAnalysisText(out, report);
  }
  return kExitOk;
}

}  // namespace tilescope::cli
