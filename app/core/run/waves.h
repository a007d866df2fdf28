// Waves: how the grid as a whole is dealt onto the device, the one picture the chapter's
// per-block figures do not give. The block scheduler keeps every SM filled with as many
// blocks as the kernel's resources allow (the occupancy model's blocks per SM); a launch of
// more blocks than that runs in waves, and the last, partial wave leaves SMs idle while it
// decides the run's end. At N = 1024 with 128 x 256 tiles, 32 blocks meet 132 SMs: one wave
// with 100 SMs idle from start to end.
//
//   slots per wave   = SMs x blocks per SM
//   waves            = blocks / slots per wave            (3.88 for 512 blocks on 132 x 1)
//   full waves       = floor(waves); the last wave holds blocks - full waves x slots
//   last wave busy   = blocks in the last wave / slots per wave
//
// Which block lands on which SM is the hardware's choice and not observable from a trace; the
// picture deals blocks in launch order (block i of wave w to SM i mod SMs), which gives the
// same counts per wave as any order does.
#pragma once
#include <cstdint>
#include <string>

namespace tilescope {

struct Waves {
  int64_t blocks = 0;
  int smCount = 0;
  int blocksPerSm = 0;      // 0: the block cannot run on the device at all
  int64_t slotsPerWave = 0;
  double waves = 0.0;       // blocks / slots per wave
  int64_t wholeWaves = 0;   // waves that fill every slot
  int64_t lastWaveBlocks = 0;   // blocks of the last wave (a whole wave's count when none is partial)
  double lastWaveBusy = 0.0;    // the last wave's blocks / slots per wave
  int idleSmsInLastWave = 0;    // SMs with no block at all in the last wave
  int64_t waveCount() const { return blocks == 0 || slotsPerWave == 0 ? 0 : (blocks + slotsPerWave - 1) / slotsPerWave; }
  // Block i's wave and SM in the picture's launch-order dealing.
  int64_t waveOf(int64_t block) const { return block / slotsPerWave; }
  int smOf(int64_t block) const { return int((block % slotsPerWave) % smCount); }
};

// `blocks` blocks of a kernel that fits `blocksPerSm` at once on each of `smCount` SMs.
Waves dealBlocks(int64_t blocks, int smCount, int blocksPerSm);

// The figures in words: "32 blocks on 132 SMs at 1 block per SM (132 per wave): one partial
// wave, 24 % busy, 100 SMs idle for the whole run"; "... 3.88 waves, 4 in all; the last 88 %
// busy, 16 SMs idle in it".
std::string describeWaves(const Waves& w);

}  // namespace tilescope
