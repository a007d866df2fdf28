#include "asset_paths.h"

#include <cstdlib>
#include <system_error>

// The top-level CMakeLists.txt owns this value: it is also where install() puts the assets
// and where configure links the build tree's copy, so the three cannot disagree.
#ifndef TILESCOPE_ASSETS_SUBDIR
#define TILESCOPE_ASSETS_SUBDIR "share/tilescope/assets"
#endif

namespace tilescope {

namespace fs = std::filesystem;

std::string_view assetsSubdirectory() { return TILESCOPE_ASSETS_SUBDIR; }

Result<fs::path> executablePath() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return unavailable("cannot tell where this program is (/proc/self/exe: " + ec.message() + ")");
  return self;
}

Result<fs::path> findAssetsDirectory(const fs::path& executable, std::string_view override) {
  std::error_code ec;
  if (!override.empty()) {
    const fs::path dir(override);
    if (fs::is_directory(dir, ec)) return dir;
    return unavailable("TILESCOPE_ASSETS=" + std::string(override) + " is not a directory");
  }
  std::string looked;
  const fs::path start = executable.parent_path();
  for (fs::path dir = start; !dir.empty(); dir = dir.parent_path()) {
    const fs::path candidate = dir / fs::path(std::string(assetsSubdirectory()));
    if (fs::is_directory(candidate, ec)) return candidate;
    looked += "\n  " + candidate.string();
    if (dir == dir.root_path()) break;  // parent_path() of "/" is "/" itself
  }
  return unavailable("cannot find tilescope's assets (lessons, recorded timings) for " + executable.string() +
                     "; looked in:" + looked +
                     "\n  install with `cmake --install BUILD --prefix DIR`, or set TILESCOPE_ASSETS=DIR");
}

Result<fs::path> assetsDirectory() {
  const char* env = std::getenv("TILESCOPE_ASSETS");
  const std::string_view override = env ? env : "";
  if (!override.empty()) return findAssetsDirectory({}, override);
  auto self = executablePath();
  if (!self) return self.error();
  return findAssetsDirectory(*self, override);
}

Result<fs::path> assetPath(std::string_view relative) {
  auto dir = assetsDirectory();
  if (!dir) return dir.error();
  fs::path path = *dir / fs::path(std::string(relative));
  std::error_code ec;
  if (!fs::exists(path, ec)) return unavailable(path.string() + " is missing from tilescope's assets");
  return path;
}

}  // namespace tilescope
