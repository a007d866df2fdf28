// What the Occupancy panel shows, as plain data (issue 25): this kernel's block against an SM's
// limits on the analysis profile, at the registers per thread the panel's slider sets, the grid
// dealt onto the profile's SMs in waves, and for a kernel that chooses its schedule its choice. Facts of the run,
// its analysis, the profile and the slider, not of the cursor: built once per change of those
// (state/view_cache.h), never per step. No ImGui here.
// A request refused for its size (issue 28: rung 8 at 1024 on the emulator) has no run and no
// trace, yet its grid is known before any run: plannedOccupancyView deals the launch that would
// have run (core/run/launch_waves.h) and labels it a plan, so the waves of the sizes the ladder's
// lessons are about can be seen without a GPU. Nothing in it is measured.
#pragma once
#include <array>
#include <optional>
#include <string>

#include "core/analysis/analysis.h"
#include "core/run/occupancy.h"
#include "core/run/waves.h"
#include "core/run/backend.h"
#include "ui/model/loaded_run.h"

namespace tilescope::ui {

struct OccupancyOptions {
  std::string profile;  // the analysis profile's name
  int registers = 0;    // per thread, the slider's value (0: the kernel's own count)
  bool operator==(const OccupancyOptions&) const = default;
};

struct LimitRow {
  std::string name;   // "blocks by registers"
  std::string value;  // "5  <- limit", "no limit"
  std::string widest;  // the value as it reads when it limits: the column's width fits any
};

struct OccupancyView {
  int kernelRegisters = 0;         // the kernel's own count: where the slider starts
  std::string registersSource;     // how it is known ("cudaFuncGetAttributes", "estimate")
  int maxRegisters = 255;          // the slider's end: the profile's most per thread
  std::string block;               // "block: 256 threads, 2048 B shared (...)"
  std::array<LimitRow, 4> limits;  // by thread slots, block slots, registers, shared memory
  std::string summary;             // "6 blocks/SM, 1536 of 2048 threads: occupancy 75.0%, limited by ..."
  float occupancy = 0.0f;          // 0..1, the bar
  Waves waves;                     // the grid in waves at that occupancy (the picture)
  std::string wavesText;           // describeWaves
  bool hasSelector = false;        // a kernel that chooses its own schedule: its choice follows
  std::string selector;            // "on 132 SMs (H100): <reason>"
  std::string thisRun;             // "this run: <tiling>, a persistent grid of 132 blocks: the selector's choice"
  std::string plan;                // not "": no run, this is the launch as planned, and why it did not run
};

OccupancyView occupancyView(const LoadedRun& run, const AnalysisReport& analysis, const DeviceProfile& profile,
                            const OccupancyOptions& options);

// Why `requested` is not run here for its size (core/run/launch_waves.h: sizeRefusal at the
// app's trace cap, kAppMaxTraceEvents), or "" where its size is not why.
std::string refusedForSize(const LaunchConfig& requested, bool onEmulator);
// Whether a request runs on the emulator: chosen, or Auto without CUDA (as the run worker picks).
inline bool runsOnEmulator(BackendChoice choice, bool cudaAvailable) {
  return choice == BackendChoice::Emulator || !cudaAvailable;
}

// The view of `requested`, refused for its size (`why`, refusedForSize's words), as planned on
// `profile`: the kernel's facts for its block, the estimate for its registers, the grid in waves,
// rung 9's selector's choice; `plan` says "Not run here: <why>. No trace exists; this is the grid
// of <the launch> as it would be dealt onto the 132 SMs of the h100 profile, a plan, not a
// measurement." nullopt where the launch itself is invalid.
std::optional<OccupancyView> plannedOccupancyView(const LaunchConfig& requested, const std::string& why,
                                                  const DeviceProfile& profile, const OccupancyOptions& options);

}  // namespace tilescope::ui
