#include "core/run/kernel_resources.h"

#include "kernels/catalog.h"

namespace tilescope {

KernelResources kernelResources(const KernelLaunch& L) {
  KernelResources r;
  r.threadsPerBlock = int(L.blockX * L.blockY);
  // Dynamic kernels ask for their floats at launch (plus what they declare beside them);
  // static ones declare their tiles.
  r.sharedBytesPerBlock = L.dynamicSharedFloats > 0 ? int(L.dynamicSharedFloats * 4 + L.staticSharedBytes)
                                                    : int(kernelSharedTiles(L).bytes);
  r.registersPerThread = kEstimatedRegistersPerThread;
  r.registersSource = "profile estimate: ptxas (CUDA 13.0, sm_80/sm_90) gives 31-32 for every kernel here";
  return r;
}

}  // namespace tilescope
