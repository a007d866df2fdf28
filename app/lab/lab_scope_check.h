// What may stand at namespace scope in a lab kernel: what NVRTC takes as device code
// (lab_scope_check.cpp). Called by checkStudentSource (lab_source.h) with the tokens it read.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "kernels/rewrite/declaration_rewrite.h"
#include "lab.h"

namespace tilescope::lab {

// The first host function (`main` included), host variable or initializer that would run
// code when the kernel is loaded, at its line; nothing for a file without a __global__
// function (a fragment, which readKernelSource names better) or with unbalanced brackets
// (the compiler's to report).
std::optional<LabDiagnostic> checkNamespaceScope(const std::vector<SourceToken>& tokens, std::string_view text,
                                                 std::string_view fileName);

}  // namespace tilescope::lab
