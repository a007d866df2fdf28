// What the lab's GPU translation unit (a student's kernel, compiled by NVRTC at run time),
// tilescope-lab-runner and the interpreter's answer agree on. Compiled by NVRTC at run time and
// by the project's build, so it holds plain data only. The lab writes it, with the view
// headers, into its cache (lab_compile.cpp embeds them).
#pragma once
#include "kernels/trace/trace_sink.h"

namespace tilescope::lab {

inline constexpr int kMaxScalarArgs = 16;

// Everything one emulated thread's call of the kernel needs: the three matrices, the sizes,
// the trace sink and the values of the further scalar parameters, in parameter order.
struct ThreadArgs {
  float* m = nullptr;
  float* n = nullptr;
  float* p = nullptr;
  int j = 0, k = 0, l = 0;
  TraceSink sink;
  double scalars[kMaxScalarArgs] = {};
};

// The further scalar parameters as one GPU kernel parameter (an array is not one).
struct GpuScalars {
  double values[kMaxScalarArgs];
};

// Where the interpreter placed a static __shared__ array: bytes from the start of the block's
// static shared memory, and its declared shape (cols 0 for a one-dimensional array).
struct StaticSharedGeometry {
  int declared = 0;
  long long offset = 0, rows = 0, cols = 0, elementBytes = 0;
};

}  // namespace tilescope::lab
