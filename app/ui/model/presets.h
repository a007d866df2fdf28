// Named starting points: the book's worked examples and the lecture's block-shape table.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "core/run/launch_config.h"

namespace tilescope::ui {

struct Preset {
  std::string_view name;   // as typed in scripts: "book-4x4"
  std::string_view label;  // as shown on the button
  std::string_view tip;
  LaunchConfig config;
  int seekPhase = 0;       // where the cursor starts
};

std::span<const Preset> presets();
const Preset* findPreset(std::string_view name);

}  // namespace tilescope::ui
