#include "kernels/emu/fiber.h"

#include <cstdint>

#if defined(__SANITIZE_ADDRESS__)  // g++
#define TILESCOPE_FIBER_ASAN 1
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
#define TILESCOPE_FIBER_ASAN 1
#endif
#endif

#if defined(TILESCOPE_FIBER_ASAN)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace tilescope::emu {

namespace {

#if defined(TILESCOPE_FIBER_ASAN)
// The fiber a switch leaves, for the code that runs first on the other side: one OS thread
// runs one fiber at a time, so a thread-local is enough.
thread_local Fiber* switchingFrom = nullptr;

// Before the stack changes: ASan saves the leaving fiber's fake stack and learns the bounds
// of the stack it is about to run on.
void beforeSwitch(Fiber& from, Fiber& to) {
  switchingFrom = &from;
  __sanitizer_start_switch_fiber(&from.fakeStack, to.stackBottom, to.stackSize);
}

// First thing on the new stack, with the fake stack this fiber saved when it left (none on
// its first entry). ASan reports the bounds of the stack just left: that is how the
// scheduler's stack, which initFiber never saw, gets its bounds for the switches back to it.
void afterSwitch(void* fakeStack) {
  const void* oldBottom = nullptr;
  std::size_t oldSize = 0;
  __sanitizer_finish_switch_fiber(fakeStack, &oldBottom, &oldSize);
  if (switchingFrom && !switchingFrom->stackBottom) {
    switchingFrom->stackBottom = oldBottom;
    switchingFrom->stackSize = oldSize;
  }
}

// A stack handed to a new fiber may still carry the poisoned redzones of frames that never
// returned: an abandoned fiber's kernel frames, or the last switch of a fiber that ended.
void clearStackPoison(char* stackBase, std::size_t stackSize) { ASAN_UNPOISON_MEMORY_REGION(stackBase, stackSize); }
#else
void beforeSwitch(Fiber&, Fiber&) {}
void afterSwitch(void*) {}
void clearStackPoison(char*, std::size_t) {}
#endif

// Where every fiber starts: finish the switch that brought it here, then run its entry.
void fiberMain(void* fiberAddress) {
  afterSwitch(nullptr);
  auto* fiber = static_cast<Fiber*>(fiberAddress);
  fiber->entry(fiber->arg);
  __builtin_trap();  // entry() switches away at its end and is never resumed
}

void recordStack(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg) {
  clearStackPoison(stackBase, stackSize);
  fiber.stackBottom = stackBase;
  fiber.stackSize = stackSize;
  fiber.fakeStack = nullptr;
  fiber.entry = entry;
  fiber.arg = arg;
}

}  // namespace

#if defined(__EMSCRIPTEN__)

namespace {
// Asyncify saves the unwound WebAssembly frames of a fiber that is switched out: a fiber's own
// part of its stack holds its frames (a kernel's, or the scheduler's); the thread's own context
// (runGrid's caller, under the page's frame loop and the app) gets a larger buffer of its own.
constexpr std::size_t kAsyncifyBytes = 16 * 1024;
constexpr std::size_t kThreadContextAsyncifyBytes = 256 * 1024;
alignas(16) char threadContextAsyncify[kThreadContextAsyncifyBytes];

void emscriptenStart(void* fiber) { fiberMain(fiber); }
}  // namespace

void initFiber(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg) {
  recordStack(fiber, stackBase, stackSize, entry, arg);
  // [stackBase, +kAsyncifyBytes): asyncify's saved frames; the rest: the C stack.
  emscripten_fiber_init(&fiber.context, &emscriptenStart, &fiber, stackBase + kAsyncifyBytes,
                        stackSize - kAsyncifyBytes, stackBase, kAsyncifyBytes);
  fiber.initialised = true;
}

void switchFiber(Fiber& from, Fiber& to) {
  // The page's one thread leaves its own context (runGrid entering the scheduler's fiber): its
  // frames are saved in this buffer (only one such context is switched out at a time).
  if (!from.initialised) emscripten_fiber_init_from_current_context(&from.context, threadContextAsyncify, kThreadContextAsyncifyBytes);
  emscripten_fiber_swap(&from.context, &to.context);
}

#elif defined(__x86_64__)

// switch(void** saveSp, void* loadSp): push callee-saved registers and the SSE/x87 control
// words, swap stack pointers, pop the other fiber's and return into it.
extern "C" void tilescopeFiberSwitch(void** saveSp, void* loadSp);
// First code a new fiber runs: fiberMain (in r12) is called with the Fiber (in r13).
extern "C" void tilescopeFiberStart();

asm(R"(
    .text
    .globl tilescopeFiberSwitch
    .type tilescopeFiberSwitch,@function
tilescopeFiberSwitch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size tilescopeFiberSwitch,.-tilescopeFiberSwitch

    .globl tilescopeFiberStart
    .type tilescopeFiberStart,@function
tilescopeFiberStart:
    movq %r13, %rdi
    callq *%r12
    ud2
    .size tilescopeFiberStart,.-tilescopeFiberStart
    .section .note.GNU-stack,"",@progbits
    .text
)");

void initFiber(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg) {
  recordStack(fiber, stackBase, stackSize, entry, arg);
  auto top = reinterpret_cast<uintptr_t>(stackBase + stackSize) & ~uintptr_t(15);
  // Frame popped by the first switch: control words, r15, r14, r13, r12, rbx, rbp, return
  // address (8 words). After its `ret` the stack pointer is top - 16, 16-byte aligned, so
  // the `call` in tilescopeFiberStart enters fiberMain() with the alignment the ABI requires.
  auto* frame = reinterpret_cast<uint64_t*>(top - 80);
  frame[0] = 0x1F80u | (uint64_t(0x037Fu) << 32);     // default MXCSR and x87 control word
  frame[1] = 0;                                       // r15
  frame[2] = 0;                                       // r14
  frame[3] = reinterpret_cast<uint64_t>(&fiber);      // r13
  frame[4] = reinterpret_cast<uint64_t>(&fiberMain);  // r12
  frame[5] = 0;                                       // rbx
  frame[6] = 0;                                       // rbp
  frame[7] = reinterpret_cast<uint64_t>(&tilescopeFiberStart);
  fiber.stackPointer = frame;
}

void switchFiber(Fiber& from, Fiber& to) {
  beforeSwitch(from, to);
  tilescopeFiberSwitch(&from.stackPointer, to.stackPointer);
  afterSwitch(from.fakeStack);  // resumed: someone switched back to `from`
}

#else

namespace {
// makecontext passes only int arguments: the Fiber's address travels as two halves.
void ucontextStart(unsigned lo, unsigned hi) {
  fiberMain(reinterpret_cast<Fiber*>((uintptr_t(hi) << 32) | uintptr_t(lo)));
}
}  // namespace

void initFiber(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg) {
  recordStack(fiber, stackBase, stackSize, entry, arg);
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stackBase;
  fiber.context.uc_stack.ss_size = stackSize;
  fiber.context.uc_link = nullptr;
  auto bits = reinterpret_cast<uintptr_t>(&fiber);
  makecontext(&fiber.context, reinterpret_cast<void (*)()>(&ucontextStart), 2, unsigned(bits & 0xffffffffu),
              unsigned(bits >> 32));
}

void switchFiber(Fiber& from, Fiber& to) {
  beforeSwitch(from, to);
  swapcontext(&from.context, &to.context);
  afterSwitch(from.fakeStack);
}

#endif

}  // namespace tilescope::emu
