#include "kernels/cuda/gpu_code.h"

#include <cuda_runtime_api.h>

#include <sstream>

// From CMake (kernels/cuda/CMakeLists.txt): the architectures, comma-separated, and whether
// this is the no-GPU check-only build.
#ifndef TILESCOPE_CUDA_ARCHS
#define TILESCOPE_CUDA_ARCHS ""
#endif
#ifndef TILESCOPE_CUDA_CHECK_ONLY
#define TILESCOPE_CUDA_CHECK_ONLY 0
#endif

namespace tilescope::cuda {

namespace {
// One entry of CMake's list: "90a-real" -> {90, "a", sass}, "80" -> both.
struct Arch {
  int number = 0;     // 90 for 9.0
  bool specific = false;  // the "a" suffix: that exact capability only
  bool sass = false, ptx = false;
  std::string name;   // "90a"
};

bool parse(const std::string& entry, Arch& a) {
  std::size_t digits = 0;
  while (digits < entry.size() && entry[digits] >= '0' && entry[digits] <= '9') ++digits;
  if (digits == 0) return false;
  a.number = std::stoi(entry.substr(0, digits));
  std::size_t rest = digits;
  if (rest < entry.size() && (entry[rest] == 'a' || entry[rest] == 'f')) a.specific = entry[rest++] == 'a';
  a.name = entry.substr(0, rest);
  const std::string kind = entry.substr(rest);
  a.sass = kind.empty() || kind == "-real";
  a.ptx = kind.empty() || kind == "-virtual";
  return a.sass || a.ptx;
}

// SASS runs on the same major capability at an equal or later minor; PTX on any later
// capability; an arch-specific ("a") target only on its own capability.
bool runs(const Arch& a, int cc, bool asPtx) {
  if (a.specific) return cc == a.number;
  if (asPtx) return cc >= a.number;
  return cc / 10 == a.number / 10 && cc >= a.number;
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}
}  // namespace

GpuCodeTargets builtGpuCode() {
  GpuCodeTargets t;
  std::stringstream list(TILESCOPE_CUDA_ARCHS);
  for (std::string entry; std::getline(list, entry, ',');)
    if (!entry.empty()) t.archs.push_back(entry);
  t.checkOnly = TILESCOPE_CUDA_CHECK_ONLY != 0;
  return t;
}

std::string describeGpuCode(const GpuCodeTargets& t) {
  std::vector<std::string> sass, ptx;
  for (const std::string& entry : t.archs) {
    Arch a;
    if (!parse(entry, a)) return "CUDA architectures '" + entry + "' (as CMake resolves them)";
    if (a.sass) sass.push_back("sm_" + a.name);
    if (a.ptx) ptx.push_back("compute_" + a.name);
  }
  std::string s = sass.empty() ? "no machine code" : "machine code for " + join(sass);
  if (!ptx.empty()) s += "; PTX for " + join(ptx);
  if (t.checkOnly) s += ", device optimiser off (check only: built without a GPU)";
  return s;
}

GpuCodeFit gpuCodeFit(const GpuCodeTargets& t, int major, int minor) {
  const int cc = major * 10 + minor;
  bool ptx = false;
  for (const std::string& entry : t.archs) {
    Arch a;
    if (!parse(entry, a)) return GpuCodeFit::Unknown;
    if (a.sass && runs(a, cc, false) && !t.checkOnly) return GpuCodeFit::MachineCode;
    if (a.ptx && runs(a, cc, true)) ptx = true;
  }
  if (!ptx) return GpuCodeFit::None;
  return t.checkOnly ? GpuCodeFit::CheckOnlyPtx : GpuCodeFit::PtxOnly;
}

std::string archFor(int major, int minor) {
  return std::to_string(major * 10 + minor) + (major == 9 && minor == 0 ? "a" : "");
}

std::string gpuCodeProblem(const GpuCodeTargets& t, int major, int minor, const std::string& gpuName) {
  const std::string gpu = gpuName + " (sm_" + std::to_string(major * 10 + minor) + ")";
  const std::string fix = "; rebuild for it: make run CUDA_ARCHS=" + archFor(major, minor);
  const std::string built = describeGpuCode(t);
  switch (gpuCodeFit(t, major, minor)) {
    case GpuCodeFit::MachineCode:
    case GpuCodeFit::Unknown: return {};
    case GpuCodeFit::PtxOnly:
      return "this build has no machine code for the " + gpu + ", only PTX that the driver compiles at every start (" +
             built + ")" + fix;
    case GpuCodeFit::CheckOnlyPtx:
      return "this build only checked its CUDA code (" + built + "): on the " + gpu +
             " its kernels run unoptimised, compiled by the driver at every start" + fix;
    case GpuCodeFit::None:
      return "this build has no code for the " + gpu + " (" + built + "): no kernel can run on it" + fix;
  }
  return {};
}

std::string gpuCodeProblemHere() {
  int device = 0;
  cudaDeviceProp p{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&p, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  return gpuCodeProblem(builtGpuCode(), p.major, p.minor, p.name);
}

}  // namespace tilescope::cuda
