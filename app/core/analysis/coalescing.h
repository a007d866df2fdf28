// Coalescing: how many 32-byte sectors and 128-byte lines each warp-level global request
// touches (lecture 18: "one L1 cache per SM with 128-byte cache lines ... up to four
// transactions to L2"; the L1 serves a request sector by sector, and a sector is 32 bytes).
//
// Per request: sectors = distinct addr / 32 among its lanes, lines = distinct addr / 128.
// Totals per direction (loads of M and N, stores of P) are what Nsight Compute reports as
// l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum and
// l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum for the same launch.
// Efficiency = bytes the lanes actually use (distinct 4-byte words x 4) / bytes in the
// sectors fetched (sectors x 32): 100% when a warp reads 32 consecutive floats, 12.5% when
// the whole warp reads one float (naive's M with a 32-wide block: one word of one sector).
#pragma once
#include <cstdint>
#include <vector>

#include "warp_requests.h"

namespace tilescope {

inline constexpr unsigned kSectorBytes = 32;
inline constexpr unsigned kLineBytes = 128;

struct GlobalRequest {
  WarpRequest request;
  int sectors = 0;     // distinct 32-byte sectors
  int lines = 0;       // distinct 128-byte lines
  int bytesUsed = 0;   // distinct words x 4
};

struct CoalescingTotals {
  uint64_t requests = 0, sectors = 0, lines = 0, bytesUsed = 0;
  double sectorsPerRequest() const { return requests ? double(sectors) / double(requests) : 0.0; }
  double efficiency() const { return sectors ? double(bytesUsed) / double(sectors * kSectorBytes) : 0.0; }
  void add(const GlobalRequest& r);
};

struct CoalescingReport {
  CoalescingTotals loads, stores;
  CoalescingTotals loadsM, loadsN;  // the two load instructions of every kernel here
  std::vector<GlobalRequest> requests;  // every request, for the panel
};

// The sector/line footprint of one set of lane addresses (each a 4-byte access).
GlobalRequest measureGlobalRequest(WarpRequest request);

CoalescingReport analyzeCoalescing(const Trace& trace);
// The same from the trace's global requests, already grouped (groupAllWarpRequests).
CoalescingReport analyzeCoalescing(std::vector<WarpRequest> requests);

// The picture of one global request: lanes, addresses, sectors, lines, efficiency.
RequestPicture pictureOf(const GlobalRequest& g);

}  // namespace tilescope
