// A frame's ImGui picture drawn into the window's framebuffer: whole (cleared to its
// background first), or only some regions of it (each cleared and drawn within a scissor, the
// rest of the framebuffer kept as it is). Both targets' windows draw through these.
#pragma once
#include <vector>

#include "platform/shown_picture.h"

namespace tilescope::platform {

// Binds the default framebuffer, sets the viewport to it and clears it (no scissor).
void clearFramebuffer(int width, int height, float r, float g, float b);

void drawWholePicture(ImDrawData& data, const PictureKey& key);

// Exactly what drawWholePicture leaves in `regions` (the same commands in the same order, each
// scissored to its own clip rectangle within the region), nothing outside them. False, with
// nothing drawn, when the draw data's coordinates are not the framebuffer's pixels.
// `bounds`: the pixels each command may touch (PictureTracker::commandBounds), or none.
bool drawPictureRegions(ImDrawData& data, const PictureKey& key, const std::vector<PixelRect>& regions,
                        const std::vector<PixelRect>* bounds = nullptr);

}  // namespace tilescope::platform
