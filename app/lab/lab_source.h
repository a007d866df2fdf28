// What the lab reads from a student's source before compiling it: the kernel's signature
// mapped onto M, N, P and the sizes, the shared arrays and which matrix each holds tiles of,
// and the limits of the rewrite (barriers and shared arrays inside __device__ helpers).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "kernels/result.h"
#include "kernels/trace/trace_sink.h"
#include "lab.h"

namespace tilescope::lab {

struct KernelParam {
  std::string type;  // as written, without __restrict__ ("float*", "const float*", "unsigned")
  std::string name;
  bool pointer = false;
  enum class Role { M, N, P, Width, J, K, L, Arg } role = Role::Arg;
};

// A shared array or a local pointer into one, in the rewrite's numbering (declaration order).
struct LabSharedArray {
  std::string name;
  bool declared = false;     // a __shared__ declaration (else a local pointer into one)
  bool twoDimensional = false;
  bool isExtern = false;
  MatrixRole matrix = MatrixRole::Other;  // which matrix it holds tiles of: what it is loaded from
  bool tileRowIsMatrixRow = false;        // its slot column follows the global column (fig. 5.11)
};

struct LabKernelSource {
  std::string name;
  int line = 0;
  std::vector<KernelParam> params;
  bool widthForm = false;  // `int Width` (else j, k, l)
  std::vector<LabSharedArray> shared;
  std::string rewritten;   // the declaration rewrite's output (no #line)
};

// The accepted forms, for messages.
extern const char* const kAcceptedSignatures;

// Reads the first __global__ function of `source`; refuses a signature the lab cannot map,
// and a __syncthreads() or __shared__ inside a __device__ helper, with FILE:LINE.
Result<LabKernelSource> readKernelSource(std::string_view source, std::string_view fileName);

// The recorder's facts for the kernel's shared arrays; 1-D arrays and pointers into shared
// memory are taken as tiles with rows of `rowStride` elements (the block's width).
TraceSink labTraceSinkFacts(const LabKernelSource& kernel, int rowStride);

// `source` without a leading UTF-8 byte order mark (editors on Windows write one): the lab's
// tokenizer and the unit it generates would otherwise start with three stray bytes.
std::string_view withoutByteOrderMark(std::string_view source);

// `source` with each `#define NAME ...` line whose NAME is given replaced by
// `#define NAME VALUE` (line breaks kept, so every line keeps its number).
std::string applyDefines(std::string_view source, const std::vector<std::pair<std::string, std::string>>& defines);

// The value of `#define NAME VALUE` in `source` when VALUE is a plain integer.
std::optional<int> definedInteger(std::string_view source, std::string_view name);

}  // namespace tilescope::lab
