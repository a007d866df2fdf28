// A file embedded into the binary at build time (scripts/cmake/embed_files.cmake).
#pragma once
#include <string_view>

namespace tilescope {

struct EmbeddedFile {
  std::string_view path;  // relative to the repository root: "kernels/book/tiled.cuh"
  std::string_view text;
};

}  // namespace tilescope
