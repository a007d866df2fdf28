// Files embedded into the binary at build time (cmake/embed_files.cmake): the GLSL shaders
// and the kernel sources, so the app draws with the shaders it was built with and shows the
// kernel source that actually ran.
#pragma once
#include <optional>
#include <span>
#include <string_view>

namespace tilescope {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository root: "shaders/grid.frag"
  std::string_view text;
};

// Every embedded file (defined in the generated source).
std::span<const EmbeddedFile> embeddedFiles();

// The embedded file at `path`, or nothing.
std::optional<std::string_view> embeddedFile(std::string_view path);

}  // namespace tilescope
