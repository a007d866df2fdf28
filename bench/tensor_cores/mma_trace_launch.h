// What both halves of mma_trace.h launch with: the sink a traced launch of L writes into (as
// kernels/catalog.cpp's traceSinkFor makes it; that file holds every kernel, this harness one)
// and the views of M, N and P in it. Include after the traced kernel (namespace TRACE_KERNEL).
#pragma once

namespace tilescope::mma_trace {

template <class Args>
Args tracedLaunchArgs(const KernelLaunch& L, float* M, float* N, float* P, Event* slots, unsigned slotsPerThread,
                      unsigned* overflow) {
  TraceSink sink;
  sink.slots = slots;
  sink.slotsPerThread = slotsPerThread;
  sink.overflow = overflow;
  sink.j = L.j;
  sink.k = L.k;
  sink.l = L.l;
  const auto arrays = TRACE_KERNEL::Facts::arrays(L);
  for (int i = 0; i < kMaxSharedArrays; ++i) sink.shared[i] = arrays[std::size_t(i)];
  return {GlobalView<float>(M, (long long)L.j * L.k, MatrixRole::M, sink),
          GlobalView<float>(N, (long long)L.k * L.l, MatrixRole::N, sink),
          GlobalView<float>(P, (long long)L.j * L.l, MatrixRole::P, sink)};
}

}  // namespace tilescope::mma_trace
