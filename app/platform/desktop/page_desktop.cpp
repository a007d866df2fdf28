// The desktop has no page: no address, files stay where they were written, every tool runs.
#include "platform/page.h"

namespace tilescope::platform {

void startProcess() {}
std::optional<std::string> pageQuery() { return std::nullopt; }
std::optional<std::string> pageAddressBase() { return std::nullopt; }
void setDownloadsEnabled(bool) {}
void offerDownload(const std::string&) {}
void setOpenFileHandler(std::function<void(const std::string&)>) {}
void setCopyLinkHandler(std::function<void()>) {}
bool copyLink(const std::string&) { return false; }
std::string traceReopening() { return "tilescope --open, here or on a laptop"; }
std::optional<std::string> labUnavailable() { return std::nullopt; }
std::optional<std::string> liveTimingUnavailable() { return std::nullopt; }
std::optional<std::string> gpuUnreachable() { return std::nullopt; }

}  // namespace tilescope::platform
