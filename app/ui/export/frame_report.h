// Frame times and picture latencies, for `--report` and the script's `report` command.
#pragma once
#include <string>
#include <vector>

#include "ui/state/app_state.h"
#include "kernels/result.h"

namespace tilescope::ui {

struct FrameStats {
  std::vector<double> frameSeconds;  // CPU time of each frame, input to swap
  void clear() { frameSeconds.clear(); }
};

// "frames 300 (1280x800, playing): median 7.9 ms, p90 9.1 ms, p99 12.0 ms, max 14.2 ms; ..."
std::string frameReport(const FrameStats& stats, const AppState& state);

// The layout file: every grid's and window's rectangle in window pixels, and the theme's
// colours, so tests find cells without guessing.
Status writeLayout(const std::string& path, const AppState& state, int width, int height);

}  // namespace tilescope::ui
