#include "core/run/kernel_resources.h"

#include <string>

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
  const int accumulators = L.tiling.tm * L.tiling.tn;
  r.registersSource = accumulators > kEstimatedRegistersPerThread
                          ? "an estimate, too low for this kernel: its register tile alone holds " +
                                std::to_string(accumulators) + " sums a thread (TM x TN = " +
                                std::to_string(L.tiling.tm) + " x " + std::to_string(L.tiling.tn) +
                                "); a GPU run reads ptxas's count"
                          : "profile estimate: ptxas (CUDA 13.0, sm_80/sm_90) gives 31-32 for the chapter's kernels";
  return r;
}

}  // namespace tilescope
