#version 330 core
// One instance per matrix cell: the quad's corners come from gl_VertexID (a 4-vertex
// triangle strip) and the cell's place from gl_InstanceID, so the only per-cell data
// uploaded are its colours and flags.
layout(location = 0) in vec4 aFill;
layout(location = 1) in vec4 aOutline;
layout(location = 2) in vec4 aHighlight;
layout(location = 3) in uint aFlags;

uniform int uCols;
uniform vec2 uCanvas;  // canvas size in pixels
uniform vec2 uOrigin;  // top-left of cell (0, 0) in pixels
uniform vec2 uCell;    // cell size in pixels

out vec2 vLocal;  // position inside the cell, in pixels
flat out vec4 vFill;
flat out vec4 vOutline;
flat out vec4 vHighlight;
flat out uint vFlags;

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 cell = vec2(float(gl_InstanceID % uCols), float(gl_InstanceID / uCols));
  vec2 px = uOrigin + (cell + corner) * uCell;
  vLocal = corner * uCell;
  vFill = aFill;
  vOutline = aOutline;
  vHighlight = aHighlight;
  vFlags = aFlags;
  // No y flip: pixel row 0 lands in texture row 0, which ImGui::Image shows at the top.
  gl_Position = vec4(px / uCanvas * 2.0 - 1.0, 0.0, 1.0);
}
