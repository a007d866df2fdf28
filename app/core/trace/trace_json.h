// The trace as JSON, the format `tilescope-cli trace` writes:
// {"kernel","dims":{"j","k","l"},"tile","block":[bx,by],"grid":[gx,gy],"phases",
//  "events":[{"op","block":[x,y],"thread":[x,y],"warp","phase","k","src","dst","in_bounds",
//             "zero_fill","line","value"}]}
// src and dst are [row, col] of a matrix element or a shared-tile slot, as the op implies:
//   load_m/load_n: src = element of M/N, dst = Mds/Nds slot (null for naive's direct reads)
//   read_m/read_n: src = Mds/Nds slot;  store_p: dst = element of P;  barrier: both null;
//   load_w/store_w (rung 9's workspace): src/dst = [0, the element's index in its array].
#pragma once
#include <ostream>

#include "core/json_writer.h"
#include "core/trace/trace.h"

namespace tilescope {

void writeTraceJson(JsonWriter& json, const Trace& trace);
// The launch fields every JSON output starts with: "kernel", "dims", "tile" (null for
// kernels without one), "block", "grid", "pad".
void writeLaunchFields(JsonWriter& json, const KernelLaunch& launch);
void writeEventJson(JsonWriter& json, const Event& e, unsigned blockX);

}  // namespace tilescope
