// Frame times and picture latencies, for `--report` and the script's `report` command.
#pragma once
#include <string>
#include <vector>

#include "ui/state/app_state.h"
#include "ui/state/frame_layout.h"
#include "kernels/result.h"

namespace tilescope::ui {

struct FrameStats {
  std::vector<double> frameSeconds;  // CPU time of each frame, input to swap
  // The app's own work of each frame: from its start to the hand-over of its draw lists
  // (ImGui::Render), before the driver rasterises them (software under Xvfb: not the app's).
  std::vector<double> appSeconds;
  std::vector<double> appCpuSeconds;  // the same in the frame loop's CPU time (a shared machine's other work left out)
  void clear() { frameSeconds.clear(), appSeconds.clear(), appCpuSeconds.clear(); }
};

// "frames 300: median 7.9 ms, p90 9.1 ms, p99 12.0 ms, max 14.2 ms [config]", then the app's own
// work per frame (median, p95, p99, max) and the request-to-new-picture latencies.
std::string frameReport(const FrameStats& stats, const AppState& state);

// The layout file: every grid's and window's rectangle in window pixels, and the theme's
// colours, so tests find cells without guessing.
Status writeLayout(const std::string& path, const AppState& state, const FrameLayout& layout, int width, int height);

}  // namespace tilescope::ui
