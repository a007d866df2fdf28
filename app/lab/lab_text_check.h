// A student's file read as the preprocessor reads it (lab_text_check.cpp): lines spliced at a
// backslash, comments gone, digraphs seen for what they are, every directive found however it
// is spelt. The declaration rewrite's tokenizer (kernels/rewrite) reads code, not directives,
// and takes text as written: `#/**/include`, `%:include` or a backslash in the middle of a name
// would pass it. Called by checkStudentSource (lab_source.h) before any other check.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lab.h"

namespace tilescope::lab {

// One token after splicing, with the line and column where it starts in the file as written.
struct PreprocessorToken {
  enum class Kind { Identifier, Number, Literal, HeaderName, Punct } kind;
  std::string text;
  int line = 0, column = 0;
  bool inDirective = false;  // part of a # line (the '#' itself included)
};


// The tokens of `text`, or the first thing the lab refuses in its spelling, at its line: an
// #include of anything but the headers NVRTC provides (spelt with a digraph, a comment or a
// continuation too), #include_next, #import, #embed, a computed #include, __has_include, a
// #pragma other than unroll/nounroll/once, _Pragma, a digraph, token pasting (##, which could
// build any name), a line continuation outside a directive, and the macros that tell the GPU's
// compiler from the emulator's (__CUDA_ARCH__, __NVCC__, __CUDACC__, __GNUC__, ...).
struct TextCheck {
  std::vector<PreprocessorToken> tokens;
  std::optional<LabDiagnostic> refused;
};
TextCheck checkPreprocessorText(std::string_view text, std::string_view fileName);

}  // namespace tilescope::lab
