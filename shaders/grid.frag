#version 330 core
// Instanced path: one quad per cell, styles arrive as flat varyings. (shadeCell comes from
// grid_cell.glsl, inserted after the #version line.)
in vec2 vLocal;
flat in vec4 vFill;
flat in vec4 vOutline;
flat in vec4 vHighlight;
flat in uint vFlags;

out vec4 fragColor;

void main() {
  fragColor = shadeCell(vLocal, vFill, vOutline, vHighlight, vFlags);
}
