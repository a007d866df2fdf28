// Replay: a trace file (tilescope-cli save, app/core/files/trace_file.h) shown in the app like a
// fresh run, so a trace captured on a GPU machine animates on a laptop without one.
// `tilescope --open FILE`, the script command `open FILE` and the Controls panel's "Open
// trace file" field all push one intent, OpenTraceFile; RunWorker reads the file off the UI
// thread (openTraceFile below) and builds the timeline and analysis exactly as for a run.
#pragma once
#include <cstdint>
#include <string>

#include "kernels/result.h"
#include "core/run/run.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct OpenedTrace {
  Run run;
  ReplayInfo info;
};

// Reads a trace file for the app: everything loadRun checks, plus what animating needs (a
// trace, no larger than the app's cap). The error names the file and what is wrong.
Result<OpenedTrace> openTraceFile(const std::string& path);

// "replaying lecture.tstrace: recorded on NVIDIA H100 (cuda), 2026-11-21 14:03, tilescope 0.1.0"
std::string replayLabel(const ReplayInfo& info, const Run& run);

}  // namespace tilescope::ui
