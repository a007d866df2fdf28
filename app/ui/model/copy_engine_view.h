// What the Copy engine panel shows at one cursor, as plain data (issue 25): whether the
// kernel moves its tiles with the copy engine (rung 8), and the ring of stages at the cursor.
// Built once per cursor move (state/view_cache.h) from the block's schedule, which scans the
// block's events (about 20 000 at the lesson's tiling) and is built once per run and block.
#pragma once
#include "core/timeline/copy_ring.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct CopyEngineView {
  bool applies = false;  // some tile is copied by the copy engine
  int bx = 0, by = 0;
  CopyRing ring;         // the ring of stages at the cursor
};

CopyEngineView copyEngineView(const CopySchedule& schedule, const BlockTimeline& block, Cursor cursor);

}  // namespace tilescope::ui
