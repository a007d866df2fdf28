// One reader of a run's description, for every front end: the CLI's flags (--tile 4), a
// lesson's and a script's `set` lines (set tile 4) and a page's address (tile=4) read each
// setting here, into a LaunchConfig, with one set of words for what a setting takes. The caller
// puts its own place in front (the flag, the file and line, the address key): "--tile takes a
// whole number from 1 to 32 (...), got '40'", "x.lesson:3: set tile takes ...", "tile= takes ...".
// Nothing goes to text and back: the config is the description.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/run/launch_config.h"

namespace tilescope {

// Whether a setting's range is checked here or left to the plan. A script's line is a person's
// hand on a slider: a tile past 32 is refused by the plan as the app refuses it (the picture
// kept, the reason in the centre); a lesson, the CLI and an address are told at once.
enum class Ranges { Checked, LeftToThePlan };

// The settings of a run, and the same as one line: "kernel, size, dims, tile, ...".
inline constexpr std::string_view kRunSettings[] = {"kernel", "size", "dims", "tile", "block",
                                                   "tiling", "pad", "grid-blocks", "seed"};
std::string runSettingNames();
bool isRunSetting(std::string_view name);

// `values` (the words after the setting's name) into `config`. A list of numbers may be one word
// with ',' or 'x' between them ("33,17,9", "32x8") or several ("33 17 9"). The error names what
// the setting takes and what it got, without the place.
Status readRunSetting(LaunchConfig& config, std::string_view name, const std::vector<std::string>& values,
                      Ranges ranges = Ranges::Checked);

}  // namespace tilescope
