// The kernel files as written, embedded at build time: what the Source panel shows and
// what the trace's line numbers refer to. GUI-free, so the CLI and tests read them too.
#pragma once
#include <optional>
#include <span>
#include <string_view>

#include "kernels/catalog.h"
#include "kernels/embedded_file.h"

namespace tilescope {

std::span<const EmbeddedFile> embeddedKernelFiles();  // defined in the generated source

// The source of kernel `id` ("kernels/book/tiled.cuh"), or nothing if it was not embedded.
std::optional<std::string_view> kernelSource(KernelId id);

// The lines of a kernel file the Source panel shows: the kernel, without its facts.
std::string_view kernelBody(std::string_view source);

}  // namespace tilescope
