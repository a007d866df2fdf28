// The emulator's half of the lab: the student's kernel, its declarations rewritten into
// views, compiled by the machine's C++ compiler into a shared object that
// tilescope-lab-runner loads. Compiled objects are cached by a hash of everything that went
// into them (the generated text, the headers, the compiler and its flags), so running the
// same kernel again starts at once; concurrent lab runs share the cache safely.
#pragma once
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "kernels/result.h"
#include "lab.h"
#include "lab_cache.h"
#include "lab_diagnostics.h"  // parseDiagnostics: the compiler's messages at the student's line
#include "lab_source.h"


namespace tilescope::lab {

// The translation unit for `kernel` (its rewritten text under #line `fileName`): the
// emulator's CUDA surface, the views, the kernel in a namespace of its own, and the entry
// points of lab_abi.h.
std::string emulatorTranslationUnit(const LabKernelSource& kernel, std::string_view fileName);

// The translation unit NVRTC compiles for the GPU: the kernel as written (`plainSource`,
// compiled only for its register count) and its rewritten text, both under #line `fileName`
// with __global__ made __device__, and two __global__ entries taking ThreadArgs' fields
// (m, n, p, j, k, l, sink, then the scalars as GpuScalars):
// kGpuTracedEntryName (the traced kernel, launched) and kGpuPlainEntryName (queried only).
std::string gpuTranslationUnit(const LabKernelSource& kernel, std::string_view plainSource, std::string_view fileName);
inline constexpr const char* kGpuTracedEntryName = "tilescopeLabTraced";
inline constexpr const char* kGpuPlainEntryName = "tilescopeLabPlain";

// What tilescope-lab-runner --cuda needs to compile a unit with NVRTC: the unit written into
// the cache, the cache's name for the compiled module (the runner appends the architecture),
// and NVRTC's options (the embedded headers, the defines, the language).
// The runner never writes the cache: it compiles in its scratch directory, where the lab has
// copied the cache's checked entries for the unit (CACHE/gpu-HASH-*) beforehand and from
// where it stores new ones afterwards.
struct GpuCompileJob {
  std::filesystem::path unitFile;   // SCRATCH/unit.cu
  std::filesystem::path cubinStem;  // SCRATCH/gpu-HASH: the runner adds "-sm_XY-nvrtcV.cubin"
  std::filesystem::path cacheStem;  // CACHE/gpu-HASH
  std::filesystem::path include;    // the lab's headers, which the runner reads
  // What NVRTC is told the unit is called: a file in the header directory. NVRTC looks for a
  // quoted #include in the directory of the program's name first; a bare name would make that
  // the working directory, and run from tilescope's source tree its kernels/ headers would
  // then be included beside the embedded copies (every type defined twice).
  std::filesystem::path programName;
  std::vector<std::string> options;
};
Result<GpuCompileJob> prepareGpuCompile(const std::string& unit, const std::vector<LabDefine>& defines,
                                        const std::filesystem::path& cacheDir, const std::filesystem::path& scratch);

struct CompileResult {
  bool ok = false;
  std::filesystem::path object;             // the shared object, when ok
  std::vector<LabDiagnostic> diagnostics;   // when not
  std::string output;
  bool cached = false;
  double seconds = 0.0;
};

// The C++ compiler: $TILESCOPE_LAB_CXX, else c++, g++ or clang++ on $PATH.
Result<std::filesystem::path> findCompiler();

struct CompileOptions {
  std::filesystem::path runner;  // tilescope-lab-runner: it confines the compiler (lab_sandbox.h)
  bool sandbox = true;
  double timeoutSeconds = kDefaultCompileSeconds;
  const std::atomic<bool>* cancel = nullptr;
  uint64_t memoryLimitBytes = kDefaultMemoryLimitBytes;  // the compiler's address space (--memory-limit)
  // The object's imports checked (lab_imports.h); off only for the sandbox's tests (lab_testing.h).
  bool checkImports = true;
};

// Compiles `unit` with `defines` into a cached shared object. An Error when no compiler could
// be run; a compiler that rejects the kernel, or runs past the time limit, is a result with
// diagnostics.
Result<CompileResult> compileForEmulator(const std::string& unit, std::string_view fileName,
                                         const std::vector<LabDefine>& defines, const std::filesystem::path& cacheDir,
                                         const CompileOptions& options);

}  // namespace tilescope::lab
