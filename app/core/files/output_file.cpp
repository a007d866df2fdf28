#include "core/files/output_file.h"

#include <filesystem>
#include <system_error>

namespace tilescope {

namespace fs = std::filesystem;

namespace {
bool isWrittenInPlace(const std::string& path) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // follows links: /dev/stdout is one
  return !ec && fs::exists(status) && !fs::is_regular_file(status);
}
}  // namespace

std::string stagingPathFor(const std::string& path) {
  return isWrittenInPlace(path) ? path : path + ".tmp";
}

Status moveIntoPlace(const std::string& staging, const std::string& path) {
  if (staging == path) return Ok{};
  std::error_code ec;
  fs::rename(staging, path, ec);
  if (!ec) return Ok{};
  fs::remove(staging, ec);
  return failure("cannot move the new file into place as '" + path + "'");
}

void discardStaging(const std::string& staging, const std::string& path) {
  if (staging == path) return;
  std::error_code ec;
  fs::remove(staging, ec);
}

}  // namespace tilescope
