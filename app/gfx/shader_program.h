// A linked GLSL program. Compile and link failures come back as values carrying the
// driver's info log, named by the shader file they came from.
#pragma once
#include <string>
#include <string_view>

#include "kernels/result.h"

namespace tilescope::gfx {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  ~ShaderProgram();

  // `vertexName`/`fragmentName` only label the error messages.
  static Result<ShaderProgram> build(std::string_view vertexName, std::string_view vertexSource,
                                     std::string_view fragmentName, std::string_view fragmentSource);

  unsigned id() const { return id_; }
  // -1 when the uniform does not exist or was optimised away (GL ignores sets to -1).
  int uniform(const char* name) const;

 private:
  explicit ShaderProgram(unsigned id) : id_(id) {}
  unsigned id_ = 0;
};

// A shader's source: from `overrideDir`/<path> when a directory is given (to edit shaders
// without rebuilding), else the copy embedded at build time.
Result<std::string> shaderSource(std::string_view path, const std::string& overrideDir);

}  // namespace tilescope::gfx
