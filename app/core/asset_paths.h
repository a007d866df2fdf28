// Where the app and the CLI find the data they read at run time (lessons, recorded timings,
// example scripts): relative to the running executable, never through a path compiled in from
// the source tree, so a build tree, an installed prefix and a copy of that prefix moved
// anywhere else all work the same way.
//
// The rule: the nearest of the executable's directory and its ancestors, D, for which
// D/share/tilescope/assets is a directory. Installed, PREFIX/bin/tilescope finds
// PREFIX/share/tilescope/assets (cmake --install puts it there); in a build tree, configure
// links BUILD/share/tilescope/assets to the checkout's assets/, and every program of the build
// (app, CLI, tests) lives below BUILD. $TILESCOPE_ASSETS names the directory instead.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

#include "kernels/result.h"

namespace tilescope {

// "share/tilescope/assets": where cmake --install puts the assets below the prefix.
std::string_view assetsSubdirectory();

// The running program's own file (/proc/self/exe, symbolic links resolved).
Result<std::filesystem::path> executablePath();

// The assets directory for a program at `executable`; `override` (the value of
// $TILESCOPE_ASSETS, or empty) wins when given. The error names every place it looked.
Result<std::filesystem::path> findAssetsDirectory(const std::filesystem::path& executable, std::string_view override);

// The assets directory of this program ($TILESCOPE_ASSETS, else found from executablePath()).
Result<std::filesystem::path> assetsDirectory();

// A file or directory inside it ("lessons", "timings/h100.csv"), which must exist.
Result<std::filesystem::path> assetPath(std::string_view relative);

}  // namespace tilescope
