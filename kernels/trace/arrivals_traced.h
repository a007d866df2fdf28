// Rung 9's counters between blocks over views: the names of copy_engine.h's arriveRelease and
// waitAcquire, taking a view's element address (`&arrivals[tile]`), recording one event each,
// then doing it: on the GPU by the same PTX, on the emulator by hand.
//   arriveRelease   one write event (value 1, the count it adds, whatever the count was:
//                   the order in which blocks' threads arrive is the GPU's and not recorded)
//   waitAcquire     one read event once the count reached `need` (value: the count seen),
//                   however many times the GPU asked before
// The emulator runs blocks one after another in index order, so a wait for earlier blocks
// finds them done; a kernel that waited for a later block would see its count short (and its
// sums wrong, which every test of P catches) instead of hanging.
// Include after traced_surface.h, in each translation unit that compiles the traced kernels.
#pragma once
#if !defined(__CUDACC_RTC__)
#include "kernels/trace/views.h"

namespace tilescope {

using CounterAddress = ElementAddress<int, GlobalSite<int>>;

HOST_DEVICE void arriveRelease(const CounterAddress& counter) {
  const GlobalSite<int>& c = counter.site;
  c.record(true, 1.0f);
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::arriveRelease(c.address(true));
#endif
#else
  *c.address(true) += 1;
#endif
}

HOST_DEVICE void waitAcquire(const CounterAddress& counter, int need) {
  const GlobalSite<int>& c = counter.site;
  int seen = need;
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)
  seen = ::waitAcquire(c.address(false), need);
#endif
#else
  seen = *c.address(false);
#endif
  c.record(false, float(seen));
}

// Rung 9's workspace over memory an executor holds: views in the launch's trace (that of P).
struct WorkspaceViews {
  GlobalView<float> partials;
  GlobalView<int> arrivals;
};
inline WorkspaceViews workspaceOf(const GlobalView<float>& p, float* partials, long long floats, int* arrivals,
                                  long long counters) {
  const TraceSink& sink = firstSink(p);
  return {GlobalView<float>(partials, floats, MatrixRole::Other, sink),
          GlobalView<int>(arrivals, counters, MatrixRole::Other, sink)};
}

}  // namespace tilescope
#endif
