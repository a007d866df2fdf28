// What the Coalescing panel shows for one warp at one cursor, as plain data (issue 25): the
// warp's global requests of the cursor's step with their pictures (sectors, lines, bytes), where
// each array starts, or why there is nothing to draw. Built once per cursor move or warp change
// (state/view_cache.h) from the run's analysis; the panel lays it out. No ImGui here.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/coalescing.h"
#include "core/trace/memory_layout.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct CoalescingRequestView {
  GlobalRequest request;
  RequestPicture picture;  // what the layout file records
};

struct CoalescingOptions {
  int warp = 0;
  std::weak_ptr<const AnalysisReport> analysis;  // by identity: it arrives after the run
  bool operator==(const CoalescingOptions& o) const {
    return warp == o.warp && !analysis.owner_before(o.analysis) && !o.analysis.owner_before(analysis);
  }
};

struct CoalescingView {
  bool warpAccesses = false;  // the warp makes some global access in the run
  std::vector<CoalescingRequestView> requests;  // its requests of the cursor's step
  std::string none;           // when it makes none at this step
  GlobalLayout arrays;        // each array's base: addresses count bytes from it
};

CoalescingView coalescingView(const LoadedRun& run, const AnalysisReport& analysis, int bx, int by, Cursor cursor,
                              int warp);

}  // namespace tilescope::ui
