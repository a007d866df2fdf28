// The device profile the analysis panels share (Roofline, Occupancy): one choice in
// AppState, changed only by the SetAnalysisProfile intent. GUI-free, so it is unit tested
// without a display (tests/ui/model/analysis_profile_test.cpp).
//
// Default: the GPU's own profile ("device": SM limits from cudaGetDeviceProperties, ceilings
// measured on it) when the CUDA backend is present, else h100. The panels show the note, so
// a reader always knows which device the numbers describe and why.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/device_profile.h"
#include "kernels/result.h"

namespace tilescope::ui {

struct AnalysisView {
  std::string chosen;                   // a name the user picked; "" = the default
  std::optional<DeviceProfile> device;  // the GPU's own, once the run worker has measured it
  std::string noDevice;                 // why there is none ("" while still looking)
};

struct ProfileChoice {
  DeviceProfile profile;
  std::string note;  // "default: this GPU (the CUDA backend is present)", "chosen", ...
};

// The profile the panels use now, with the note they show.
ProfileChoice analysisProfile(const AnalysisView& view);

// The names the panels offer: "device" first when the GPU's profile is there, then the
// built-in profiles.
std::vector<std::string> analysisProfileNames(const AnalysisView& view);

// Ok when `name` can be chosen now; else InvalidInput listing the names.
Status checkAnalysisProfile(const AnalysisView& view, std::string_view name);

}  // namespace tilescope::ui
