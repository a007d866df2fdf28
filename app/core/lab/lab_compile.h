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
struct GpuCompileJob {
  std::filesystem::path unitFile;   // the caller removes it after the run
  std::filesystem::path cubinStem;  // CACHE/gpu-HASH: the runner adds "-sm_XY.cubin"
  // What NVRTC is told the unit is called: a file in the header directory. NVRTC looks for a
  // quoted #include in the directory of the program's name first; a bare name would make that
  // the working directory, and run from tilescope's source tree its kernels/ headers would
  // then be included beside the embedded copies (every type defined twice).
  std::filesystem::path programName;
  std::vector<std::string> options;
};
Result<GpuCompileJob> prepareGpuCompile(const std::string& unit, const std::vector<LabDefine>& defines,
                                        const std::filesystem::path& cacheDir);

struct CompileResult {
  bool ok = false;
  std::filesystem::path object;             // the shared object, when ok
  std::vector<LabDiagnostic> diagnostics;   // when not
  std::string output;
  bool cached = false;
  double seconds = 0.0;
};

// The cache directory of `request` (created), or why there is none.
Result<std::filesystem::path> labCacheDirectory(const std::string& requested);

// The C++ compiler: $TILESCOPE_LAB_CXX, else c++, g++ or clang++ on $PATH.
Result<std::filesystem::path> findCompiler();

// Compiles `unit` with `defines` into a cached shared object. An Error when no compiler could
// be run; a compiler that rejects the kernel is a result with diagnostics.
Result<CompileResult> compileForEmulator(const std::string& unit, std::string_view fileName,
                                         const std::vector<LabDefine>& defines, const std::filesystem::path& cacheDir,
                                         const std::atomic<bool>* cancel);

// `FILE:LINE:COL: error: MESSAGE` lines of a compiler's output (and NVRTC's
// `FILE(LINE): error: MESSAGE`), each once; those in `fileName` first,
// and where an error lies in a header, the line of `fileName` the compiler names with it.
std::vector<LabDiagnostic> parseDiagnostics(std::string_view output, std::string_view fileName);

}  // namespace tilescope::lab
