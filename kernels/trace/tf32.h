// TF32 as the tensor cores see it, for the emulator: an FP32 number with 10 of its 23 mantissa
// bits (sign, 8 exponent bits, 10 mantissa bits: 19 bits in the upper part of a 32-bit word).
// Plain C++.
#pragma once
#include <cstdint>
#include <cstring>

namespace tilescope::emu {

inline uint32_t floatBits(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline float bitsFloat(uint32_t b) {
  float x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// cvt.rna.tf32.f32: to the nearest TF32, ties away from zero, the 13 low bits 0. Adding half of
// the dropped part's weight (bit 12) to the magnitude and truncating rounds so, carries into the
// exponent included (the largest floats round to infinity). Infinity stays; NaN stays NaN.
inline float roundToTf32(float x) {
  const uint32_t b = floatBits(x);
  if ((b & 0x7f800000u) == 0x7f800000u) return (b & 0x007fffffu) ? bitsFloat(0x7fffffffu) : x;
  return bitsFloat((b + 0x1000u) & 0xffffe000u);
}

// What a tensor core reads of a .tf32 operand register: its upper 19 bits.
inline float tf32Operand(float x) { return bitsFloat(floatBits(x) & 0xffffe000u); }

}  // namespace tilescope::emu
