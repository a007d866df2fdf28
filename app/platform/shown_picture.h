// What a frame shows, compared with the picture its canvas shows already: a page redraws only
// the regions whose pixels can differ, and nothing when none can (a software rasteriser pays
// for every pixel drawn: bench/README.md, "The web page"). Exact, not a hash: every draw
// command's clip rectangle, texture and triangles (its vertices in index order), the size, the
// clear colour, the fonts and the textures redrawn since (the grids' canvases).
#pragma once
#include <cstdint>
#include <vector>

#include <imgui.h>

namespace tilescope::platform {

struct PictureKey {
  int width = 0, height = 0;
  uint32_t background = 0;  // the frame's clear colour
  int gridRedraws = 0;      // GridRenderer::drawsIssued() (which textures: noteTextureRedrawn)
};

// A rectangle of framebuffer pixels, top-left origin, half-open: [x0, x1) x [y0, y1).
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  long long area() const { return empty() ? 0 : (long long)(x1 - x0) * (y1 - y0); }
  bool operator==(const PixelRect&) const = default;
};

// A texture's pixels changed (a grid's canvas drawn anew): every draw command that shows it
// changes its picture. GridRenderer calls it; the next compared frame takes the list.
void noteTextureRedrawn(ImTextureID texture);

class PictureTracker {
 public:
  // The regions to draw to turn the canvas's picture into this frame's: none when it is the
  // same; the whole canvas when nothing is known to be shown, or the size, the clear colour, the
  // fonts, the windows or their order changed, or a command has a user callback.
  std::vector<PixelRect> changes(const ImDrawData& data, const PictureKey& key);
  // The canvas now shows the frame last compared (drawn whole, or in the regions changes() gave).
  void commit();
  // The canvas's pixels are no longer known (the next frame is drawn whole).
  void forget() { valid_ = false; }
  // The pixels each command of the frame last compared may touch, in draw order.
  std::vector<PixelRect> commandBounds() const;

  // Past this share of the canvas a partial redraw is no cheaper than a whole one.
  static constexpr double kWholeShare = 0.6;
  static constexpr std::size_t kMaxRegions = 6;

 private:
  struct Command {
    ImVec4 clip;
    ImTextureID texture = nullptr;
    uint32_t firstVertex = 0, vertices = 0;  // into Snapshot::vertices, in index order
    PixelRect bounds;                         // the pixels it may touch
  };
  struct List {
    const ImDrawList* list = nullptr;
    uint32_t firstCommand = 0, commands = 0;
    PixelRect bounds;
  };
  struct Snapshot {
    std::vector<unsigned char> header;  // key, display, fonts
    std::vector<ImDrawVert> vertices;
    std::vector<Command> commands;
    std::vector<List> lists;
    bool exact = true;  // no user callbacks
  };
  bool take(const ImDrawData& data, const PictureKey& key, Snapshot& out) const;
  void commandChanges(const List& was, const List& now, const std::vector<ImTextureID>& redrawn,
                      std::vector<PixelRect>& out) const;

  Snapshot shown_, next_;
  bool valid_ = false;
};

// `rects` merged into at most `maxRegions` rectangles that cover them all (overlapping or
// touching ones first, then the pairs whose union adds the fewest pixels).
std::vector<PixelRect> mergeRegions(std::vector<PixelRect> rects, std::size_t maxRegions);

// `data` restricted to `region`: each command's clip rectangle becomes the pixels it scissors
// (as ImGui's OpenGL3 backend computes them: truncated, y flipped) within `region`, as whole
// pixels; a command whose `bounds` (commandBounds(), when given) miss the region is skipped;
// `saved` keeps the originals for restoreClips. Lists with no command in it are left out of
// `lists` (the ImDrawData to draw points at them). False when DisplayPos is not (0, 0) or the
// framebuffer scale not 1 (then draw whole).
bool clipToRegion(ImDrawData& data, const PixelRect& region, int framebufferHeight, std::vector<ImVec4>& saved,
                  std::vector<ImDrawList*>& lists, const std::vector<PixelRect>* bounds = nullptr);
void restoreClips(ImDrawData& data, const std::vector<ImVec4>& saved);

}  // namespace tilescope::platform
