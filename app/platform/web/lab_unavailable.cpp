// The page's lab: no compiler, no child processes, no sandbox. What reads a lab file, parses an
// exercise or describes an outcome is the desktop's (app/lab, pure text work); running a kernel
// says, in the page's words, that it needs the desktop app.
#include "lab/lab.h"
#include "platform/page.h"

namespace tilescope::lab {

Result<LabOutcome> runLab(const LabRequest&) { return unavailable(*platform::labUnavailable()); }

Result<LabOutcome> runLabInterpreted(const LabRequest&) { return unavailable(*platform::labUnavailable()); }

Result<LabOutcome> timeLab(const LabRequest&, const TimingOptions&) {
  return unavailable(*platform::liveTimingUnavailable());
}

std::string labTimingName(const LabRequest& q) { return q.fileName; }

}  // namespace tilescope::lab
