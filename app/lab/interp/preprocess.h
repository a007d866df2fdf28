// The C preprocessor of the lab's front end: mcpp, as a library, on the student's text.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lab/interp/interp.h"

namespace tilescope::interp {

struct Preprocessed {
  std::string text;             // mcpp's output with its #line lines blanked
  std::vector<int> sourceLine;  // [output line - 1]: the student's line it came from
  std::optional<Diagnostic> error;
  int studentLine(int outputLine) const {
    return outputLine >= 1 && outputLine <= int(sourceLine.size()) ? sourceLine[outputLine - 1] : outputLine;
  }
};

// The lab's `define:` lines arrive as `defines`; __CUDACC__ is defined as nvcc defines it.
// Headers a CUDA file conventionally includes are read as empty; any other #include is an error.
Preprocessed preprocess(std::string_view text, const std::vector<Define>& defines);

}  // namespace tilescope::interp
