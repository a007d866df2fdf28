// A trace as Chrome trace-event JSON (the "JSON Array/Object Format" that chrome://tracing
// and https://ui.perfetto.dev open): one process per block (pid = linear block index), one
// track per warp (tid = warp index in the block). Each barrier interval of a warp is a
// complete slice ("ph":"X") named after its phase, with its loads, shared reads, stores
// and out-of-bounds accesses as args; each barrier the warp passes is an instant event
// ("ph":"i") at the arrival of its last thread.
//
// Timestamps (the format's "ts", in microseconds) are one of two timebases, recorded in
// otherData.timebase:
//   logical  - 1 us per event, in the canonical order (trace.h): the order the emulator
//              ran the threads in. Warps of a block appear one after another within an
//              interval, which is exactly how the emulator schedules them.
//   gpu-clock - 1 us per GPU clock cycle: the clock64() value each thread recorded at a
//              barrier, relative to the block's earliest arrival (SMs' clocks are not
//              synchronised, so every block starts at 0). Used for traces from the GPU.
#pragma once
#include <ostream>
#include <string_view>

#include "core/run/run.h"

namespace tilescope {

enum class ChromeTimebase { Logical, GpuClock };
std::string_view chromeTimebaseName(ChromeTimebase t);  // "logical", "gpu-clock"

// GpuClock for traces that came from the CUDA backend with barrier clocks, else Logical.
ChromeTimebase defaultChromeTimebase(const Run& run);

// Writes the run's trace (which must be present) as one JSON object.
void writeChromeTrace(std::ostream& out, const Run& run, ChromeTimebase timebase);

}  // namespace tilescope
