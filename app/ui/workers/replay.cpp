#include "ui/workers/replay.h"

#include <chrono>
#include <ctime>
#include <filesystem>

#include "core/files/trace_file.h"
#include "ui/workers/run_worker.h"

namespace tilescope::ui {
namespace {

std::string modifiedDate(const std::string& path) {
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(path, ec);
  if (ec) return {};
  using std::chrono::system_clock;
  // Through both clocks' now() rather than file_clock::to_sys, which the page's libc++ lacks:
  // the date is shown to the minute.
  const auto sinceWritten = std::chrono::file_clock::now() - written;
  const std::time_t t = system_clock::to_time_t(
      system_clock::now() - std::chrono::duration_cast<system_clock::duration>(sinceWritten));
  std::tm local{};
  if (!localtime_r(&t, &local)) return {};
  char text[32];
  return std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local) ? std::string(text) : std::string();
}

}  // namespace

Result<OpenedTrace> openTraceFile(const std::string& path) {
  auto saved = loadRun(path);
  if (!saved) return saved.error();
  // The format allows a file without a trace; the app has nothing to animate in one.
  if (!saved->run.trace)
    return invalidInput(path + ": the file holds no trace to replay (tilescope-cli open --file " + path +
                        " summarises it)");
  const uint64_t events = saved->run.trace->events.size();
  if (events > kAppMaxTraceEvents)
    return invalidInput(path + ": the trace holds " + std::to_string(events >> 20) + " Mi events; the app animates up to " +
                        std::to_string(kAppMaxTraceEvents >> 20) + " Mi (tilescope-cli open --file " + path +
                        " summarises it)");
  OpenedTrace opened{std::move(saved->run), {path, std::move(saved->toolVersion), saved->formatVersion, {}}};
  opened.info.savedAt = modifiedDate(path);
  return opened;
}

std::string replayLabel(const ReplayInfo& info, const Run& run) {
  std::string label = "replaying " + info.file + ": recorded on " + run.device + " (" + run.backend + ")";
  if (!info.savedAt.empty()) label += ", " + info.savedAt;
  return label + ", tilescope " + info.toolVersion;
}

}  // namespace tilescope::ui
