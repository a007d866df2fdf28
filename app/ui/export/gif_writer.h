// Animated GIFs through giflib (Debian's libgif-dev): frames of RGB pixels in, a looping GIF
// out. Each frame after the first is written as the rectangle that changed since the one
// before (the rest stays on screen), so a step that colours a few cells costs a few cells.
#pragma once
#include <memory>
#include <string>

#include "gfx/screenshot.h"
#include "kernels/result.h"

namespace tilescope::ui {

class GifWriter {
 public:
  // Creates `path` for frames of width x height pixels.
  static Result<std::unique_ptr<GifWriter>> open(const std::string& path, int width, int height);
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;
  ~GifWriter();
  // Appends a frame shown for delayCs hundredths of a second.
  Status addFrame(const gfx::RgbImage& frame, int delayCs);
  // Finishes the file; the writer takes no more frames.
  Status close();
  int frames() const { return frames_; }

 private:
  GifWriter() = default;
  struct State;
  std::unique_ptr<State> state_;
  int frames_ = 0;
};

}  // namespace tilescope::ui
