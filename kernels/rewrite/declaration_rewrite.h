// The declaration rewrite: plain CUDA in, the same kernel over views out.
//
// Only declarations change; statements, comments and line breaks stay where they were, so
// every __LINE__ and every compiler message points at the line the author wrote.
//   __global__ / __device__ parameters  `const float* __restrict__ M`
//                                        -> `::tilescope::GlobalView<const float> M`
//   `__shared__ float Mds[T][T];`        -> `TILESCOPE_SHARED(float, Mds, 0, [T][T]);`
//   `extern __shared__ float Mds_Nds[];` -> `TILESCOPE_EXTERN_SHARED(float, Mds_Nds, 1);`
//   `__shared__ float sum;`              -> `TILESCOPE_SHARED_SCALAR(float, sum, 2);`
//   a local `float* Nds = Mds_Nds + n;`  -> `auto Nds = ::tilescope::alias(Mds_Nds + n, 3, "Nds");`
//   the opening brace of a __global__ body gains `TILESCOPE_KERNEL_ENTRY(M, N, P)`, which
//   starts the thread's recorder (kernels/trace/traced_surface.h defines the macros).
// Shared arrays and local pointers are numbered in declaration order, per kernel: the
// number the trace knows them by.
//
// The same function serves the build (our kernels, through tilescope-rewrite) and, at run
// time, a student's kernel in the lab. It is a tokenizer, not a C++ parser: declarations
// it does not recognise are left alone (and then fail to compile where they meet a view,
// with the compiler's message at their line).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "kernels/result.h"

namespace tilescope {

struct RewrittenFunction {
  std::string name;
  bool isKernel = false;                    // __global__ (else __device__)
  int line = 0;                             // of its name
  std::vector<std::string> pointerParams;   // in order: M, N, P for a matmul kernel
  std::vector<std::string> sharedArrays;    // shared declarations and local pointers, numbered in order
};

struct RewrittenSource {
  std::string text;
  std::vector<RewrittenFunction> functions;
};

inline constexpr int kMaxSharedDeclarations = 8;

// The rewrite's tokens, for other readers of kernel sources (the lab maps a kernel's
// signature with them): everything outside comments and preprocessor lines; a string or
// character literal is one token; `::` is one token.
enum class TokenKind { Identifier, Number, Literal, Punct };
struct SourceToken {
  TokenKind kind;
  std::string_view text;
  std::size_t offset;
  int line;
};
std::vector<SourceToken> tokenizeSource(std::string_view source);  // = kMaxSharedArrays of the trace sink

// Rewrites `source`; `fileName` only names the file in error messages ("FILE:LINE: ...").
Result<RewrittenSource> rewriteDeclarations(std::string_view source, std::string_view fileName);

}  // namespace tilescope
