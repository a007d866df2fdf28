// Shared by both grid programs (prepended to their fragment shaders at load time): how one
// cell looks at a point. A cell is its fill, an outline of uOutlinePx, and (when the
// highlight colour is opaque) a ring of uHighlightPx just inside the outline. Marks stay
// readable when colour alone is not enough (colour-blind viewers, projectors).
uniform vec2 uCell;         // cell size in pixels
uniform float uOutlinePx;
uniform float uHighlightPx;
uniform vec4 uMark;         // colour of the hatch, cross and dot marks
uniform vec4 uRingEdge;     // the highlight ring's inner edge (GridImage::ringEdge)

const uint kHatch = 1u;  // zero-filled: a boundary check wrote 0 instead of loading
const uint kCross = 2u;  // wrong or out-of-bounds access
const uint kDot = 4u;    // being read at the current step

vec4 shadeCell(vec2 local, vec4 fill, vec4 outline, vec4 highlight, uint flags) {
  vec2 toEdge = min(local, uCell - local);
  float edge = min(toEdge.x, toEdge.y);
  float side = min(uCell.x, uCell.y);
  vec4 c = fill;
  if ((flags & kHatch) != 0u && mod(gl_FragCoord.x + gl_FragCoord.y, 7.0) < 2.0)
    c = mix(c, uMark, 0.45);
  if ((flags & kCross) != 0u) {
    vec2 uv = local / uCell;
    float d = min(abs(uv.x - uv.y), abs(uv.x + uv.y - 1.0)) * side;
    if (d < max(1.0, side * 0.06)) c = uMark;
  }
  if ((flags & kDot) != 0u && length(local - 0.5 * uCell) < side * 0.16)
    c = uMark;
  // The ring: its colour on the outer part, a dark edge on the inner part (at least a pixel), so
  // it shows on light and dark fills alike.
  // (A ring of one or two pixels, on small cells, stays one colour: an edge would eat it.)
  float ringEdge = uHighlightPx >= 3.0 ? max(1.0, floor(uHighlightPx * 0.4)) : 0.0;
  if (highlight.a > 0.0 && edge < uOutlinePx + uHighlightPx)
    c = edge < uOutlinePx + uHighlightPx - ringEdge ? highlight : uRingEdge;
  if (edge < uOutlinePx)
    c = outline;
  return c;
}
