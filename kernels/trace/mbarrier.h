// An mbarrier as the emulator keeps it, in the 8 bytes of shared memory the kernel declared
// for it (`__shared__ uint64_t full[STAGES]`), with the hardware's rules: a phase completes
// when its expected arrivals have all arrived and the transaction bytes announced in it
// (arrive.expect_tx) have all been delivered (by copies' complete_tx); then the next phase
// begins with the arrival count reset. Waiting for parity p returns once the phase of parity
// p has completed: at once on a fresh barrier for p = 1 (its "previous" phase). Plain C++.
#pragma once
#include <cstdint>
#include <cstring>

namespace tilescope::emu {

struct MbarrierState {
  uint16_t expected;  // arrivals a phase needs
  uint16_t pending;   // arrivals still missing in the current phase
  uint32_t phase : 1;
  int32_t tx : 31;    // transaction bytes announced and not yet delivered

  static MbarrierState load(const uint64_t* word) {
    MbarrierState s{};
    std::memcpy(&s, word, sizeof s);
    return s;
  }
  void store(uint64_t* word) const { std::memcpy(word, this, sizeof *this); }
  // Completes the phase when nothing is missing; true when it did.
  bool completeIfDone() {
    if (pending != 0 || tx != 0) return false;
    phase = phase ^ 1u;
    pending = expected;
    return true;
  }
};
static_assert(sizeof(MbarrierState) == sizeof(uint64_t), "an mbarrier is one 64-bit word of shared memory");

inline void mbarrierInit(uint64_t* word, unsigned count) {
  MbarrierState s{};
  s.expected = s.pending = uint16_t(count);
  s.store(word);
}
// One arrival, announcing `bytes` of transactions first; true when it completed the phase.
inline bool mbarrierArrive(uint64_t* word, unsigned bytes) {
  MbarrierState s = MbarrierState::load(word);
  s.tx = s.tx + int32_t(bytes);
  if (s.pending > 0) s.pending = uint16_t(s.pending - 1);
  const bool done = s.completeIfDone();
  s.store(word);
  return done;
}
// A copy's bytes delivered; true when they completed the phase.
inline bool mbarrierCompleteTx(uint64_t* word, unsigned bytes) {
  MbarrierState s = MbarrierState::load(word);
  s.tx = s.tx - int32_t(bytes);
  const bool done = s.completeIfDone();
  s.store(word);
  return done;
}
inline bool mbarrierPhaseDone(const uint64_t* word, unsigned parity) {
  return MbarrierState::load(word).phase != (parity & 1u);
}

}  // namespace tilescope::emu
