// The GLSL shaders, embedded into the binary at build time (scripts/cmake/embed_files.cmake),
// so the app draws with the shaders it was built with.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "kernels/embedded_file.h"

namespace tilescope {

// Every embedded shader file (defined in the generated source).
std::span<const EmbeddedFile> embeddedShaderFiles();

// The embedded shader at `path` ("shaders/grid.frag"), or nothing.
std::optional<std::string_view> embeddedFile(std::string_view path);

}  // namespace tilescope
