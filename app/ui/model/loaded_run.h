// The run on screen as plain data: the core's finished run with where it came from. The
// workers build it, AppState holds it, the panels read it; it lives in model/ so that the
// state needs nothing from the workers (rooms: model <- state <- workers <- panels).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/finished/finished_run.h"

namespace tilescope::ui {

// 8 Mi events (256 MiB of trace): 128x128 with T=16 (4.7 Mi) fits with room to spare.
inline constexpr uint64_t kAppMaxTraceEvents = uint64_t(8) << 20;

// Where a replayed run came from (workers/replay.h): what the Controls panel and the layout JSON show.
struct ReplayInfo {
  std::string file;           // as it was given to open
  std::string toolVersion;    // the tilescope that wrote it
  uint32_t formatVersion = 0;
  std::string savedAt;        // the file's modification time, "2026-11-21 14:03" ("" when unknown):
                              // the format stores no date, and copying a file keeps its time with cp -p
};

// The shown run: the core's finished run (verified, bounds report, timeline, load index, a
// gallery launch's symptoms), with where it came from. Its analysis comes later, on its own
// (RunWorker::pollAnalysis): the worker hands the run over as soon as its timeline is cut, so
// a slider change is not held up by the analysis (tens of milliseconds at 64^3).
// A first picture: the launch run only to every block's `barriers`-th barrier (a tiled kernel's
// phase 0 at 2: its tiles loaded, its k steps, the barrier that lets the next tiles in; at 1
// phase 0's tiles loaded, before any k step), shown while
// the whole run goes on, which then replaces it. Its trace is exactly the first events of the
// whole run's blocks; its P is unfinished and not verified, so every panel that shows the run
// says which part of it ran (partialNote).
struct PartialPicture {
  int barriers = 0;      // every block ran until all its threads arrived at this barrier
  int phasesShown = 0;   // phases with events in the partial trace
  int phasesTotal = 0;   // the whole launch's
  // Why the whole run that was to replace it failed ("" while it runs): the picture stays, and
  // says that the rest of the launch did not run, and why.
  std::string wholeRunFailed{};
};

struct LoadedRun : FinishedRun {
  std::optional<ReplayInfo> replay;  // set when it was opened from a trace file, not run here
  std::optional<PartialPicture> partial;  // set while only the first picture has run
};

// "phase 0 of phases 0 to 7 shown, the rest running" for a first picture, "" for a whole run;
// once its whole run failed, "phase 0 of phases 0 to 7 shown; the rest did not run: WHY".
// Phases are counted from 0, as the step captions and the timeline's bands count them.
inline std::string partialNote(const LoadedRun& run) {
  if (!run.partial) return "";
  const PartialPicture& p = *run.partial;
  const std::string of = " of phases 0 to " + std::to_string(p.phasesTotal - 1);
  const bool failed = !p.wholeRunFailed.empty();
  // An odd barrier ends a tiled kernel's loads: the phase's tiles are in, its k steps not yet run.
  const bool tilesOnly = p.barriers % 2 == 1;
  const std::string shown = tilesOnly           ? "the tiles of phase " + std::to_string(p.barriers / 2)
                            : p.phasesShown == 1 ? "phase 0"
                                                 : "phases 0 to " + std::to_string(p.phasesShown - 1);
  if (failed) return shown + of + " shown; the rest did not run: " + p.wholeRunFailed;
  return shown + of + (tilesOnly ? " shown, its k steps and the rest running" : " shown, the rest running");
}

// Whether the run on screen is a first picture whose whole run is still to come.
inline bool wholeRunComing(const LoadedRun& run) { return run.partial && run.partial->wholeRunFailed.empty(); }

}  // namespace tilescope::ui
