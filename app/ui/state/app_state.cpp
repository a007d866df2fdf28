#include "ui/state/app_state.h"

#include <algorithm>

namespace tilescope::ui {

int followedThread(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run || state.view.followX < 0) return -1;
  const KernelLaunch& L = run->run.plan.launch;
  if (state.view.followX >= int(L.blockX) || state.view.followY >= int(L.blockY)) return -1;
  return state.view.followY * int(L.blockX) + state.view.followX;
}

bool loadShadingOn(const AppState& state) {
  const LoadedRun* run = shownRun(state);
  if (!run) return false;
  switch (state.view.loadShading) {
    case LoadShading::On: return true;
    case LoadShading::Off: return false;
    case LoadShading::Auto: break;
  }
  const KernelLaunch& L = run->run.plan.launch;
  return std::max({L.j, L.k, L.l}) > 16;
}

}  // namespace tilescope::ui
