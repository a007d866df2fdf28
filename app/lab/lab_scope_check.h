// What may stand at namespace scope in a lab kernel: what NVRTC takes as device code
// (lab_scope_check.cpp). Called by checkStudentSource (lab_source.h) with the tokens it read.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "kernels/rewrite/declaration_rewrite.h"
#include "lab.h"
#include "lab_text_check.h"

namespace tilescope::lab {

// The first host function (`main` included), host variable or initializer that would run
// code when the kernel is loaded, at its line; nothing for a file without a __global__
// function (a fragment, which readKernelSource names better) or with unbalanced brackets
// (the compiler's to report).
std::optional<LabDiagnostic> checkNamespaceScope(const std::vector<SourceToken>& tokens, std::string_view text,
                                                 std::string_view fileName);

// Code inside an #if, #ifdef or #ifndef block, at its line. The lab's checks read the file as
// written, every block of it; the compiler reads only the blocks whose condition holds. So a
// block the compiler skips could hide from the checks what the compiler does see (an `#if 0`
// with one unbalanced '(' in it turned the namespace-scope check off). Blocks may hold
// directives only (`#ifndef TILE_WIDTH` / `#define TILE_WIDTH 16` / `#endif`).
std::optional<LabDiagnostic> checkConditionalCode(const std::vector<PreprocessorToken>& tokens, std::string_view fileName);

// A `__shared__` variable of a type that is not arithmetic (a struct, class or union, or an
// array of one), at its line: the lab records shared memory through views of arithmetic
// elements, and a struct's members would be read and written unseen (no trace, no race check,
// no bank conflicts counted).
std::optional<LabDiagnostic> checkSharedTypes(const std::vector<SourceToken>& tokens, std::string_view text,
                                              std::string_view fileName);

}  // namespace tilescope::lab
