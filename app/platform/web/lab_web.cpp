// The page's lab: the student's kernel runs in the lab's own interpreter (app/lab/interp) inside
// the page, as the desktop's emulator backend runs it; there is no GPU to reach, so the CUDA
// backend and live timing say so in the page's words.
#include "lab/lab.h"
#include "platform/page.h"

namespace tilescope::lab {

Result<LabOutcome> runLab(const LabRequest& q) {
  if (q.backend == LabBackend::Cuda) return unavailable("--backend cuda: " + *platform::gpuUnreachable());
  return runLabInterpreted(q);
}

Result<LabOutcome> timeLab(const LabRequest&, const TimingOptions&) {
  return unavailable(*platform::liveTimingUnavailable());
}

std::string labTimingName(const LabRequest& q) { return q.fileName; }

}  // namespace tilescope::lab
