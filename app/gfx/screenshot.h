// Reads what a framebuffer shows and saves it as a PNG: call after the frame is rendered and
// before the buffers are swapped (the back buffer still holds the frame then). The animation
// export (app/ui/export/animation_export.h) reads its frames the same way, from the window or from an
// offscreen target of a chosen size.
#pragma once
#include <string>
#include <vector>

#include "kernels/result.h"

namespace tilescope::gfx {

// RGB rows, top row first.
struct RgbImage {
  int width = 0, height = 0;
  std::vector<unsigned char> pixels;  // width * height * 3
};

// The bound framebuffer's pixels (the window's back buffer when none is bound).
Result<RgbImage> readFramebuffer(int width, int height);
Status writePng(const std::string& path, const RgbImage& image);
Status saveScreenshot(const std::string& path, int width, int height);

// A framebuffer of any size to draw a frame into instead of the window (for exports at a size
// other than the window's). begin() binds it, sized and cleared; end() goes back to the window.
class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  ~OffscreenTarget();
  Status begin(int width, int height, float r, float g, float b);
  void end();

 private:
  unsigned framebuffer_ = 0, colour_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace tilescope::gfx
