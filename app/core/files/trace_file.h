// Trace files: a Run saved to disk and opened again, so a trace captured on a GPU machine
// replays on a laptop without one (`tilescope-cli save`, `tilescope-cli open`, the app).
//
// Format (version 1, little-endian, extension .tstrace):
//   header   "TSCTRACE" (8 bytes), u32 format version, u32 reserved (0)
//   sections u32 tag, u64 payload length, payload; in any order, each at most once:
//     CONF  the LaunchConfig: kernel by NAME (ids may be renumbered), j k l, tile, block, pad, seed
//     TILE  optional: the ladder's tiling, seven i32 (bm bn bk wm wn tm tn)
//     GRID  optional: a persistent grid, i32 blocks (absent: one block per tile)
//     HOST  backend, device, tool version (strings), wall seconds (f64)
//     MATM, MATN, MATP   rows, cols (i32), rows * cols floats: the inputs and the result
//     TRCE  optional: event count (u64), then 32-byte Events as in kernels/trace/trace_event.h
//     OUTC  out-of-bounds accesses the emulator saw, barrier divergences, trace overflow
//   END      tag "END ", length 4, CRC-32 of every byte before this section
// Unknown sections are skipped, so a later writer may add some without a new version.
//
// The reader trusts nothing: every length is checked against what is left, every count
// against the plan that planLaunch derives from the stored config, every event's
// coordinates against the launch. A malformed, truncated or corrupted file yields an
// Error that says what is wrong and where (byte offset), never a crash. Verification is
// recomputed from M, N and P rather than read.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/result.h"
#include "core/run/run.h"

namespace tilescope {

// Version 2: events are recorded by the views (a boundary fill names no matrix element), and
// an out-of-bounds access keeps the line of its subscript.
inline constexpr uint32_t kTraceFileVersion = 2;
inline constexpr std::string_view kTraceFileExtension = ".tstrace";

struct SavedRun {
  Run run;
  uint32_t formatVersion = 0;
  std::string toolVersion;  // the tilescope that wrote it, e.g. "0.1.0"
};

// The version of this build ("0.1.0"), stored in every file written.
std::string_view toolVersion();

// The file's bytes for `run`, and the run from such bytes (`name` is used in messages).
std::vector<uint8_t> encodeRun(const Run& run);
Result<SavedRun> decodeRun(std::span<const uint8_t> bytes, const std::string& name = "trace file");

// Write atomically (a temporary file renamed into place) / read a whole file.
Status saveRun(const Run& run, const std::string& path);
Result<SavedRun> loadRun(const std::string& path);

// CRC-32 (IEEE 802.3), as stored in the END section.
uint32_t crc32(std::span<const uint8_t> bytes);

}  // namespace tilescope
