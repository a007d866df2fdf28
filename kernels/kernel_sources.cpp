#include "kernels/kernel_sources.h"

#include <string>

namespace tilescope {

std::optional<std::string_view> kernelSource(KernelId id) {
  const std::string path = "kernels/" + std::string(kernelInfo(id).sourceFile);
  for (const EmbeddedFile& f : embeddedKernelFiles())
    if (f.path == path) return f.text;
  return std::nullopt;
}

std::string_view kernelBody(std::string_view source) {
  const std::size_t facts = source.find("\n// ---- facts");
  if (facts == std::string_view::npos) return source;
  std::size_t end = facts;
  while (end > 0 && source[end - 1] == '\n') --end;  // no trailing blank lines
  return source.substr(0, end + 1);
}

}  // namespace tilescope
