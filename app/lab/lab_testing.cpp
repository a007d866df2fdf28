// The sandbox tests' entry (lab_testing.h), in a library of its own (tilescope_lab_testing) that
// only tests link: the shipped programs (the CLI, the app, the runner) do not contain it.
#include "lab_testing.h"

#include "lab_child.h"

namespace tilescope::lab {

Result<LabOutcome> runLabWithoutChecksForTesting(const LabRequest& request) {
  return detail::runInChild(request, nullptr, detail::Checks{false, false});
}

}  // namespace tilescope::lab
