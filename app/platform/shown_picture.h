// What a frame shows, as bytes: a page skips a frame whose picture is exactly the one its canvas
// shows already (Window::showsAlready). Exact, not a hash: every vertex, index and draw command
// of ImGui's draw lists, the size, the clear colour and the grids' redraw count.
#pragma once
#include <cstdint>
#include <vector>

struct ImDrawData;

namespace tilescope::platform {

struct PictureKey {
  int width = 0, height = 0;
  uint32_t background = 0;  // the frame's clear colour
  int gridRedraws = 0;      // GridRenderer::drawsIssued(): a grid's canvas drawn anew changes the picture
};

// Writes `data` and `key` into `out` (cleared first); false when the bytes cannot tell the
// picture (a draw command with a user callback).
bool encodePicture(const ImDrawData& data, const PictureKey& key, std::vector<unsigned char>& out);

}  // namespace tilescope::platform
