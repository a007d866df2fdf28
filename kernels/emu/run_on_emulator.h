// Host-facing entry to the emulator: run one kernel launch on the CPU. The rewritten
// kernels are instantiated in run_on_emulator.cpp, the only file that sees them with the
// emulator's CUDA surface, so no CUDA-like macro reaches the caller.
#pragma once
#include "kernels/launch_params.h"
#include "kernels/trace/trace_sink.h"
#include "kernels/emu/emulator.h"

namespace tilescope {

// Runs L on the emulator. M, N, P hold j*k, k*l and j*l floats. With `sink` the views
// record into its slots; without, they only check bounds. stopAfterBarriers > 0: every block
// only up to its threads' arrival at that barrier (emu::runGrid), P left unfinished.
emu::Report runOnEmulator(const KernelLaunch& L, const float* M, const float* N, float* P, const TraceSink* sink,
                          int stopAfterBarriers = 0);

// Whether the emulator has an instantiation for this kernel and tile width.
bool emulatorSupports(const KernelLaunch& L);

}  // namespace tilescope
