// Shared-memory bank conflicts: shared memory is 32 banks, 4 bytes wide; word w (byte
// address / 4) lives in bank w % 32. A warp's request is served in wavefronts: each
// wavefront reads at most one word from each bank, and any number of lanes that ask for
// the same word get it in the same wavefront (broadcast). So
//   wavefronts = max over banks of the distinct words the request touches in that bank,
// at least 1. 1 is conflict-free; n means an n-way conflict. A 128-bit request (float4, the
// ladder's kernels) is served a quarter warp at a time: 8 lanes, 128 bytes, so its minimum
// is one wavefront per quarter that has lanes. Conflicts = wavefronts - that minimum, the
// extra wavefronts (what ncu's l1tex__data_bank_conflicts_* counts).
//
// Source level, like every request here: nvcc may merge four of the k loop's reads of
// Mds[ty][kk..kk+3] into one 128-bit load when T is a compile-time multiple of 4, so the
// SASS of tiled/tiled-bounds has fewer, wider shared loads than the source. tiled-dynamic
// and tiled-transposed (run-time T) keep one 32-bit load per source read, which is where
// the model is checked against ncu (tests/fixtures/ncu).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "warp_requests.h"

namespace tilescope {

inline constexpr int kBanks = 32;
inline constexpr unsigned kBankWidthBytes = 4;

struct SharedRequest {
  WarpRequest request;
  int wavefronts = 1;
  int minimumWavefronts = 1;  // with no conflict: 1, or the quarters of a 128-bit request
  std::array<uint8_t, kBanks> wordsPerBank{};  // distinct words in each bank (the worst quarter's)
};

struct BankTotals {
  uint64_t requests = 0, wavefronts = 0, minimumWavefronts = 0;
  uint64_t conflicts() const { return wavefronts - minimumWavefronts; }
};

// One cell of the heat map: a phase, a tile (M or N), reads or writes, over every block.
struct BankHeat {
  int phase = 0;
  char matrix = 'M';
  bool write = false;
  uint64_t requests = 0, wavefronts = 0;
  std::array<uint64_t, kBanks> words{};    // distinct words per bank, summed over requests
  std::array<uint8_t, kBanks> maxWords{};  // the worst request's count, per bank
};

struct BankReport {
  BankTotals loads, stores;  // loads: the k loop's reads; stores: tile writes and zero fills
  std::vector<SharedRequest> requests;
  std::vector<BankHeat> heat;  // sorted by phase, matrix, write
};

// Wavefronts of one request (32-bit accesses at the given byte addresses).
SharedRequest measureSharedRequest(WarpRequest request);

BankReport analyzeBankConflicts(const Trace& trace);
// The same from the trace's shared requests, already grouped (groupAllWarpRequests).
BankReport analyzeBankConflicts(const Trace& trace, std::vector<WarpRequest> requests);

// The picture of one shared request: lanes stacked in their banks, words per bank, wavefronts.
RequestPicture pictureOf(const SharedRequest& s);

}  // namespace tilescope
