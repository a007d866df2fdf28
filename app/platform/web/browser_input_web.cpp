// The browser's input made the app's, as a desktop window gives it (browser_input_web.h).
#include "browser_input_web.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <algorithm>
#include <vector>

// The page's listeners, on the window in the capture phase: they see an event before
// emscripten's GLFW (whose listeners are on the canvas) and before the browser acts on it.
//  - wheel: GLFW 3.1.6 hands the app the raw delta (pixels, downwards positive: the wrong way and
//    about a hundred notches at a time); the event goes to tilescopeWheel with its mode instead.
//  - keys the app uses whose browser default would act (F1 help, F5 reload, Space and the arrows
//    scroll or press the focused button, '/' finds): default prevented, unless a modifier is held
//    (the browser's shortcuts, Ctrl+F5 included, keep working), the user is typing in a field or
//    a page control has the focus.
//  - F: fullscreen is requested inside the key's own event (a browser refuses it elsewhere).
//  - touch: a touch is the mouse at the finger (GLFW 3.1.6 presses at the last mouse position
//    and the browser adds emulated mouse events after it).
EM_JS(void, tilescopeListenToBrowser, (), {
  const canvas = Module.canvas;
  const APP_KEYS = ['F1', 'F5', 'Space', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home',
                    'End', 'Slash'];
  // Keys are the app's while the canvas (or nothing) has the focus and no field of the app takes
  // text; a page control a person moved to with Tab keeps its own (Space presses a button).
  const typing = function() {
    const a = document.activeElement;
    return window.tilescopeTyping || (a && a !== canvas && a !== document.body && a !== document.documentElement);
  };
  window.tilescopeToggleFullscreen = function() {
    const request = canvas.requestFullscreen || canvas.webkitRequestFullscreen;
    const exit = document.exitFullscreen || document.webkitExitFullscreen;
    const shown = document.fullscreenElement || document.webkitFullscreenElement;
    try {
      const p = shown ? exit.call(document) : request.call(canvas);
      if (p && p.catch) p.catch(function(e) { console.warn('tilescope: fullscreen: ' + e); });
    } catch (e) {
      console.warn('tilescope: fullscreen: ' + e);
    }
  };
  window.addEventListener('keydown', function(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing()) return;
    if (APP_KEYS.indexOf(e.code) >= 0) e.preventDefault();
    if (e.code === 'KeyF' && !e.repeat) {
      e.preventDefault();
      window.tilescopeToggleFullscreen();
    }
  }, true);
  const wheel = function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();
    if (e.type === 'wheel') Module.ccall('tilescopeWheel', null, ['number', 'number', 'number'], [e.deltaX, e.deltaY, e.deltaMode]);
  };
  window.addEventListener('wheel', wheel, {capture: true, passive: false});
  window.addEventListener('mousewheel', wheel, {capture: true, passive: false});
  const touch = function(e) {
    if (e.target !== canvas) return;
    e.stopPropagation();
    e.preventDefault();  // no emulated mouse events, no scrolling or zooming the page
    const t = e.changedTouches[0];
    if (!t || !GLFW.active) return;
    const as = function(type) { return {type: type, target: canvas, button: 0, pageX: t.pageX, pageY: t.pageY}; };
    GLFW.onMousemove(as('mousemove'));
    if (e.type === 'touchstart') GLFW.onMouseButtonDown(as('mousedown'));
    else if (e.type !== 'touchmove') GLFW.onMouseButtonUp(as('mouseup'));
  };
  for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel'])
    window.addEventListener(type, touch, {capture: true, passive: false});
});
EM_JS(void, tilescopeSetTyping, (int on), { window.tilescopeTyping = on != 0; });
EM_JS(double, tilescopeCanvasCssHeight, (), { return Module.canvas.clientHeight || Module.canvas.height; });

namespace tilescope::platform {
namespace {

struct KeyRelease {
  GLFWwindow* window;
  int key, scancode, mods;
};

std::vector<int> g_pressedSinceFrame;    // keys that went down since the last frame began
std::vector<KeyRelease> g_heldReleases;  // their releases, held over the next frame
std::vector<KeyRelease> g_dueReleases;   // held over the frame that began last: given at the next
bool g_typing = false;

// Takes `key`'s release out of `list` and gives it to ImGui now, if it is there.
void releaseNow(std::vector<KeyRelease>& list, int key) {
  const auto it = std::find_if(list.begin(), list.end(), [key](const KeyRelease& r) { return r.key == key; });
  if (it == list.end()) return;
  const KeyRelease r = *it;
  list.erase(it);
  ImGui_ImplGlfw_KeyCallback(r.window, r.key, r.scancode, GLFW_RELEASE, r.mods);
}

// A key that goes down and up between two frames would never be seen down (ImGui 1.86 reads
// key states once a frame): its release is held until the frame after the one that sees it down.
void keyCallback(GLFWwindow* window, int key, int scancode, int action, int mods) {
  auto& pressed = g_pressedSinceFrame;
  if (action == GLFW_PRESS) {
    releaseNow(g_dueReleases, key);  // pressed again: the last tap has been seen
    pressed.push_back(key);
  } else if (action == GLFW_RELEASE && std::find(pressed.begin(), pressed.end(), key) != pressed.end()) {
    g_heldReleases.push_back({window, key, scancode, mods});
    return;
  }
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

}  // namespace

void listenToBrowser(GLFWwindow* window) {
  glfwSetKeyCallback(window, keyCallback);  // ImGui's, called from ours
  tilescopeListenToBrowser();
}

void beforeImGuiFrame() {
  for (const KeyRelease& r : g_dueReleases) ImGui_ImplGlfw_KeyCallback(r.window, r.key, r.scancode, GLFW_RELEASE, r.mods);
  g_dueReleases = std::move(g_heldReleases);  // this frame sees those keys down; the next, up
  g_heldReleases.clear();
  g_pressedSinceFrame.clear();
  // Whether the last frame had a text field taking keys: the page then leaves the keys alone.
  if (const bool typing = ImGui::GetIO().WantTextInput; typing != g_typing) {
    tilescopeSetTyping(typing ? 1 : 0);
    g_typing = typing;
  }
}

}  // namespace tilescope::platform

// A wheel or touchpad event on the canvas: deltaX/deltaY in the browser's units (mode 0 CSS
// pixels, 1 lines, 2 pages; positive: towards the content below and to the right), scrolled the
// distance the browser would scroll a page. ImGui scrolls a window 5 font heights per unit of
// MouseWheel (positive: up), so a unit is that many pixels; a line is one of the app's text lines.
extern "C" EMSCRIPTEN_KEEPALIVE void tilescopeWheel(double dx, double dy, int mode) {
  if (!ImGui::GetCurrentContext()) return;
  ImGuiIO& io = ImGui::GetIO();
  const float font = io.Fonts->Fonts.empty() ? 13.0f : io.Fonts->Fonts[0]->FontSize * io.FontGlobalScale;
  const double cssToPixels = io.DisplaySize.y > 0 ? io.DisplaySize.y / tilescopeCanvasCssHeight() : 1.0;
  const double unit = mode == 1 ? font * 1.25 : mode == 2 ? io.DisplaySize.y * 0.9 : cssToPixels;
  const double step = 5.0 * font;
  io.MouseWheelH -= float(dx * unit / step);
  io.MouseWheel -= float(dy * unit / step);
}
