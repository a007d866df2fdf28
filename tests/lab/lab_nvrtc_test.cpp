// The lab's GPU path up to the device: every example, every exercise solution and a kernel that
// takes raw pointers into its matrices (`float* row = &M[...]`) become the GPU translation unit
// the runner compiles, and NVRTC compiles it for sm_90 with the runner's options, traced and
// plain entries both. NVRTC needs no GPU, so this runs wherever the CUDA toolkit is: the
// device's own run (tests/gpu/lab_gpu_test.cpp) is the only other place the headers the lab
// embeds meet NVRTC.
#include <gtest/gtest.h>
#include <nvrtc.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab/lab_compile.h"
#include "lab/lab_source.h"

namespace tilescope::lab {
namespace {

namespace fs = std::filesystem;

// A directory of this test's own (ctest runs the tests in parallel processes).
fs::path workDirectory() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return fs::path(::testing::TempDir()) / (std::string("LabNvrtc_") + test->name());
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// NVRTC's log, empty when the unit compiled.
// The tile sizes the reference's kernels leave to the build (`--define` in the lab), each given
// only where the file has no #define of its own.
std::vector<LabDefine> sizesTheFileLeavesOpen(const std::string& source) {
  std::vector<LabDefine> defines;
  for (const char* name : {"TILE_WIDTH", "TILE_SIZE", "BLOCK_SIZE", "BLOCKSIZE", "TILE", "COARSE_FACTOR", "COARSE"})
    if (source.find(std::string("#define ") + name) == std::string::npos) defines.push_back({name, "4"});
  return defines;
}

std::string compileWithNvrtc(const std::string& fileName, const std::string& source, const fs::path& work) {
  auto kernel = readKernelSource(source, fileName);
  if (!kernel) return "the lab could not read the kernel: " + kernel.error().message;
  auto job = prepareGpuCompile(gpuTranslationUnit(*kernel, source, fileName), sizesTheFileLeavesOpen(source),
                               work / "cache", work);
  if (!job) return "prepareGpuCompile: " + job.error().message;
  const std::string unit = read(job->unitFile);
  nvrtcProgram program = nullptr;
  if (nvrtcCreateProgram(&program, unit.c_str(), job->programName.c_str(), 0, nullptr, nullptr) != NVRTC_SUCCESS)
    return "nvrtcCreateProgram failed";
  std::vector<std::string> options = job->options;
  options.push_back("--gpu-architecture=sm_90");
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult rc = nvrtcCompileProgram(program, int(argv.size()), argv.data());
  std::size_t size = 0;
  nvrtcGetProgramLogSize(program, &size);
  std::string log(size, '\0');
  nvrtcGetProgramLog(program, log.data());
  nvrtcDestroyProgram(&program);
  return rc == NVRTC_SUCCESS ? std::string() : std::string(nvrtcGetErrorString(rc)) + "\n" + log;
}

TEST(LabNvrtc, EveryExampleAndSolutionCompilesForTheGpu) {
  const fs::path work = workDirectory();
  fs::remove_all(work);
  fs::create_directories(work / "cache");
  int compiled = 0;
  for (const char* dir : {TILESCOPE_LAB_EXAMPLES, TILESCOPE_LAB_SOLUTIONS})
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".cu") continue;
      const std::string source = read(e.path());
      if (source.find("__global__") == std::string::npos) continue;  // a fragment: a compile error by design
      auto kernel = readKernelSource(source, e.path().filename().string());
      if (!kernel) continue;  // an example the lab refuses with its line (checked in lab_cli_test)
      SCOPED_TRACE(e.path().string());
      EXPECT_EQ(compileWithNvrtc(e.path().filename().string(), source, work), "");
      ++compiled;
    }
  EXPECT_GE(compiled, 10);
  fs::remove_all(work);
}

// `&M[i]` stays a view on the emulator (kernels/trace/views_global.h); the same text must still be
// CUDA that NVRTC compiles, through a local pointer and a __device__ helper's parameters.
TEST(LabNvrtc, RawPointersIntoTheMatricesCompileForTheGpu) {
  const fs::path work = workDirectory();
  fs::remove_all(work);
  fs::create_directories(work / "cache");
  const std::string source = read(std::string(TILESCOPE_LAB_FIXTURES) + "/raw_pointer.cu");
  EXPECT_EQ(compileWithNvrtc("raw_pointer.cu", source, work), "");
  fs::remove_all(work);
}

}  // namespace
}  // namespace tilescope::lab
