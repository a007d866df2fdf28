// Fixed-width integers for every compiler that builds kernels and the trace records: <cstdint>
// for g++ and nvcc. NVRTC (the lab compiles a student's kernel for the GPU at run time) has
// no host standard headers, so they are declared here for it; memcpy, size_t, printf and
// the math functions NVRTC provides itself.
#pragma once
#if defined(__CUDACC_RTC__)
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
namespace std {
using ::int16_t;
using ::int32_t;
using ::int64_t;
using ::int8_t;
using ::intptr_t;
using ::uint16_t;
using ::uint32_t;
using ::uint64_t;
using ::uint8_t;
using ::uintptr_t;
}  // namespace std
#else
#include <cstdint>
#endif
