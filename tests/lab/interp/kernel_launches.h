// The launch a built-in kernel's Facts make, captured instead of run: its arguments as the
// interpreter takes them, and its template arguments as the Facts' own text writes them.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kernels/launch_params.h"
#include "lab/interp/interp.h"

namespace tilescope::interp {

struct CapturedLaunch {
  std::string problem;  // empty when captured
  std::vector<long long> templateArguments;
  std::vector<Argument> arguments;
  Dim3 grid{1, 1, 1}, block{1, 1, 1};
  std::size_t dynamicSharedBytes = 0;
};

// `facts`: the kernel file's text after its kernel (what kernelBody leaves out).
CapturedLaunch captureLaunch(const KernelLaunch& L, std::string_view facts);

}  // namespace tilescope::interp
