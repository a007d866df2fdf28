#include "ui/panels/grid_view.h"

#include <algorithm>
#include <cmath>

namespace tilescope::ui {

float GridPainter::cellSide(int rows, int cols, ImVec2 space, float maxCell) {
  if (rows <= 0 || cols <= 0) return 1.0f;
  // Large cells are whole pixels (crisp outlines); small ones may be fractional, since they
  // have no outlines and the texture path maps any pixel to its cell.
  const float exact = std::min(space.x / float(cols), space.y / float(rows));
  const float side = exact >= kSmallCell ? std::floor(exact) : std::floor(exact * 4.0f) / 4.0f;
  return std::clamp(side, 1.0f, maxCell);
}

std::optional<CellIndex> GridPainter::draw(GridRequest&& request, const Theme& theme, FrameLayout& layout) {
  if (request.rows <= 0 || request.cols <= 0) return std::nullopt;
  const float side = cellSide(request.rows, request.cols, request.maxSize, request.maxCell);
  if (pendingUsed_ == pending_.size()) pending_.emplace_back();
  auto& [pendingCanvas, image] = pending_[pendingUsed_++];
  std::vector<gfx::CellStyle> storage = std::move(image.cells);  // last frame's, reused
  image = gfx::GridImage{};
  storage.assign(request.cells.begin(), request.cells.end());
  image.cells = std::move(storage);
  image.rows = request.rows;
  image.cols = request.cols;
  image.cellWidth = image.cellHeight = side;
  image.width = int(std::ceil(side * float(request.cols)));
  image.height = int(std::ceil(side * float(request.rows)));
  const bool small = side < kSmallCell;
  // Small cells drop their outline, and a ring per cell would hide the cell's own colour, so
  // highlighted regions get one frame around their bounding box instead (one per colour).
  std::vector<std::pair<Rgba, ImVec4>> frames;  // colour, (col0, row0, col1, row1)
  if (small) {
    for (int r = 0; r < request.rows; ++r)
      for (int c = 0; c < request.cols; ++c) {
        gfx::CellStyle& cell = image.cells[std::size_t(r) * std::size_t(request.cols) + std::size_t(c)];
        if ((cell.highlight >> 24) == 0) continue;
        auto it = std::find_if(frames.begin(), frames.end(), [&](const auto& f) { return f.first == cell.highlight; });
        if (it == frames.end()) frames.push_back({cell.highlight, ImVec4(float(c), float(r), float(c + 1), float(r + 1))});
        else it->second = ImVec4(std::min(it->second.x, float(c)), std::min(it->second.y, float(r)),
                                 std::max(it->second.z, float(c + 1)), std::max(it->second.w, float(r + 1)));
        cell.highlight = 0;
      }
  }
  // Outlines thin out with the cells: presentation mode's 2 px lines on cells of 20-odd pixels
  // turn a large grid into a lattice of lines (the moiré the issue saw at 1080p); below three
  // times kSmallCell a 1 px line is enough to tell the cells apart.
  image.outlinePx = small ? 0.0f : side < 3.0f * kSmallCell ? 1.0f : theme.outlinePx;
  image.highlightPx = small ? 0.0f : std::max(1.0f, std::min(theme.highlightPx, std::floor(side * 0.2f)));
  image.background = theme.background;
  image.mark = theme.cellMark;
  image.ringEdge = theme.ringEdge;

  auto& canvas = canvases_[request.name];
  if (!canvas) canvas = std::make_unique<gfx::GridCanvas>();
  // A canvas with a texture is drawn after the frame's draw lists are built (flush), so the
  // driver's rasterising stays out of the app's work per frame; a new one now, for its texture.
  if (canvas->textureId() == nullptr) {
    if (auto s = renderer_.draw(*canvas, image); !s) error_ = s.error().message;
  }

  const ImVec2 size(float(image.width), float(image.height));
  ImGui::Image(canvas->textureId(), size);
  const ImVec2 origin = ImGui::GetItemRectMin();
  const float thickness = std::max(2.0f, theme.highlightPx * 0.75f);
  // Each frame with a dark line just inside it, like the cells' rings (GridImage::ringEdge).
  for (const auto& [colour, box] : frames) {
    const ImVec2 lo(origin.x + box.x * side, origin.y + box.y * side), hi(origin.x + box.z * side, origin.y + box.w * side);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRect(ImVec2(lo.x - thickness * 0.5f, lo.y - thickness * 0.5f), ImVec2(hi.x + thickness * 0.5f, hi.y + thickness * 0.5f),
                  colour, 0.0f, 0, thickness);
    draw->AddRect(ImVec2(lo.x + 1.0f, lo.y + 1.0f), ImVec2(hi.x - 1.0f, hi.y - 1.0f), theme.ringEdge, 0.0f, 0, 2.0f);
  }
  layout.grids.push_back({request.name, origin.x, origin.y, size.x, size.y, image.rows, image.cols, side, side,
                          image.outlinePx, image.highlightPx, {}});
  pendingCanvas = canvas.get();
  if (!ImGui::IsItemHovered()) return std::nullopt;
  const ImVec2 mouse = ImGui::GetMousePos();
  const int col = int((mouse.x - origin.x) / side), row = int((mouse.y - origin.y) / side);
  if (row < 0 || col < 0 || row >= request.rows || col >= request.cols) return std::nullopt;
  return CellIndex{row, col};
}

void GridPainter::flush() {
  for (std::size_t i = 0; i < pendingUsed_; ++i)
    if (auto s = renderer_.draw(*pending_[i].first, pending_[i].second); !s) error_ = s.error().message;
  pendingUsed_ = 0;
}

void frameBox(const GridRect& g, int row0, int col0, int row1, int col1, Rgba colour, float thickness) {
  const float inset = std::min(thickness * 0.5f + g.outlinePx, g.cellWidth * 0.25f);
  ImGui::GetWindowDrawList()->AddRect(
      ImVec2(g.x + float(col0) * g.cellWidth + inset, g.y + float(row0) * g.cellHeight + inset),
      ImVec2(g.x + float(col1 + 1) * g.cellWidth - inset, g.y + float(row1 + 1) * g.cellHeight - inset), colour, 0.0f, 0,
      thickness);
}

void frameCells(const GridRect& g, const std::vector<CellIndex>& cells, Rgba colour, float thickness) {
  for (const CellIndex& c : cells)
    if (c.row >= 0 && c.col >= 0 && c.row < g.rows && c.col < g.cols) frameBox(g, c.row, c.col, c.row, c.col, colour, thickness);
}

}  // namespace tilescope::ui

