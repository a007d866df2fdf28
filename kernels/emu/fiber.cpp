#include "fiber.h"

#include <cstdint>

namespace tilescope::emu {

#if defined(__x86_64__)

// switch(void** saveSp, void* loadSp): push callee-saved registers and the SSE/x87 control
// words, swap stack pointers, pop the other fiber's and return into it.
extern "C" void tilescopeFiberSwitch(void** saveSp, void* loadSp);
// First code a new fiber runs: entry (in r12) is called with arg (in r13).
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
  auto top = reinterpret_cast<uintptr_t>(stackBase + stackSize) & ~uintptr_t(15);
  // Frame popped by the first switch: control words, r15, r14, r13, r12, rbx, rbp, return
  // address (8 words). After its `ret` the stack pointer is top - 16, 16-byte aligned, so
  // the `call` in tilescopeFiberStart enters entry() with the alignment the ABI requires.
  auto* frame = reinterpret_cast<uint64_t*>(top - 80);
  frame[0] = 0x1F80u | (uint64_t(0x037Fu) << 32);  // default MXCSR and x87 control word
  frame[1] = 0;                                    // r15
  frame[2] = 0;                                    // r14
  frame[3] = reinterpret_cast<uint64_t>(arg);      // r13
  frame[4] = reinterpret_cast<uint64_t>(entry);    // r12
  frame[5] = 0;                                    // rbx
  frame[6] = 0;                                    // rbp
  frame[7] = reinterpret_cast<uint64_t>(&tilescopeFiberStart);
  fiber.stackPointer = frame;
}

void switchFiber(Fiber& from, Fiber& to) { tilescopeFiberSwitch(&from.stackPointer, to.stackPointer); }

#else

namespace {
// makecontext passes only int arguments: the Fiber's address travels as two halves.
void ucontextStart(unsigned lo, unsigned hi) {
  auto* fiber = reinterpret_cast<Fiber*>((uintptr_t(hi) << 32) | uintptr_t(lo));
  fiber->entry(fiber->arg);
}
}  // namespace

void initFiber(Fiber& fiber, char* stackBase, std::size_t stackSize, FiberEntry entry, void* arg) {
  fiber.entry = entry;
  fiber.arg = arg;
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stackBase;
  fiber.context.uc_stack.ss_size = stackSize;
  fiber.context.uc_link = nullptr;
  auto bits = reinterpret_cast<uintptr_t>(&fiber);
  makecontext(&fiber.context, reinterpret_cast<void (*)()>(&ucontextStart), 2, unsigned(bits & 0xffffffffu),
              unsigned(bits >> 32));
}

void switchFiber(Fiber& from, Fiber& to) { swapcontext(&from.context, &to.context); }

#endif

}  // namespace tilescope::emu
