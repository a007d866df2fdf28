// The Copy engine panel's view (copy_engine_view.h).
#include "ui/model/copy_engine_view.h"

namespace tilescope::ui {

CopyEngineView copyEngineView(const CopySchedule& schedule, const BlockTimeline& block, Cursor cursor) {
  CopyEngineView v;
  v.applies = schedule.applies();
  v.bx = block.bx(), v.by = block.by();
  if (v.applies) v.ring = schedule.at(cursor);
  return v;
}

}  // namespace tilescope::ui
