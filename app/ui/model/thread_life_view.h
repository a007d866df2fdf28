// What the Thread life panel shows at one cursor, as plain data (issue 25): the followed
// thread's life as fig. 5.8 tabulates it, one line per phase, at each level of shortening the
// panel may need (0: all of it .. 3: the current phase alone), each entry done, current or
// ahead. Built once per cursor move (state/view_cache.h); the panel picks the level that fits
// and lays it out. No ImGui here.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "core/timeline/thread_life.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct LifeToken {
  std::string text;
  LifeTime time = LifeTime::Done;
  bool label = false;    // "phase 0:" at the start of a line
  bool newLine = false;  // starts a line
};

// The shortening levels: 1 elides a phase's middle products (the current one stays), 2 keeps
// only the loads of the other phases, 3 leaves the other phases out.
inline constexpr int kLifeDetails = 4;

struct ThreadLifeView {
  int thread = -1;  // linear in the block
  std::string title, shortTitle;  // with the book's thread_{ty,tx}, and without (a projector's short panel)
  std::array<std::vector<LifeToken>, kLifeDetails> tokens;  // by shortening level
};

struct ThreadLifeOptions {
  int followed = -1;
  bool operator==(const ThreadLifeOptions&) const = default;
};

// The followed thread's life at the cursor (options.followed >= 0), from `life`: threadLife of
// that thread, built once per run, block and thread (state/view_cache.h).
ThreadLifeView threadLifeView(const LoadedRun& run, const BlockTimeline& block, Cursor cursor,
                              const ThreadLifeOptions& options, const ThreadLife& life);

}  // namespace tilescope::ui
