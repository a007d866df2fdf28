// tilescope-cli's flags, parsed into one struct. Every malformed flag is an error that
// names the flag and the accepted form (exit code 2).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/run/launch_config.h"
#include "core/run/backend.h"
#include "kernels/result.h"

namespace tilescope::cli {

struct Options {
  std::string command;
  LaunchConfig config;
  bool kernelGiven = false, tileGiven = false, blockGiven = false, sizeGiven = false;
  bool padGiven = false, tilingGiven = false, gridBlocksGiven = false, seedGiven = false;
  BackendChoice backend = BackendChoice::Auto;
  bool json = false;
  std::string out;  // empty: standard output
  bool help = false;
  std::vector<std::string> extra;  // command-specific flags, checked by the command
  std::vector<std::string> operands;  // `lab` only: its subcommand and files
};

Result<Options> parseOptions(const std::vector<std::string>& args);

// Parses "12", "33,17,9", "32x8": helpers shared by the commands with flags of their own.
Result<int> parseInt(const std::string& flag, const std::string& text, int min, int max);
// Seconds, more than 0 and at most `max` (the lab's --timeout and --compile-timeout).
Result<double> parseSeconds(const std::string& flag, const std::string& text, double max = 3600.0);
Result<std::vector<int>> parseIntList(const std::string& flag, const std::string& text, char sep, int min, int max);

extern const char* const kUsage;

}  // namespace tilescope::cli
