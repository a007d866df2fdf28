// A zip archive (PKWARE's APPNOTE, stored entries: no compression) written from files on disk,
// with each file's Unix permissions kept, so that a course platform that unpacks it (Gradescope
// unpacks an autograder's zip into /autograder/source) finds `run_autograder` executable.
// Stored entries need no compression library and a grader's zip is read once per upload.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/result.h"

namespace tilescope::cli {

struct ZipEntry {
  std::filesystem::path file;  // on disk
  std::string name;            // inside the archive, '/'-separated, relative
};

// Writes `entries` into `archive`. An Error names the file that could not be read or written;
// a file of 4 GiB or more is refused (no Zip64 here).
Status writeZip(const std::filesystem::path& archive, const std::vector<ZipEntry>& entries);

// Every regular file below `root`, named relative to it, in a stable (sorted) order.
std::vector<ZipEntry> zipEntriesBelow(const std::filesystem::path& root);

}  // namespace tilescope::cli
