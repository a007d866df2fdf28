// tilescope-cli analyze: traces one launch and prints every analysis of app/core/analysis
// (coalescing, bank conflicts, hazards, traffic and intensity, occupancy) for a device
// profile. Flags of its own: --profile NAME (a built-in profile, "device": the GPU's own from
// the device query with ceilings measured on it, "auto" (default): the device when the run
// is on CUDA, else kProfileWithoutGpu), --registers R (registers per thread for the occupancy model,
// instead of the compiled kernel's or the estimate), --plain-run (after the traced launch, launch
// the plain build (the kernel file as written) once more: what scripts/gpu-analysis profiles with ncu,
// since the traced kernel's own trace stores would swamp the store counters). A racing kernel's wrong result is reported,
// not an error: showing it is the point, so the exit code is 0 once the analysis ran.
#include <iostream>

#include "commands.h"
#include "core/analysis/analysis.h"
#include "core/json_writer.h"
#include "core/run/run.h"
#include "core/trace/trace_json.h"

namespace tilescope::cli {

namespace {
struct AnalyzeFlags {
  std::string profile = "auto";
  int registers = 0;  // 0: the compiled kernel's on a GPU, else the estimate
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
// The profile `name` names for a run on `backend`. "device" asks the run's backend, or, when
// the run was emulated, the CUDA backend if there is a GPU.
Result<DeviceProfile> resolveProfile(const std::string& name, Backend& backend) {
  if (name == "auto" || name == kDeviceProfileName) {
    auto own = backend.deviceProfile();
    if (own || own.error().kind != ErrorKind::Unavailable) return own;
    if (name == "auto") return profileByName(kProfileWithoutGpu);
    auto cuda = makeCudaBackend();
    if (!cuda) return unavailable("--profile device needs a GPU: " + cuda.error().message);
    return (*cuda)->deviceProfile();
  }
  return profileByName(name);  // checked before the run
}

// Registers per thread: --registers, else the compiled kernel's (CUDA), else the estimate.
Result<KernelResources> resolveResources(int registers, Backend& backend, const LaunchPlan& plan) {
  KernelResources resources = kernelResources(plan.launch);
  if (registers > 0) {
    resources.registersPerThread = registers;
    resources.registersSource = "--registers";
    return resources;
  }
  auto compiled = backend.compiledResources(plan);
  if (compiled || compiled.error().kind != ErrorKind::Unavailable) return compiled;
  return resources;
}
}  // namespace

int analyzeCommand(const Options& o, std::ostream& out) {
  auto flags = parseAnalyzeFlags(o.extra);
  if (!flags) return reportError(flags.error());
  if (flags->profile != "auto" && flags->profile != kDeviceProfileName) {
    if (auto named = profileByName(flags->profile); !named)  // before the run: a typo costs nothing
      return reportError(invalidInput(named.error().message + ", device (the GPU's own), auto"));
  }
  auto backend = makeBackend(o.backend);
  if (!backend) return reportError(backend.error());
  std::string choice;  // a kernel's own schedule, as `run` has it
  auto scheduled = throughTheDoor(o.config, o.backend, choice);
  if (!scheduled) return reportError(scheduled.error());
  const LaunchConfig config = *scheduled;
  if (!choice.empty()) std::cerr << choice << "\n";
  auto finished = runAndFinish(**backend, config, RunOptions{},
                               FinishOptions{.timeline = false, .startedAt = std::nullopt});
  if (!finished) return reportError(finished.error());
  const Run& r = (*finished)->run;
  if (flags->plainRun) {
    auto plain = executeRun(**backend, config, false);
    if (!plain) return reportError(plain.error());
  }

  auto profile = resolveProfile(flags->profile, **backend);
  if (!profile) return reportError(profile.error());
  auto resources = resolveResources(flags->registers, **backend, r.plan);
  if (!resources) return reportError(resources.error());
  const AnalysisReport report = analyzeRun(**finished, *profile, *resources);
  const KernelLaunch& L = r.plan.launch;

  if (o.json) {
    JsonWriter json(out);
    json.beginObject();
    writeLaunchFields(json, L);
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
