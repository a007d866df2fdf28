// The Coalescing panel's view (coalescing_view.h).
#include "ui/model/coalescing_view.h"

#include <cstdio>

namespace tilescope::ui {

CoalescingView coalescingView(const LoadedRun& run, const AnalysisReport& analysis, int bx, int by, Cursor cursor,
                              int warp) {
  CoalescingView v;
  const Cursor c = run.timeline.normalize(cursor);
  const StepInfo& step = run.timeline.step(c.step);
  for (const GlobalRequest& g : analysis.coalescing.requests) {
    if (g.request.blockX != bx || g.request.blockY != by || g.request.warp != warp) continue;
    v.warpAccesses = true;
    // The warp's requests of the cursor's step, each drawn large (the timeline picks the step).
    if (requestInStep(g.request, step.phase, step.k)) v.requests.push_back({g, pictureOf(g)});
  }
  if (v.warpAccesses && v.requests.empty()) {
    char text[200];
    std::snprintf(text, sizeof text, "warp %d makes no global access at this step (%s): step to a load or a store.", warp,
                  run.timeline.stepLabel(c.step).c_str());
    v.none = text;
  }
  v.arrays = globalLayout(run.run.plan.launch);
  return v;
}

}  // namespace tilescope::ui
