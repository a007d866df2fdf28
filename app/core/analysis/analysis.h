// Every analysis of one traced run, together: what `tilescope-cli analyze` prints and the
// app's panels show. Each part lives in its own file; this only gathers them.
#pragma once
#include <ostream>
#include <vector>

#include "bank_conflicts.h"
#include "coalescing.h"
#include "core/run/device_profile.h"
#include "core/run/occupancy.h"
#include "races.h"
#include "traffic.h"
#include "core/run/waves.h"

namespace tilescope {

class JsonWriter;

struct AnalysisReport {
  CoalescingReport coalescing;
  BankReport banks;
  std::vector<Hazard> hazards;
  Traffic traffic;
  DeviceProfile profile;
  KernelResources resources;
  Occupancy occupancy;
  Waves waves;  // the grid dealt onto the profile's SMs at the occupancy's blocks per SM
  RooflinePoint roofline;
};

// `resources` defaults to kernelResources(trace.launch) when registersPerThread is 0. `hazards`:
// the trace's hazards when they were searched already (a finished run's): not searched again.
AnalysisReport analyzeTrace(const Trace& trace, const DeviceProfile& profile, KernelResources resources = {},
                            const std::vector<Hazard>* hazards = nullptr);

// The keys documented for `tilescope-cli analyze --json` (README.md, "Memory-access analysis"); the
// caller has opened an object, this adds the fields.
void writeAnalysisFields(JsonWriter& json, const AnalysisReport& report);

// A plain-text summary, one figure a line.
void writeAnalysisText(std::ostream& out, const AnalysisReport& report);

}  // namespace tilescope
