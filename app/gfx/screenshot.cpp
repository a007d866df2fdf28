#include "gfx/screenshot.h"

#include "platform/gl.h"
#include <stb_image_write.h>

#include <cstring>
#include <vector>

namespace tilescope::gfx {

Result<RgbImage> readFramebuffer(int width, int height) {
  if (width <= 0 || height <= 0) return invalidInput("nothing to capture: the window is empty");
  RgbImage image{width, height, {}};
  const std::size_t rowBytes = std::size_t(width) * 3;
  // Read as RGBA, the one format every GL (WebGL2's default framebuffer included) must give.
  std::vector<unsigned char> rgba(std::size_t(width) * 4 * std::size_t(height));
  GLint framebuffer = 0, savedAlign = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
  glGetIntegerv(GL_PACK_ALIGNMENT, &savedAlign);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(framebuffer));
  glReadBuffer(framebuffer == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glPixelStorei(GL_PACK_ALIGNMENT, savedAlign);
  // GL's rows run bottom-up, images' top-down.
  image.pixels.resize(rowBytes * std::size_t(height));
  for (int y = 0; y < height; ++y) {
    const unsigned char* from = rgba.data() + std::size_t(height - 1 - y) * std::size_t(width) * 4;
    unsigned char* to = image.pixels.data() + std::size_t(y) * rowBytes;
    for (int x = 0; x < width; ++x) std::memcpy(to + std::size_t(x) * 3, from + std::size_t(x) * 4, 3);
  }
  return image;
}

Status writePng(const std::string& path, const RgbImage& image) {
  if (!stbi_write_png(path.c_str(), image.width, image.height, 3, image.pixels.data(), image.width * 3))
    return failure("could not write " + path);
  return Ok{};
}

Status saveScreenshot(const std::string& path, int width, int height) {
  auto image = readFramebuffer(width, height);
  if (!image) return image.error();
  if (auto s = writePng(path, *image); !s) return failure("could not write the screenshot " + path);
  return Ok{};
}

OffscreenTarget::~OffscreenTarget() {
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (colour_) glDeleteRenderbuffers(1, &colour_);
}

Status OffscreenTarget::begin(int width, int height, float r, float g, float b) {
  if (width <= 0 || height <= 0 || width > 8192 || height > 8192)
    return invalidInput("a frame of " + std::to_string(width) + "x" + std::to_string(height) +
                        " pixels: the size must be 1 to 8192 each way");
  if (!framebuffer_) glGenFramebuffers(1, &framebuffer_);
  if (!colour_) glGenRenderbuffers(1, &colour_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  if (width != width_ || height != height_) {
    glBindRenderbuffer(GL_RENDERBUFFER, colour_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    width_ = width;
    height_ = height;
  }
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return failure("the driver cannot draw a " + std::to_string(width) + "x" + std::to_string(height) + " offscreen frame");
  }
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  return Ok{};
}

void OffscreenTarget::end() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

}  // namespace tilescope::gfx
