// The matrix grid renderer: draws a rows x cols grid of cells, one GL instance per cell,
// into an offscreen texture that a panel shows with ImGui::Image. Each cell carries a fill,
// an outline and an optional highlight ring, plus marks (hatch, cross, dot).
//
//   GridRenderer renderer = *GridRenderer::create(shaderDir);   // once, after loadGl()
//   GridCanvas canvas;                                           // one per grid on screen
//   renderer.draw(canvas, grid);      // re-renders only when grid or size changed
//   ImGui::Image(canvas.textureId(), size);
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/result.h"
#include "gfx/shader_program.h"

namespace tilescope::gfx {

// Colours are packed like ImGui's IM_COL32: red in the low byte, alpha in the high byte.
using Rgba = uint32_t;
constexpr Rgba rgba(unsigned r, unsigned g, unsigned b, unsigned a = 255) {
  return Rgba(r) | (Rgba(g) << 8) | (Rgba(b) << 16) | (Rgba(a) << 24);
}

enum CellMark : uint32_t {
  kMarkNone = 0,
  kMarkHatch = 1u << 0,  // zero-filled slot
  kMarkCross = 1u << 1,  // wrong or out-of-bounds
  kMarkDot = 1u << 2,    // read at the current step
};

struct CellStyle {
  Rgba fill = 0;
  Rgba outline = 0;
  Rgba highlight = 0;  // alpha 0: no ring
  uint32_t marks = kMarkNone;
  bool operator==(const CellStyle&) const = default;
};
static_assert(sizeof(CellStyle) == 16, "uploaded as the instance buffer as is");

struct GridImage {
  int rows = 0, cols = 0;
  std::vector<CellStyle> cells;  // row-major, rows * cols
  int width = 0, height = 0;     // canvas size in pixels
  float cellWidth = 0, cellHeight = 0;  // cell size in pixels; the grid starts at (0, 0)
  float outlinePx = 1.0f;
  float highlightPx = 3.0f;
  Rgba background = rgba(0, 0, 0, 0);
  Rgba mark = rgba(255, 255, 255);
  // The inner edge of every highlight ring: a ring of one colour vanishes on a fill of about its
  // lightness (the yellow ring on orange cells, for red-green colour-blind eyes above all); a
  // dark edge inside a light ring stands out against light fills, the ring against dark ones.
  Rgba ringEdge = rgba(0, 0, 0);
  bool operator==(const GridImage&) const = default;
};

// An offscreen colour target; owns its framebuffer and texture.
class GridCanvas {
 public:
  GridCanvas() = default;
  GridCanvas(const GridCanvas&) = delete;
  GridCanvas& operator=(const GridCanvas&) = delete;
  ~GridCanvas();
  // For ImGui::Image: the GL texture name as ImTextureID.
  void* textureId() const { return reinterpret_cast<void*>(static_cast<uintptr_t>(texture_)); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  friend class GridRenderer;
  unsigned framebuffer_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
  GridImage last_;  // what the texture shows now, to skip identical redraws
  bool valid_ = false;
};

class GridRenderer {
 public:
  GridRenderer() = default;
  GridRenderer(GridRenderer&&) noexcept;
  GridRenderer& operator=(GridRenderer&&) noexcept;
  GridRenderer(const GridRenderer&) = delete;
  GridRenderer& operator=(const GridRenderer&) = delete;
  ~GridRenderer();

  // Builds the programs from shaders/grid*.vert|frag + grid_cell.glsl (embedded, or from
  // `shaderDir` when not empty). Fails with the info log.
  static Result<GridRenderer> create(const std::string& shaderDir);

  // Renders `image` into `canvas` (resizing it), restoring the GL state it touched.
  // Skips all GL work when the canvas already shows exactly this image.
  Status draw(GridCanvas& canvas, const GridImage& image);

  int drawsIssued() const { return draws_; }  // for the frame report: redraws, not skips

  // Grids with more cells take the texture path (one quad, styles in a texture): a software
  // rasteriser pays per triangle, and a 128x128 grid of 2-pixel quads is 32k triangles.
  static constexpr std::size_t kInstancedMaxCells = 4096;

 private:
  struct Uniforms {
    int cols = -1, canvas = -1, origin = -1, cell = -1, outline = -1, highlight = -1, mark = -1, ringEdge = -1,
        extent = -1, cells = -1;
  };
  static Uniforms locate(const ShaderProgram& program);
  ShaderProgram instanced_, textured_;
  Uniforms instancedU_, texturedU_;
  unsigned vao_ = 0, instances_ = 0, quadVao_ = 0, cellTexture_ = 0;
  int draws_ = 0;
};

}  // namespace tilescope::gfx
