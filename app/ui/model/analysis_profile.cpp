#include "ui/model/analysis_profile.h"

namespace tilescope::ui {

ProfileChoice analysisProfile(const AnalysisView& view) {
  const bool wantsDevice = view.chosen.empty() || view.chosen == kDeviceProfileName;
  if (wantsDevice && view.device)
    return {*view.device, view.chosen.empty() ? "default: this GPU's own profile (the CUDA backend is present)"
                                              : "chosen: this GPU's own profile"};
  if (!view.chosen.empty() && view.chosen != kDeviceProfileName) {
    if (auto p = profileByName(view.chosen)) return {*p, "chosen: a built-in profile"};
  }
  auto fallback = profileByName(kProfileWithoutGpu);
  const std::string why = view.noDevice.empty() ? "still looking for a CUDA device" : view.noDevice;
  return {fallback ? *fallback : DeviceProfile{}, "default: " + std::string(kProfileWithoutGpu) + " (" + why + ")"};
}

std::vector<std::string> analysisProfileNames(const AnalysisView& view) {
  std::vector<std::string> names;
  if (view.device) names.emplace_back(kDeviceProfileName);
  for (const DeviceProfile& p : builtinProfiles()) names.push_back(p.name);
  return names;
}

Status checkAnalysisProfile(const AnalysisView& view, std::string_view name) {
  std::string list;
  for (const std::string& n : analysisProfileNames(view)) {
    if (n == name) return Ok{};
    list += (list.empty() ? "" : ", ") + n;
  }
  if (name == kDeviceProfileName)
    return invalidInput(
        "no device profile: " + (view.noDevice.empty() ? std::string("no CUDA device yet") : view.noDevice) +
        " (the profiles are " + list + ")");
  return invalidInput("unknown profile '" + std::string(name) + "': the profiles are " + list);
}

}  // namespace tilescope::ui
