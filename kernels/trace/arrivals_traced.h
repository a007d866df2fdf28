// Rung 9's flags between blocks over views: the names of copy_engine.h's publishRelease and
// waitAcquire, taking a view's element address (`&flags[i]`), recording one event each, then
// doing it: on the GPU by the same PTX, on the emulator by hand.
//   publishRelease  one write event (value: the value stored, the launch's generation)
//   waitAcquire     one read event once the flag reached `need` (value: what it saw),
//                   however many times the GPU asked before
// The emulator runs blocks one after another in index order, so a wait for an earlier block
// finds its flag set; a kernel that waited for a later block would see the flag short (and
// its sums wrong, which every test of P catches) instead of hanging.
// Include after traced_surface.h, in each translation unit that compiles the traced kernels.
#pragma once
#if !defined(__CUDACC_RTC__)
#include "kernels/trace/views.h"

namespace tilescope {

using FlagAddress = ElementAddress<int, GlobalSite<int>>;

HOST_DEVICE void publishRelease(const FlagAddress& flag, int value) {
  const GlobalSite<int>& c = flag.site;
  c.record(true, float(value));
#if defined(__CUDACC__)
#if defined(__CUDA_ARCH__)  // the device pass; nvcc's host pass never runs it
  ::publishRelease(c.address(true), value);
#endif
#else
  *c.address(true) = value;
#endif
}

HOST_DEVICE void waitAcquire(const FlagAddress& flag, int need) {
  const GlobalSite<int>& c = flag.site;
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

// Rung 9's workspace over memory an executor holds: views in the launch's trace (that of P),
// and the generation this launch publishes in the flags.
struct WorkspaceViews {
  GlobalView<float> partials;
  GlobalView<int> flags;
  int generation = 0;
};
inline WorkspaceViews workspaceOf(const GlobalView<float>& p, float* partials, long long floats, int* flags,
                                  long long flagCount, int generation) {
  const TraceSink& sink = firstSink(p);
  return {GlobalView<float>(partials, floats, MatrixRole::Other, sink),
          GlobalView<int>(flags, flagCount, MatrixRole::Other, sink), generation};
}

}  // namespace tilescope
#endif
