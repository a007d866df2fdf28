// Draws a matrix grid inside the current ImGui window: the cells go to the gfx grid
// renderer (an offscreen texture per grid), the texture is shown with ImGui::Image, and the
// grid's on-screen rectangle is recorded for script mode's `layout` command.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "gfx/grid_renderer.h"
#include "ui/model/thread_story.h"
#include "ui/state/frame_layout.h"

namespace tilescope::ui {

struct GridRequest {
  std::string name;  // unique per grid on screen; also its name in the layout file
  int rows = 0, cols = 0;
  std::span<const gfx::CellStyle> cells;  // row-major: the view's own cells, copied into the canvas's request
  ImVec2 maxSize;                     // the space it may take, in pixels
  float maxCell = 56.0f;              // largest cell side, in pixels
};

class GridPainter {
 public:
  static constexpr float kSmallCell = 8.0f;  // below this: no outlines, fractional sizes, framed highlights
  explicit GridPainter(gfx::GridRenderer& renderer) : renderer_(renderer) {}
  // Draws the grid at the cursor position and returns the hovered cell, if any. Its canvas is
  // filled by flush(), once the frame's draw lists are built.
  std::optional<CellIndex> draw(GridRequest&& request, const Theme& theme, FrameLayout& layout);
  // Renders this frame's grids into their canvases (GL): call after ImGui::Render, before the
  // draw lists are rendered.
  void flush();
  // The largest cell side that fits `rows` x `cols` in `space` (at least 1).
  static float cellSide(int rows, int cols, ImVec2 space, float maxCell);
  const std::string& lastError() const { return error_; }
  int redraws() const { return renderer_.drawsIssued(); }

 private:
  gfx::GridRenderer& renderer_;
  std::map<std::string, std::unique_ptr<gfx::GridCanvas>> canvases_;
  // Drawn this frame, rendered by flush(): the first `pendingUsed_`. The entries stay between
  // frames so that their cells' storage is reused, not allocated again for every grid every frame.
  std::vector<std::pair<gfx::GridCanvas*, gfx::GridImage>> pending_;
  std::size_t pendingUsed_ = 0;
  std::string error_;
};

// Frames over a grid already drawn this frame (its GridRect in the layout): a box around rows
// row0..row1 and columns col0..col1 (inclusive), drawn inside its edge cells so that frames of
// neighbouring cells do not merge, or one per cell.
void frameBox(const GridRect& grid, int row0, int col0, int row1, int col1, Rgba colour, float thickness);
void frameCells(const GridRect& grid, const std::vector<CellIndex>& cells, Rgba colour, float thickness);
// The centre of a cell of a grid drawn this frame, in screen pixels.
ImVec2 cellCentre(const GridRect& grid, CellIndex cell);
// An arrow from one point to another over every window (the foreground draw list), outlined in
// `outline` so that it reads on any cell colour; its head ends `stopShort` pixels before `to`.
void drawArrow(ImVec2 from, ImVec2 to, Rgba colour, Rgba outline, float thickness, float stopShort);

}  // namespace tilescope::ui