namespace tilescope::ui {

ImVec2 cellCentre(const GridRect& g, CellIndex c) {
  return ImVec2(g.x + (float(c.col) + 0.5f) * g.cellWidth, g.y + (float(c.row) + 0.5f) * g.cellHeight);
}

void drawArrow(ImVec2 from, ImVec2 to, Rgba colour, Rgba outline, float thickness, float stopShort) {
  const float dx = to.x - from.x, dy = to.y - from.y, length = std::sqrt(dx * dx + dy * dy);
  if (length <= stopShort + 1.0f) return;
  const ImVec2 u(dx / length, dy / length), n(-u.y, u.x);
  const ImVec2 tip(to.x - u.x * stopShort, to.y - u.y * stopShort);
  const float head = thickness * 4.0f;
  const ImVec2 base(tip.x - u.x * head, tip.y - u.y * head);
  const ImVec2 left(base.x + n.x * head * 0.6f, base.y + n.y * head * 0.6f), right(base.x - n.x * head * 0.6f, base.y - n.y * head * 0.6f);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  for (int pass = 0; pass < 2; ++pass) {  // the outline under, the colour over
    const Rgba c = pass == 0 ? outline : colour;
    const float grow = pass == 0 ? 2.0f : 0.0f;
    draw->AddCircleFilled(from, thickness * 1.2f + grow, c);
    draw->AddLine(from, base, c, thickness + grow);
    if (pass == 0) draw->AddTriangle(tip, left, right, c, grow);
    draw->AddTriangleFilled(tip, left, right, c);
  }
}

}  // namespace tilescope::ui
