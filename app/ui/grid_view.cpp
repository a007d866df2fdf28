#include "grid_view.h"

#include <algorithm>
#include <cmath>

namespace tilescope::ui {

float GridPainter::cellSide(int rows, int cols, ImVec2 space, float maxCell) {
  if (rows <= 0 || cols <= 0) return 1.0f;
  const float side = std::floor(std::min(space.x / float(cols), space.y / float(rows)));
  return std::clamp(side, 1.0f, maxCell);
}

std::optional<CellIndex> GridPainter::draw(GridRequest&& request, const Theme& theme, FrameLayout& layout) {
  if (request.rows <= 0 || request.cols <= 0) return std::nullopt;
  const float side = cellSide(request.rows, request.cols, request.maxSize, request.maxCell);
  gfx::GridImage image;
  image.rows = request.rows;
  image.cols = request.cols;
  image.cells = std::move(request.cells);
  image.cellWidth = image.cellHeight = side;
  image.width = int(side) * request.cols;
  image.height = int(side) * request.rows;
  // Small cells drop their outline and narrow the ring, so a 128x128 grid stays readable.
  image.outlinePx = side >= 6.0f ? theme.outlinePx : 0.0f;
  image.highlightPx = std::max(1.0f, std::min(theme.highlightPx, std::floor(side * 0.2f)));
  image.background = theme.background;
  image.mark = theme.cellMark;

  auto& canvas = canvases_[request.name];
  if (!canvas) canvas = std::make_unique<gfx::GridCanvas>();
  if (auto s = renderer_.draw(*canvas, image); !s) error_ = s.error().message;

  const ImVec2 size(float(image.width), float(image.height));
  ImGui::Image(canvas->textureId(), size);
  const ImVec2 origin = ImGui::GetItemRectMin();
  layout.grids.push_back({request.name, origin.x, origin.y, size.x, size.y, image.rows, image.cols, side, side,
                          image.outlinePx, image.highlightPx});
  if (!ImGui::IsItemHovered()) return std::nullopt;
  const ImVec2 mouse = ImGui::GetMousePos();
  const int col = int((mouse.x - origin.x) / side), row = int((mouse.y - origin.y) / side);
  if (row < 0 || col < 0 || row >= image.rows || col >= image.cols) return std::nullopt;
  return CellIndex{row, col};
}

}  // namespace tilescope::ui
