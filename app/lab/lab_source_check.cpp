// What the lab refuses before it compiles a student's file (lab_source.h: checkStudentSource).
#include <array>

#include "kernels/rewrite/declaration_rewrite.h"
#include "lab_scope_check.h"
#include "lab_source.h"

namespace tilescope::lab {

namespace {
// What NVRTC gives a kernel without a file system (runner_cuda.cpp's stubs): the CUDA surface
// these name comes from the lab's own headers, so including them changes nothing.
constexpr std::array kAllowedHeaders = {"cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "stdio.h", "cstdio",
                                        "math.h", "cmath", "stdlib.h", "cstdlib"};

std::optional<LabDiagnostic> checkIncludes(std::string_view text, std::string_view fileName) {
  int line = 1;
  for (std::size_t start = 0; start < text.size(); ++line) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view l = text.substr(start, end - start);
    start = end + 1;
    const std::size_t hash = l.find_first_not_of(" \t");
    if (hash == std::string_view::npos || l[hash] != '#') continue;
    const std::size_t word = l.find_first_not_of(" \t", hash + 1);
    if (word == std::string_view::npos || l.substr(word, 7) != "include") continue;
    const std::size_t open = l.find_first_of("<\"", word + 7);
    const std::size_t close = open == std::string_view::npos ? open : l.find_first_of(">\"", open + 1);
    const std::string_view name = close == std::string_view::npos ? std::string_view() : l.substr(open + 1, close - open - 1);
    bool allowed = false;
    for (const char* h : kAllowedHeaders) allowed = allowed || name == h;
    if (!allowed) {
      std::string list;
      for (const char* h : kAllowedHeaders) list += (list.empty() ? "" : ", ") + std::string(h);
      return LabDiagnostic{std::string(fileName), line, int(hash) + 1,
                           "#include of a file the lab does not provide: a lab kernel is device code, as NVRTC "
                           "compiles it, and may include only " + list};
    }
  }
  return std::nullopt;
}

// Names the views and the recorder use inside a traced kernel: a kernel that names them could
// detach or feed the recorder, and so fake what is graded.
bool reservedName(std::string_view id) {
  return id == "tsRecorder" || id.starts_with("tilescope") || id.starts_with("tslab") || id.starts_with("__tilescope") ||
         id.find("TsStorage") != std::string_view::npos || id.find("TsNoted") != std::string_view::npos;
}
bool reservedMember(std::string_view id) {
  return id == "attach" || id == "sink" || id == "site" || id == "recorder" || id == "recorder_";
}
}  // namespace

std::optional<LabDiagnostic> checkStudentSource(std::string_view text, std::string_view fileName) {
  if (auto d = checkIncludes(text, fileName)) return d;
  const std::vector<SourceToken> tokens = tokenizeSource(text);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const SourceToken& t = tokens[i];
    if (t.kind != TokenKind::Identifier) continue;
    const bool member = i > 0 && tokens[i - 1].kind == TokenKind::Punct &&
                        (tokens[i - 1].text == "." || tokens[i - 1].text == "->");
    if (reservedName(t.text) || (member && reservedMember(t.text)))
      return LabDiagnostic{std::string(fileName), t.line, 1,
                           "'" + std::string(t.text) +
                               "' is the lab's own: the views and the recorder that observe a kernel are not the "
                               "kernel's to use (on a GPU they do not exist)"};
  }
  return checkNamespaceScope(tokens, text, fileName);
}

}  // namespace tilescope::lab
