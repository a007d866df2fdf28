// Minimal stackful fibers for the emulator: one per emulated thread of a block, so that a
// thread can stop at __syncthreads() and resume there once its whole block has arrived.
// x86-64 uses a few lines of assembly (a switch saves only callee-saved registers);
// other machines fall back to ucontext.
#pragma once
#include <cstddef>

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace tilescope::emu {

struct Fiber {
#if defined(__x86_64__)
  void* stackPointer = nullptr;
#else
  ucontext_t context{};
  void (*entry)(void*) = nullptr;
  void* arg = nullptr;
#endif
};

using FiberEntry = void (*)(void* arg);

// Prepares `fiber` to run entry(arg) on the stack [stackBase, stackBase + stackSize) the
// first time it is switched to. `entry` must never return: it switches away at its end.
void initFiber(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg);

// Saves the running context into `from` and resumes `to`.
void switchFiber(Fiber& from, Fiber& to);

}  // namespace tilescope::emu
