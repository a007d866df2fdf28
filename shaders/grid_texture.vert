#version 330 core
// Texture path for large grids: one quad over the whole grid; the fragment shader finds its
// cell. Thousands of 2-pixel instanced quads cost a software rasteriser far more than one
// quad with a texel fetch per pixel.
uniform vec2 uCanvas;  // canvas size in pixels
uniform vec2 uExtent;  // grid size in pixels

out vec2 vPixel;  // position in the grid, in pixels

void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vPixel = corner * uExtent;
  gl_Position = vec4(vPixel / uCanvas * 2.0 - 1.0, 0.0, 1.0);
}
