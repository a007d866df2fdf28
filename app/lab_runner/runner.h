// What the runner's two modes share (runner_main.cpp): the stop file its signal handlers
// write, the time limit, and how it fails.
#pragma once
#include <string>

namespace tilescope::lab::runner {

// Opens STOP_FILE, where a fatal signal or the time limit leaves what happened.
void openStopFile(const char* path);
// Installs the handlers and arms the time limit: at `seconds` the runner writes "timeout"
// (and where, under the emulator) and exits.
void armTimeLimit(double seconds);
void disarmTimeLimit();
// Prints "tilescope-lab-runner: MESSAGE" and returns 2: the parent reports it as an error of
// the lab, not of the kernel.
int fail(const std::string& message);

// tilescope-lab-runner --cuda ... (runner_cuda.cpp; without CUDA a refusal).
int runOnGpu(int argc, char** argv);
// Starts the CUDA driver and the context on device 0 before the sandbox closes: the driver's
// start-up needs a socket the seccomp filter refuses afterwards. No student code has run yet
// (on the GPU none ever runs on the host). A failure is left for runOnGpu to report.
void prepareGpu();

}  // namespace tilescope::lab::runner
