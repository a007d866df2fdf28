#include "gfx/grid_renderer.h"

#include "platform/gl.h"

#include <cstddef>
#include <utility>

#include "gfx/gl_context.h"
#include "platform/shown_picture.h"

namespace tilescope::gfx {
namespace {

void unpack(Rgba c, float out[4]) {
  for (int i = 0; i < 4; ++i) out[i] = float((c >> (8 * i)) & 0xffu) / 255.0f;
}

// Saves and restores the state the grid pass changes, so ImGui's own GL backend (and any
// other pass) finds the context as it left it.
struct SavedState {
  GLint framebuffer = 0, program = 0, vao = 0, arrayBuffer = 0, viewport[4] = {};
  GLboolean scissor = GL_FALSE, blend = GL_FALSE, depth = GL_FALSE, cull = GL_FALSE;
  SavedState() {
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &arrayBuffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
    scissor = glIsEnabled(GL_SCISSOR_TEST);
    blend = glIsEnabled(GL_BLEND);
    depth = glIsEnabled(GL_DEPTH_TEST);
    cull = glIsEnabled(GL_CULL_FACE);
  }
  ~SavedState() {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(framebuffer));
    glUseProgram(GLuint(program));
    glBindVertexArray(GLuint(vao));
    glBindBuffer(GL_ARRAY_BUFFER, GLuint(arrayBuffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
    set(GL_SCISSOR_TEST, scissor);
    set(GL_BLEND, blend);
    set(GL_DEPTH_TEST, depth);
    set(GL_CULL_FACE, cull);
  }
};

Status resize(GridCanvas& canvas, unsigned& framebuffer, unsigned& texture, int width, int height) {
  if (!texture) glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  // Nearest: the canvas is drawn 1:1 with screen pixels, so filtering would only blur.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  if (!framebuffer) glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  // Asked in the checked mode only (gl_context.h): the query waits for the GPU like glGetError,
  // half a second of a page's start on a software rasteriser (a canvas is made as its panel
  // first draws), and a single RGBA8 colour texture is a complete framebuffer in GL 3.3 and
  // OpenGL ES 3.0 alike, a required colour-renderable format of both.
  if (glChecksOn() && glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    return failure("grid canvas framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                   " is incomplete");
  return Ok{};
}

}  // namespace

GridCanvas::~GridCanvas() {
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_) glDeleteTextures(1, &texture_);
}

GridRenderer::GridRenderer(GridRenderer&& o) noexcept { *this = std::move(o); }

GridRenderer& GridRenderer::operator=(GridRenderer&& o) noexcept {
  if (this == &o) return *this;
  instanced_ = std::move(o.instanced_);
  textured_ = std::move(o.textured_);
  instancedU_ = o.instancedU_;
  texturedU_ = o.texturedU_;
  vao_ = std::exchange(o.vao_, 0);
  instances_ = std::exchange(o.instances_, 0);
  quadVao_ = std::exchange(o.quadVao_, 0);
  cellTexture_ = std::exchange(o.cellTexture_, 0);
  draws_ = o.draws_;
  return *this;
}

GridRenderer::~GridRenderer() {
  if (instances_) glDeleteBuffers(1, &instances_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (quadVao_) glDeleteVertexArrays(1, &quadVao_);
  if (cellTexture_) glDeleteTextures(1, &cellTexture_);
}

GridRenderer::Uniforms GridRenderer::locate(const ShaderProgram& p) {
  Uniforms u;
  u.cols = p.uniform("uCols");
  u.canvas = p.uniform("uCanvas");
  u.origin = p.uniform("uOrigin");
  u.cell = p.uniform("uCell");
  u.outline = p.uniform("uOutlinePx");
  u.highlight = p.uniform("uHighlightPx");
  u.mark = p.uniform("uMark");
  u.ringEdge = p.uniform("uRingEdge");
  u.extent = p.uniform("uExtent");
  u.cells = p.uniform("uCells");
  return u;
}

namespace {

// The fragment stages share grid_cell.glsl: it goes right after their #version line.
Result<ShaderProgram> buildGridProgram(const char* vertPath, const char* fragPath, const std::string& common,
                                       const std::string& shaderDir) {
  auto vs = shaderSource(vertPath, shaderDir);
  if (!vs) return vs.error();
  auto fs = shaderSource(fragPath, shaderDir);
  if (!fs) return fs.error();
  std::string frag = *fs;
  const auto eol = frag.find('\n');
  frag.insert(eol == std::string::npos ? frag.size() : eol + 1, common + "\n#line 2\n");
  return ShaderProgram::build(vertPath, *vs, fragPath, frag);
}

}  // namespace

Result<GridRenderer> GridRenderer::create(const std::string& shaderDir) {
  auto common = shaderSource("shaders/grid_cell.glsl", shaderDir);
  if (!common) return common.error();
  auto instanced = buildGridProgram("shaders/grid.vert", "shaders/grid.frag", *common, shaderDir);
  if (!instanced) return instanced.error();
  auto textured = buildGridProgram("shaders/grid_texture.vert", "shaders/grid_texture.frag", *common, shaderDir);
  if (!textured) return textured.error();

  GridRenderer r;
  r.instanced_ = std::move(*instanced);
  r.textured_ = std::move(*textured);
  r.instancedU_ = locate(r.instanced_);
  r.texturedU_ = locate(r.textured_);

  GLint savedVao = 0, savedBuffer = 0, savedTexture = 0;
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &savedVao);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &savedBuffer);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &savedTexture);
  glGenVertexArrays(1, &r.quadVao_);  // the texture path has no attributes, but core GL wants a VAO
  glGenVertexArrays(1, &r.vao_);
  glGenBuffers(1, &r.instances_);
  glBindVertexArray(r.vao_);
  glBindBuffer(GL_ARRAY_BUFFER, r.instances_);
  const GLsizei stride = sizeof(CellStyle);
  for (GLuint a = 0; a < 3; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribPointer(a, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          reinterpret_cast<const void*>(std::size_t(a) * sizeof(Rgba)));
    glVertexAttribDivisor(a, 1);
  }
  glEnableVertexAttribArray(3);
  glVertexAttribIPointer(3, 1, GL_UNSIGNED_INT, stride, reinterpret_cast<const void*>(offsetof(CellStyle, marks)));
  glVertexAttribDivisor(3, 1);
  glGenTextures(1, &r.cellTexture_);
  glBindTexture(GL_TEXTURE_2D, r.cellTexture_);
  // Integer textures must not be filtered.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, GLuint(savedTexture));
  glBindVertexArray(GLuint(savedVao));
  glBindBuffer(GL_ARRAY_BUFFER, GLuint(savedBuffer));
  if (auto e = takeGlError("creating the grid renderer"); !e.empty()) return failure(e);
  return r;
}

Status GridRenderer::draw(GridCanvas& canvas, const GridImage& image) {
  if (image.width <= 0 || image.height <= 0) return Ok{};
  if (canvas.valid_ && canvas.last_ == image) return Ok{};
  if (image.cells.size() != std::size_t(image.rows) * std::size_t(image.cols))
    return invalidInput("grid image has " + std::to_string(image.cells.size()) + " cells for " +
                        std::to_string(image.rows) + "x" + std::to_string(image.cols));

  SavedState saved;
  if (canvas.width_ != image.width || canvas.height_ != image.height || !canvas.framebuffer_) {
    if (auto s = resize(canvas, canvas.framebuffer_, canvas.texture_, image.width, image.height); !s) return s;
    canvas.width_ = image.width;
    canvas.height_ = image.height;
  }
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, canvas.framebuffer_);
  glViewport(0, 0, image.width, image.height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  float bg[4];
  unpack(image.background, bg);
  glClearColor(bg[0], bg[1], bg[2], bg[3]);
  glClear(GL_COLOR_BUFFER_BIT);

  if (!image.cells.empty()) {
    const bool textured = image.cells.size() > kInstancedMaxCells;
    const Uniforms& u = textured ? texturedU_ : instancedU_;
    glUseProgram(textured ? textured_.id() : instanced_.id());
    glUniform1i(u.cols, image.cols);
    glUniform2f(u.canvas, float(image.width), float(image.height));
    glUniform2f(u.origin, 0.0f, 0.0f);
    glUniform2f(u.cell, image.cellWidth, image.cellHeight);
    glUniform2f(u.extent, image.cellWidth * float(image.cols), image.cellHeight * float(image.rows));
    glUniform1f(u.outline, image.outlinePx);
    glUniform1f(u.highlight, image.highlightPx);
    float mark[4];
    unpack(image.mark, mark);
    glUniform4fv(u.mark, 1, mark);
    float ringEdge[4];
    unpack(image.ringEdge, ringEdge);
    glUniform4fv(u.ringEdge, 1, ringEdge);
    if (textured) {
      GLint savedTexture = 0, savedUnit = 0, savedAlign = 0;
      glGetIntegerv(GL_ACTIVE_TEXTURE, &savedUnit);
      glActiveTexture(GL_TEXTURE0);
      glGetIntegerv(GL_TEXTURE_BINDING_2D, &savedTexture);
      glGetIntegerv(GL_UNPACK_ALIGNMENT, &savedAlign);
      glBindTexture(GL_TEXTURE_2D, cellTexture_);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32UI, image.cols, image.rows, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT,
                   image.cells.data());
      glUniform1i(u.cells, 0);
      glBindVertexArray(quadVao_);
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
      glPixelStorei(GL_UNPACK_ALIGNMENT, savedAlign);
      glBindTexture(GL_TEXTURE_2D, GLuint(savedTexture));
      glActiveTexture(GLenum(savedUnit));
    } else {
      glBindVertexArray(vao_);
      glBindBuffer(GL_ARRAY_BUFFER, instances_);
      // Orphan and refill: the driver need not wait for last frame's draw to finish.
      const auto bytes = GLsizeiptr(image.cells.size() * sizeof(CellStyle));
      glBufferData(GL_ARRAY_BUFFER, bytes, nullptr, GL_STREAM_DRAW);
      glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, image.cells.data());
      glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(image.cells.size()));
    }
  }
  ++draws_;
  platform::noteTextureRedrawn(canvas.textureId());  // the draw commands showing it change
  canvas.last_ = image;
  canvas.valid_ = true;
  if (auto e = frameGlError("drawing a grid"); !e.empty()) return failure(e);
  return Ok{};
}

}  // namespace tilescope::gfx
