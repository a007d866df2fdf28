// tilescope-cli: the headless front end (list, run, trace, ...). Wiring only.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli_options.h"
#include "commands.h"

using namespace tilescope;
using namespace tilescope::cli;

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto options = parseOptions(args);
  if (!options) return reportError(options.error());
  const Options& o = *options;
  if (o.help || o.command.empty() || o.command == "help") {
    (o.command.empty() && !o.help ? std::cerr : std::cout) << kUsage;
    return o.command.empty() && !o.help ? kExitBadInput : kExitOk;
  }

  std::ofstream file;
  if (!o.out.empty()) {
    file.open(o.out, std::ios::binary);
    if (!file) return reportError(invalidInput("cannot open '" + o.out + "' for writing"));
  }
  std::ostream& out = o.out.empty() ? std::cout : file;

  int code;
  if (o.command == "kernels") code = listKernels(o, out);
  else if (o.command == "run") code = runCommand(o, out);
  else if (o.command == "trace") code = traceCommand(o, out);
  else if (o.command == "demo") code = demoCommand(o, out);
  else if (o.command == "analyze") code = analyzeCommand(o, out);
  else if (o.command == "bench") code = benchCommand(o, out);
  else if (o.command == "bugs") code = bugsCommand(o, out);
  else if (o.command == "save") code = saveCommand(o, out);
  else if (o.command == "open") code = openCommand(o, out);
  else if (o.command == "lessons") code = lessonsCommand(o, out);
  else return reportError(invalidInput("unknown command '" + o.command + "': see tilescope-cli --help"));

  out.flush();
  if (!out) return reportError(failure("writing the output failed" + (o.out.empty() ? "" : " ('" + o.out + "')")));
  return code;
}
