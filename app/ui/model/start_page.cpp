#include "ui/model/start_page.h"

#include <algorithm>

#include "kernels/catalog.h"

namespace tilescope::ui {

int ladderRungs() {
  int rungs = 0;
  for (const KernelInfo& k : kKernels) rungs = std::max(rungs, k.ladderRung);
  return rungs;
}

StartPage startPage() {
  StartPage p;
  p.lesson = "1";
  p.button = "Start here: lesson 1";
  p.intro = "The first lessons follow chapter 5: memory types, the naive kernel's traffic, tiling and phases, the "
            "two barriers, boundary checks, dynamic shared memory, occupancy, coalescing. Then the ladder climbs "
            "from the chapter's tiled kernel to cuBLAS in " +
            std::to_string(ladderRungs()) +
            " rungs, one idea each. Each page sets up the views it talks about.";
  return p;
}

}  // namespace tilescope::ui
