#version 330 core
// A cell is its fill, an outline of uOutlinePx, and (when the highlight colour is opaque) a
// ring of uHighlightPx just inside the outline. Flags add marks that stay readable when
// colour alone is not enough (colour-blind viewers, projectors).
in vec2 vLocal;
flat in vec4 vFill;
flat in vec4 vOutline;
flat in vec4 vHighlight;
flat in uint vFlags;

uniform vec2 uCell;
uniform float uOutlinePx;
uniform float uHighlightPx;
uniform vec4 uMark;  // colour of the hatch, cross and dot marks

out vec4 fragColor;

const uint kHatch = 1u;  // zero-filled: a boundary check wrote 0 instead of loading
const uint kCross = 2u;  // wrong or out-of-bounds access
const uint kDot = 4u;    // being read at the current step

void main() {
  vec2 toEdge = min(vLocal, uCell - vLocal);
  float edge = min(toEdge.x, toEdge.y);
  float side = min(uCell.x, uCell.y);
  vec4 c = vFill;
  if ((vFlags & kHatch) != 0u && mod(gl_FragCoord.x + gl_FragCoord.y, 7.0) < 2.0)
    c = mix(c, uMark, 0.45);
  if ((vFlags & kCross) != 0u) {
    vec2 uv = vLocal / uCell;
    float d = min(abs(uv.x - uv.y), abs(uv.x + uv.y - 1.0)) * side;
    if (d < max(1.0, side * 0.06)) c = uMark;
  }
  if ((vFlags & kDot) != 0u && length(vLocal - 0.5 * uCell) < side * 0.16)
    c = uMark;
  if (vHighlight.a > 0.0 && edge < uOutlinePx + uHighlightPx)
    c = vHighlight;
  if (edge < uOutlinePx)
    c = vOutline;
  fragColor = c;
}
