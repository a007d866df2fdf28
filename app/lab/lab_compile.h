// The GPU's compile of a lab kernel: the unit NVRTC compiles (the kernel as written, and its
// declarations rewritten into views) and the job tilescope-lab-runner (--cuda, --cuda-time) runs with it.
// NVRTC's modules are cached by a hash of everything that went into them (the unit, the
// headers, the options), so running the same kernel again starts at once; concurrent lab runs
// share the cache safely.
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

}  // namespace tilescope::lab
