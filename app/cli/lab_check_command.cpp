#include "commands.h"
namespace tilescope::cli {
int labCheck(const Options&, std::ostream&) { return reportError(invalidInput("not yet")); }
int labExercises(const Options&, std::ostream&) { return reportError(invalidInput("not yet")); }
}  // namespace tilescope::cli
