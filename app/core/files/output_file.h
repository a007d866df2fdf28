// Writing a file the user named without ever emptying it on failure, and without replacing
// what is not a file. Output goes to a staging file beside the name and is renamed into place
// only once complete; a name that exists and is not a regular file (/dev/null, /dev/stdout, a
// fifo, a terminal) is written in place, because renaming over it would swap the device or pipe
// for a plain file (as root, `--out /dev/null` did exactly that to the machine's /dev/null).
#pragma once
#include <string>

#include "kernels/result.h"

namespace tilescope {

// Where to write the bytes meant for `path`: `path + ".tmp"`, or `path` itself when it names
// something other than a regular file.
std::string stagingPathFor(const std::string& path);

// Moves a complete staging file into place (nothing to do when it was written in place).
Status moveIntoPlace(const std::string& staging, const std::string& path);

// Drops an incomplete staging file; never removes `path` itself.
void discardStaging(const std::string& staging, const std::string& path);

}  // namespace tilescope
