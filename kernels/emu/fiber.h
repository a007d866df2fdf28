// Minimal stackful fibers for the emulator: one per emulated thread of a block, so that a
// thread can stop at __syncthreads() and resume there once its whole block has arrived.
// x86-64 uses a few lines of assembly (a switch saves only callee-saved registers); a web
// page (emscripten, -sASYNCIFY) uses emscripten's fiber API, which unwinds and rewinds the
// WebAssembly stack; other machines fall back to ucontext.
//
// Under AddressSanitizer every switch tells ASan which stack the code now runs on
// (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber): without that, ASan
// takes a fiber's frames for wild accesses far from the thread's stack. A fiber may be
// abandoned (barrier divergence) and its stack handed to a new fiber: initFiber clears the
// poison the old frames left there, so the new fiber never trips over it.
#pragma once
#include <cstddef>

#if defined(__EMSCRIPTEN__)
#include <emscripten/fiber.h>
#elif !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace tilescope::emu {

using FiberEntry = void (*)(void* arg);

struct Fiber {
  // The stack this fiber runs on, [stackBottom, stackBottom + stackSize). initFiber sets it;
  // for the context a thread starts on (runGrid's caller, which enters the scheduler's fiber),
  // which is never given to initFiber, it is filled in under ASan the first time it switches away.
  const void* stackBottom = nullptr;
  std::size_t stackSize = 0;
  void* fakeStack = nullptr;  // ASan's fake stack of this fiber while it is switched out
  FiberEntry entry = nullptr;
  void* arg = nullptr;
#if defined(__EMSCRIPTEN__)
  emscripten_fiber_t context{};
  bool initialised = false;  // given to initFiber (else: the context a thread starts on)
#elif defined(__x86_64__)
  void* stackPointer = nullptr;
#else
  ucontext_t context{};
#endif
};

// Prepares `fiber` to run entry(arg) on the stack [stackBase, stackBase + stackSize) the
// first time it is switched to. `entry` must never return: it switches away at its end.
// `fiber` must stay where it is until it is abandoned (its first switch finds it by address).
void initFiber(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg);

// Saves the running context into `from` and resumes `to`. The first switch of a thread goes
// from its own stack (a Fiber never given to initFiber) to an initialised fiber.
void switchFiber(Fiber& from, Fiber& to);

}  // namespace tilescope::emu
