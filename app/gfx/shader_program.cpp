#include "gfx/shader_program.h"

#include "platform/gl.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "gfx/embedded_files.h"

namespace tilescope::gfx {
namespace {

std::string infoLog(unsigned object, bool isProgram) {
  GLint length = 0;
  if (isProgram) glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length);
  else glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  std::string log(std::size_t(length > 1 ? length : 1), '\0');
  if (isProgram) glGetProgramInfoLog(object, length, nullptr, log.data());
  else glGetShaderInfoLog(object, length, nullptr, log.data());
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

Result<unsigned> compile(GLenum stage, std::string_view name, std::string_view source) {
  const unsigned shader = glCreateShader(stage);
  const std::string full = platform::withGlslHeader(source);  // GLSL ES in a page
  const char* text = full.data();
  const GLint length = GLint(full.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::string message = "compiling " + std::string(name) + " failed:\n" + infoLog(shader, false);
    glDeleteShader(shader);
    return failure(std::move(message));
  }
  return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (id_) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

ShaderProgram::~ShaderProgram() {
  if (id_) glDeleteProgram(id_);
}

int ShaderProgram::uniform(const char* name) const { return glGetUniformLocation(id_, name); }

Result<ShaderProgram> ShaderProgram::build(std::string_view vertexName, std::string_view vertexSource,
                                           std::string_view fragmentName, std::string_view fragmentSource) {
  auto vs = compile(GL_VERTEX_SHADER, vertexName, vertexSource);
  if (!vs) return vs.error();
  auto fs = compile(GL_FRAGMENT_SHADER, fragmentName, fragmentSource);
  if (!fs) {
    glDeleteShader(*vs);
    return fs.error();
  }
  const unsigned program = glCreateProgram();
  glAttachShader(program, *vs);
  glAttachShader(program, *fs);
  glLinkProgram(program);
  // The program keeps the compiled stages; the shader objects can go now.
  glDeleteShader(*vs);
  glDeleteShader(*fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::string message = "linking " + std::string(vertexName) + " + " + std::string(fragmentName) +
                          " failed:\n" + infoLog(program, true);
    glDeleteProgram(program);
    return failure(std::move(message));
  }
  return ShaderProgram(program);
}

Result<std::string> shaderSource(std::string_view path, const std::string& overrideDir) {
  if (!overrideDir.empty()) {
    // Override paths are relative to the shaders directory: "grid.vert".
    std::string name(path);
    if (name.rfind("shaders/", 0) == 0) name = name.substr(8);
    const std::string file = overrideDir + "/" + name;
    std::ifstream in(file, std::ios::binary);
    if (!in) return unavailable("missing shader " + file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  auto embedded = embeddedFile(path);
  if (!embedded) return unavailable("missing shader " + std::string(path) + " (not embedded in this build)");
  return std::string(*embedded);
}

}  // namespace tilescope::gfx
