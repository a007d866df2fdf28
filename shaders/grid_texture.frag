#version 330 core
// Texture path: the cell styles are a cols x rows RGBA32UI texture (fill, outline,
// highlight, flags per texel). (shadeCell comes from grid_cell.glsl.)
uniform usampler2D uCells;

in vec2 vPixel;
out vec4 fragColor;

vec4 unpackColour(uint c) {
  return vec4(float(c & 255u), float((c >> 8) & 255u), float((c >> 16) & 255u), float(c >> 24)) / 255.0;
}

void main() {
  ivec2 cell = ivec2(floor(vPixel / uCell));
  uvec4 style = texelFetch(uCells, cell, 0);
  fragColor = shadeCell(vPixel - vec2(cell) * uCell, unpackColour(style.x), unpackColour(style.y),
                        unpackColour(style.z), style.w);
}
