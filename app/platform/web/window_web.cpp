// A page's window: the canvas, sized each frame to the browser window less the page's tools,
// with a WebGL2 context (emscripten's GLFW); fullscreen through the browser.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "browser_input_web.h"
#include "platform/gl.h"
#include "platform/picture_draw.h"
#include "platform/window.h"

EM_JS(int, tilescopePageWidth, (), { return window.innerWidth; });
EM_JS(double, tilescopeDevicePixelRatio, (), { return window.devicePixelRatio || 1; });
// The canvas's height: the window's less the strip of page tools under it (shell.html); in
// fullscreen the canvas alone fills the screen.
EM_JS(int, tilescopePageHeight, (), {
  const tools = document.getElementById('tools');
  const full = document.fullscreenElement || document.webkitFullscreenElement;
  return window.innerHeight - (tools && !full ? tools.offsetHeight : 0);
});

// The canvas's pixels, and GLFW's idea of its window: glfwSetWindowSize would take a size equal
// to the screen's for a request of fullscreen of its own, which moves the canvas into a new
// element and so ends the fullscreen the page asked for (emscripten 3.1.6, library_glfw.js).
EM_JS(void, tilescopeSizeCanvas, (int width, int height), {
  Browser.setCanvasSize(width, height, true);
  if (GLFW.active) {
    GLFW.active.width = width;
    GLFW.active.height = height;
  }
});

// The canvas keeps its pixels between frames (WebGL's preserveDrawingBuffer), so that a frame
// redraws only what changed (Window::drawPicture). emscripten's GLFW has no hint for it: the
// canvas's getContext adds it to the attributes GLFW asks for.
EM_JS(void, tilescopePreserveCanvas, (), {
  const canvas = Module.canvas;
  const getContext = canvas.getContext.bind(canvas);
  canvas.getContext = function(type, attributes) {
    return getContext(type, Object.assign({}, attributes, {preserveDrawingBuffer: true}));
  };
});

namespace tilescope::platform {
namespace {

int pageWidth() { return tilescopePageWidth(); }
int pageHeight() { return tilescopePageHeight(); }

}  // namespace

Result<std::unique_ptr<Window>> Window::open(const WindowOptions&) {
  std::unique_ptr<Window> w(new Window);
  if (!glfwInit()) return unavailable("this browser could not start the page's window (GLFW)");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // The canvas as the app needs it: colour only, opaque, one sample (emscripten's GLFW asks for
  // alpha, depth and stencil by default). Without alpha the browser composites the canvas as an
  // opaque layer; without depth and stencil there is nothing more to allocate and clear each
  // frame. Nothing draws with depth or stencil (ImGui and the grids turn both off); the PNG
  // export reads the frame right after drawing it, so the buffer need not be preserved.
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  glfwWindowHint(GLFW_SAMPLES, 0);
  tilescopePreserveCanvas();
  w->window_ = glfwCreateWindow(std::max(pageWidth(), 320), std::max(pageHeight(), 240), "tilescope", nullptr, nullptr);
  if (!w->window_) return unavailable("this browser gave the page no WebGL2 context (is WebGL turned off?)");
  glfwMakeContextCurrent(w->window_);
  w->pollEvents(false);  // the canvas's pixels at the screen's ratio before the first frame
  auto version = loadGlEntryPoints(nullptr);
  if (!version) return version.error();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  w->imguiGlfw_ = ImGui_ImplGlfw_InitForOpenGL(w->window_, true);
  w->imguiGl_ = ImGui_ImplOpenGL3_Init(imguiGlslVersion());
  if (!w->imguiGlfw_ || !w->imguiGl_) return unavailable("cannot start Dear ImGui's GLFW/OpenGL3 backends");
  listenToBrowser(w->window_);
  return w;
}

Window::~Window() {
  if (imguiGl_) ImGui_ImplOpenGL3_Shutdown();
  if (imguiGlfw_) ImGui_ImplGlfw_Shutdown();
  if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

// The browser delivers input between frames; here the canvas follows the browser window: its
// CSS size (the page's stylesheet sets it) times devicePixelRatio, read every frame, so a window
// moved to a screen of another ratio (or a browser zoom) gets a sharp canvas at its next frame.
void Window::pollEvents(bool) {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  pixelRatio_ = std::clamp(float(tilescopeDevicePixelRatio()), 0.25f, 8.0f);
  const int pw = int(std::lround(std::max(pageWidth(), 320) * pixelRatio_));
  const int ph = int(std::lround(std::max(pageHeight(), 240) * pixelRatio_));
  if (pw != w || ph != h) tilescopeSizeCanvas(pw, ph);
}

// A page never waits: the browser calls each frame.
void Window::waitEvents(double) { pollEvents(false); }
void Window::wake() {}

bool Window::closeRequested() const { return false; }

void Window::newImGuiFrame() {
  beforeImGuiFrame();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // Two frames in the same millisecond (a headless browser's virtual time) give 0: ImGui asserts.
  ImGuiIO& io = ImGui::GetIO();
  // emscripten's GLFW gives sizes and the pointer in canvas pixels: ImGui works in CSS pixels,
  // its OpenGL backend scales to the canvas's.
  if (pixelRatio_ != 1.0f) {
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(window_, &fw, &fh);
    io.DisplaySize = ImVec2(float(fw) / pixelRatio_, float(fh) / pixelRatio_);
    io.DisplayFramebufferScale = ImVec2(pixelRatio_, pixelRatio_);
    if (io.MousePos.x > -FLT_MAX / 2) io.MousePos = ImVec2(io.MousePos.x / pixelRatio_, io.MousePos.y / pixelRatio_);
  }
  if (io.DeltaTime <= 0.0f) io.DeltaTime = 1.0f / 1000.0f;
}

void Window::framebufferSize(int& width, int& height) const { glfwGetFramebufferSize(window_, &width, &height); }

// The browser grants fullscreen only inside a person's own event: the page asks for it in the
// F key's keydown and the Fullscreen button's click (browser_input_web.cpp, shell.html), and
// leaves it on Esc; a request from a frame would wait for an event that never comes. The canvas
// follows whichever the browser gives (pollEvents).
void Window::setFullscreen(bool want) { fullscreen_ = want; }

void Window::setTitle(const std::string& title) {
  if (title == title_) return;
  emscripten_set_window_title(title.c_str());
  title_ = title;
}

void Window::swapBuffers() {}  // the browser shows the canvas when the frame's callback returns

// The canvas keeps its pixels (tilescopePreserveCanvas), so a frame draws only the regions
// whose pixels change; a frame that issues no GL leaves the canvas as it is (the browser
// composites it again only once it is drawn). SwiftShader and the like pay for every pixel drawn.
bool Window::drawPicture(ImDrawData& data, const PictureKey& key, bool whole) {
  const std::vector<PixelRect> regions = picture_.changes(data, key);
  if (regions.empty() && !whole) {
    picture_.commit();
    return false;
  }
  const bool all = whole || regions.empty() || regions.front() == PixelRect{0, 0, key.width, key.height};
  const std::vector<PixelRect> bounds = all ? std::vector<PixelRect>{} : picture_.commandBounds();
  if (all || !drawPictureRegions(data, key, regions, &bounds)) drawWholePicture(data, key);
  picture_.commit();
  return true;
}

}  // namespace tilescope::platform
