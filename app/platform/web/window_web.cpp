// A page's window: the canvas, sized each frame to the browser window less the page's tools,
// with a WebGL2 context (emscripten's GLFW); fullscreen through the browser.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>

#include "platform/gl.h"
#include "platform/picture_draw.h"
#include "platform/window.h"

EM_JS(int, tilescopePageWidth, (), { return window.innerWidth; });
// The canvas's height: the window's less the strip of page tools under it (shell.html).
EM_JS(int, tilescopePageHeight, (), {
  const tools = document.getElementById('tools');
  return window.innerHeight - (tools ? tools.offsetHeight : 0);
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
  auto version = loadGlEntryPoints(nullptr);
  if (!version) return version.error();
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is fixed; nothing to remember
  w->imguiGlfw_ = ImGui_ImplGlfw_InitForOpenGL(w->window_, true);
  w->imguiGl_ = ImGui_ImplOpenGL3_Init(imguiGlslVersion());
  if (!w->imguiGlfw_ || !w->imguiGl_) return unavailable("cannot start Dear ImGui's GLFW/OpenGL3 backends");
  return w;
}

Window::~Window() {
  if (imguiGl_) ImGui_ImplOpenGL3_Shutdown();
  if (imguiGlfw_) ImGui_ImplGlfw_Shutdown();
  if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
  if (window_) glfwDestroyWindow(window_);
  glfwTerminate();
}

// The browser delivers input between frames; here the canvas follows the browser window.
void Window::pollEvents(bool) {
  int w = 0, h = 0;
  glfwGetWindowSize(window_, &w, &h);
  const int pw = std::max(pageWidth(), 320), ph = std::max(pageHeight(), 240);
  if (!fullscreen_ && (pw != w || ph != h)) glfwSetWindowSize(window_, pw, ph);
}

// A page never waits: the browser calls each frame.
void Window::waitEvents(double) { pollEvents(false); }
void Window::wake() {}

bool Window::closeRequested() const { return false; }

void Window::newImGuiFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // Two frames in the same millisecond (a headless browser's virtual time) give 0: ImGui asserts.
  ImGuiIO& io = ImGui::GetIO();
  if (io.DeltaTime <= 0.0f) io.DeltaTime = 1.0f / 1000.0f;
}

void Window::framebufferSize(int& width, int& height) const { glfwGetFramebufferSize(window_, &width, &height); }

void Window::setFullscreen(bool want) {
  if (want == fullscreen_) return;
  if (want) emscripten_request_fullscreen("#canvas", 1);
  else emscripten_exit_fullscreen();
  fullscreen_ = want;
}

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
