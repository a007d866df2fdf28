// WebGL2 is OpenGL ES 3.0, linked: nothing to load. Shaders get the ES #version and precisions.
#include "platform/gl.h"

#include <emscripten.h>

// WebGL answers some state queries only after a round trip to the browser's GPU process, which
// first finishes every command queued before it: on a software rasteriser (SwiftShader, a
// school laptop without GPU acceleration) the first such query of a frame waits for the last
// frame's drawing, most of a frame's time. Dear ImGui's OpenGL backend backs up the viewport,
// the scissor box and the blend state at every draw, and the grid pass saves what it changes.
// The context answers those queries here, from the values the page last set: every setter of
// that state is wrapped to note its arguments, and each value is read from WebGL once, now.
// Any other query still goes to WebGL. (The desktop's drivers answer such queries locally.)
EM_JS(void, tilescopeShadowGlState, (), {
  const gl = GLctx;
  if (!gl || gl.tilescopeShadow) return;
  const realGet = gl.getParameter.bind(gl), realIsEnabled = gl.isEnabled.bind(gl);
  const state = new Map();
  for (const p of [gl.VIEWPORT, gl.SCISSOR_BOX, gl.BLEND_SRC_RGB, gl.BLEND_DST_RGB, gl.BLEND_SRC_ALPHA,
                   gl.BLEND_DST_ALPHA, gl.BLEND_EQUATION_RGB, gl.BLEND_EQUATION_ALPHA, gl.CURRENT_PROGRAM,
                   gl.ARRAY_BUFFER_BINDING, gl.VERTEX_ARRAY_BINDING, gl.ACTIVE_TEXTURE, gl.DRAW_FRAMEBUFFER_BINDING,
                   gl.READ_FRAMEBUFFER_BINDING, gl.UNPACK_ALIGNMENT, gl.PACK_ALIGNMENT])
    state.set(p, realGet(p));
  const caps = new Map();
  for (const c of [gl.BLEND, gl.CULL_FACE, gl.DEPTH_TEST, gl.STENCIL_TEST, gl.SCISSOR_TEST, gl.RASTERIZER_DISCARD])
    caps.set(c, realIsEnabled(c));
  // ELEMENT_ARRAY_BUFFER_BINDING belongs to the bound vertex array (null: the default one);
  // emscripten's glBindVertexArray asks for it after every bind.
  const elementBuffers = new Map([[state.get(gl.VERTEX_ARRAY_BINDING), realGet(gl.ELEMENT_ARRAY_BUFFER_BINDING)]]);
  const textures = [];  // TEXTURE_BINDING_2D of each texture unit
  const unit = () => state.get(gl.ACTIVE_TEXTURE) - gl.TEXTURE0;
  textures[unit()] = realGet(gl.TEXTURE_BINDING_2D);
  const noting = (name, note) => {
    const call = gl[name].bind(gl);
    gl[name] = function(a, b, c, d) { call.apply(null, arguments); note(a, b, c, d); };
  };
  noting('viewport', (x, y, w, h) => state.set(gl.VIEWPORT, new Int32Array([x, y, w, h])));
  noting('scissor', (x, y, w, h) => state.set(gl.SCISSOR_BOX, new Int32Array([x, y, w, h])));
  const blend = (sr, dr, sa, da) => {
    state.set(gl.BLEND_SRC_RGB, sr); state.set(gl.BLEND_DST_RGB, dr);
    state.set(gl.BLEND_SRC_ALPHA, sa); state.set(gl.BLEND_DST_ALPHA, da);
  };
  noting('blendFunc', (s, d) => blend(s, d, s, d));
  noting('blendFuncSeparate', blend);
  noting('blendEquation', (m) => { state.set(gl.BLEND_EQUATION_RGB, m); state.set(gl.BLEND_EQUATION_ALPHA, m); });
  noting('blendEquationSeparate', (rgb, alpha) => { state.set(gl.BLEND_EQUATION_RGB, rgb); state.set(gl.BLEND_EQUATION_ALPHA, alpha); });
  noting('enable', (c) => { if (caps.has(c)) caps.set(c, true); });
  noting('disable', (c) => { if (caps.has(c)) caps.set(c, false); });
  noting('useProgram', (p) => state.set(gl.CURRENT_PROGRAM, p || null));
  noting('bindBuffer', (target, b) => {
    if (target === gl.ARRAY_BUFFER) state.set(gl.ARRAY_BUFFER_BINDING, b || null);
    if (target === gl.ELEMENT_ARRAY_BUFFER) elementBuffers.set(state.get(gl.VERTEX_ARRAY_BINDING), b || null);
  });
  noting('bindVertexArray', (v) => state.set(gl.VERTEX_ARRAY_BINDING, v || null));
  noting('activeTexture', (t) => state.set(gl.ACTIVE_TEXTURE, t));
  noting('bindTexture', (target, t) => { if (target === gl.TEXTURE_2D) textures[unit()] = t || null; });
  noting('bindFramebuffer', (target, f) => {
    if (target !== gl.READ_FRAMEBUFFER) state.set(gl.DRAW_FRAMEBUFFER_BINDING, f || null);
    if (target !== gl.DRAW_FRAMEBUFFER) state.set(gl.READ_FRAMEBUFFER_BINDING, f || null);
  });
  noting('pixelStorei', (p, v) => { if (p === gl.UNPACK_ALIGNMENT || p === gl.PACK_ALIGNMENT) state.set(p, v); });
  // Deleting a bound object unbinds it (WebGL 2, 5.14); a deleted program stays in use.
  const unbind = (o, names) => { for (const p of names) if (o && state.get(p) === o) state.set(p, null); };
  noting('deleteBuffer', (b) => {
    unbind(b, [gl.ARRAY_BUFFER_BINDING]);
    const vao = state.get(gl.VERTEX_ARRAY_BINDING);
    if (b && elementBuffers.get(vao) === b) elementBuffers.set(vao, null);
  });
  noting('deleteVertexArray', (v) => { unbind(v, [gl.VERTEX_ARRAY_BINDING]); if (v) elementBuffers.delete(v); });
  noting('deleteFramebuffer', (f) => unbind(f, [gl.DRAW_FRAMEBUFFER_BINDING, gl.READ_FRAMEBUFFER_BINDING]));
  noting('deleteTexture', (t) => { for (let i = 0; i < textures.length; ++i) if (t && textures[i] === t) textures[i] = null; });
  gl.getParameter = function(p) {
    if (p === gl.TEXTURE_BINDING_2D) return textures[unit()] || null;
    if (p === gl.ELEMENT_ARRAY_BUFFER_BINDING) return elementBuffers.get(state.get(gl.VERTEX_ARRAY_BINDING)) || null;
    if (!state.has(p)) return realGet(p);
    const v = state.get(p);
    return v instanceof Int32Array ? new Int32Array(v) : v;
  };
  gl.isEnabled = function(c) { return caps.has(c) ? caps.get(c) : realIsEnabled(c); };
  gl.tilescopeShadow = true;
});

namespace tilescope::platform {

Result<GlVersion> loadGlEntryPoints(GlProcLoader) {
  tilescopeShadowGlState();
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  if (major == 0) return unavailable("this browser gave the page no WebGL2 context");
  return GlVersion{major, minor};
}

bool glVersionSuffices(GlVersion v) { return v.major >= 3; }
std::string_view requiredGl() { return "WebGL2 (OpenGL ES 3.0)"; }
const char* imguiGlslVersion() { return "#version 300 es"; }

std::string withGlslHeader(std::string_view source) {
  const auto eol = source.find('\n');
  const std::string_view rest = eol == std::string_view::npos ? std::string_view() : source.substr(eol + 1);
  // `#line 2`: compiler messages keep the line numbers of the file as written.
  return "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp usampler2D;\n#line 2\n" +
         std::string(rest);
}

}  // namespace tilescope::platform
