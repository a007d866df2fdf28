// The confinement of a lab child (the compiler, tilescope-lab-runner): what the kernel of
// this machine offers, and the one function a child calls on itself, after it has opened
// what it needs and before any student code or compiler runs. Linux only; everything it
// does is irreversible for the calling process.
//
//   environment   the parent starts the child with a clean one (childEnvironment)
//   rlimits       address space (the figure the user can raise; none on the GPU runner, whose
//                 driver reserves the GPU's whole address range, nor under ASan, whose shadow
//                 memory is terabytes of reserved address space), CPU time, file size, open
//                 files, no core dumps
//   no new privs  PR_SET_NO_NEW_PRIVS; capabilities dropped when run as root
//   Landlock      read (and for the compiler execute) only the listed paths, write only the
//                 scratch directory; no TCP (ABI >= 4); no signals or abstract sockets
//                 outside the sandbox (ABI >= 6)
//   seccomp       (libseccomp) no new processes (threads only), no exec, no sockets, no
//                 ptrace, no signals to other processes, no mount/namespace/keyring/bpf calls;
//                 the runner dies of SIGSYS at the call, which its handler names
//   lifetime      PR_SET_PDEATHSIG: the child dies with its parent (the compiler's supervisor
//                 gets SIGTERM and kills its whole group, cc1plus included); its own process
//                 group (the parent kills the group on a time-out or an interrupt); no
//                 descriptor above 2 inherited (closed before the sandbox is entered)
//   disk          the emulator's runner makes no directories, each file is capped by
//                 RLIMIT_FSIZE and the lab stops it when its scratch directory outgrows the
//                 launch's prediction (lab_process.h)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/result.h"

namespace tilescope::lab {

// What this machine's kernel can do.
struct SandboxSupport {
  int landlockAbi = 0;   // 0: no Landlock (not built in, or not in the LSM list)
  bool seccomp = false;  // seccomp filters (and libseccomp to build them)
  std::string missing;   // "Landlock", "seccomp" or both, in words; empty when both are there
  bool complete() const { return missing.empty(); }
};
const SandboxSupport& sandboxSupport();  // probed once

enum class SandboxKind {
  Runner,     // the emulator's runner: student code in this process
  GpuRunner,  // NVRTC and the CUDA driver (device files, their ioctls, threads)
  Compiler,   // g++ and what it starts (cc1plus, as, ld): processes and exec allowed
};

struct SandboxLimits {
  uint64_t addressSpaceBytes = 4ull << 30;  // 0: none
  double cpuSeconds = 60.0;
  uint64_t fileSizeBytes = 256ull << 20;
  int openFiles = 64;
};

struct SandboxPolicy {
  SandboxKind kind = SandboxKind::Runner;
  std::vector<std::string> readPaths;    // files or directories, read-only (and executable for the compiler)
  std::vector<std::string> writePaths;   // the scratch directory: read, write, create, remove
  std::vector<std::string> devicePaths;  // GPU: device files, read, write and ioctl
  SandboxLimits limits;
  int parentPid = 0;  // the child exits at once when its parent is no longer this one
};

// Confines the calling process as `policy` says. An Error (with the call that failed) when
// something could not be applied; the caller must then not run the student's code.
Status enterSandbox(const SandboxPolicy& policy);

// The policy as arguments of tilescope-lab-runner (`--sandbox KIND --read P ... --`), and back.
std::vector<std::string> sandboxArguments(const SandboxPolicy& policy);
// Reads the arguments from argv[*index] on, up to and past "--"; sets *index to what follows.
Result<SandboxPolicy> parseSandboxArguments(int argc, char** argv, int* index);

// The clean environment of a child: PATH, LC_ALL=C (the compiler's messages are parsed), TMPDIR
// the scratch directory, and the sanitizers' and CUDA's device selection where set.
std::vector<std::string> childEnvironment(const std::string& scratch);

// One line for the CLI and the Lab tab: "sandboxed: Landlock ABI 7, seccomp, rlimits (4 GiB
// address space, ...), own process group", or why a run was not.
std::string describeSandbox(bool enabled, SandboxKind kind, const SandboxLimits& limits);

// The name of system call `number` on this architecture ("socket"), for the runner's verdict.
std::string syscallName(int number);

}  // namespace tilescope::lab
