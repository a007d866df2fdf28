#include "gfx/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstring>
#include <vector>

namespace tilescope::gfx {

Status saveScreenshot(const std::string& path, int width, int height) {
  if (width <= 0 || height <= 0) return invalidInput("nothing to capture: the window is empty");
  const std::size_t rowBytes = std::size_t(width) * 3;
  std::vector<unsigned char> pixels(rowBytes * std::size_t(height));
  GLint savedRead = 0, savedAlign = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &savedRead);
  glGetIntegerv(GL_PACK_ALIGNMENT, &savedAlign);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  glPixelStorei(GL_PACK_ALIGNMENT, savedAlign);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(savedRead));
  // GL's rows run bottom-up, PNG's top-down.
  std::vector<unsigned char> row(rowBytes);
  for (int y = 0; y < height / 2; ++y) {
    unsigned char* a = pixels.data() + std::size_t(y) * rowBytes;
    unsigned char* b = pixels.data() + std::size_t(height - 1 - y) * rowBytes;
    std::memcpy(row.data(), a, rowBytes);
    std::memcpy(a, b, rowBytes);
    std::memcpy(b, row.data(), rowBytes);
  }
  if (!stbi_write_png(path.c_str(), width, height, 3, pixels.data(), int(rowBytes)))
    return failure("could not write the screenshot " + path);
  return Ok{};
}

}  // namespace tilescope::gfx
