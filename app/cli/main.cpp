// tilescope-cli: the headless front end (list, run, trace, ...). Wiring only.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli_options.h"
#include "core/files/output_file.h"
#include "core/files/trace_file.h"
#include "core/run/backend.h"
#include "commands.h"

using namespace tilescope;
using namespace tilescope::cli;

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--version") {  // the build, and which GPUs it has code for
    std::cout << versionText("tilescope-cli", toolVersion());
    return kExitOk;
  }
  auto options = parseOptions(args);
  if (!options) return reportError(options.error());
  const Options& o = *options;
  if (o.help || o.command.empty() || o.command == "help") {
    (o.command.empty() && !o.help ? std::cerr : std::cout) << kUsage;
    return o.command.empty() && !o.help ? kExitBadInput : kExitOk;
  }

  using Command = int (*)(const Options&, std::ostream&);
  const std::pair<const char*, Command> commands[] = {
      {"kernels", listKernels},    {"run", runCommand},   {"trace", traceCommand},  {"demo", demoCommand},
      {"analyze", analyzeCommand}, {"bench", benchCommand}, {"bugs", bugsCommand}, {"save", saveCommand},
      {"open", openCommand},       {"lessons", lessonsCommand}, {"lab", labCommand}};
  Command command = nullptr;
  for (const auto& [name, fn] : commands)
    if (o.command == name) command = fn;
  if (!command) return reportError(invalidInput("unknown command '" + o.command + "': see tilescope-cli --help"));

  // --out goes to a staging file renamed into place only when the command succeeded, so a
  // failed command never empties the file a user named (core/files/output_file.h; /dev/null
  // and other non-files are written in place).
  const std::string temporary = o.out.empty() ? std::string() : stagingPathFor(o.out);
  std::ofstream file;
  if (!o.out.empty()) {
    file.open(temporary, std::ios::binary);
    if (!file) return reportError(invalidInput("cannot open '" + o.out + "' for writing"));
  }
  std::ostream& out = o.out.empty() ? std::cout : file;
  const int code = command(o, out);
  out.flush();
  if (o.out.empty()) {
    if (!out) return reportError(failure("writing the output failed"));
    return code;
  }
  file.close();
  if (!file || (code != kExitOk && code != kExitVerifyFailed)) {
    discardStaging(temporary, o.out);
    return file ? code : reportError(failure("writing the output failed ('" + o.out + "')"));
  }
  if (Status moved = moveIntoPlace(temporary, o.out); !moved) return reportError(moved.error());
  return code;
}
