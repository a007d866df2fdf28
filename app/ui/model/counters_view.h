// What the Counters panel shows at one cursor, as plain data (issue 25): each line's name, its
// figure exactly and shortened for a narrow column, and its tooltip. Built once per cursor move
// (state/view_cache.h); the panel decides which shortening fits and draws. No ImGui here.
#pragma once
#include <string>
#include <vector>

#include "core/timeline/timeline.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct CounterLine {
  std::string name;
  std::string exact, shortened;  // shortened: "" when the exact figure is short already
  std::string tip;               // "" when the name says it all
};

struct CountersOptions {
  bool presenter = false;  // on a projector: only the lines the lessons speak of
  bool operator==(const CountersOptions&) const = default;
};

struct CountersView {
  std::vector<CounterLine> lines;
  // The line named `name`, or null (tests and the layout read figures by name).
  const CounterLine* line(std::string_view name) const;
};

// What the grid has done up to `cursor` (all blocks in lockstep) against the whole run.
CountersView countersView(const LoadedRun& run, Cursor cursor, const CountersOptions& options);

}  // namespace tilescope::ui
