// A desktop window: GLFW with a GL 3.3 core context (glad), ImGui's GLFW/OpenGL3 backends.
// glad's header first: it refuses to follow another GL header (GLFW's).
#include "platform/gl.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "platform/picture_draw.h"
#include "platform/window.h"

namespace tilescope::platform {
namespace {

std::string g_glfwError;  // GLFW reports errors through a C callback with no user pointer

void onGlfwError(int, const char* description) { g_glfwError = description ? description : "unknown GLFW error"; }

}  // namespace

Result<std::unique_ptr<Window>> Window::open(const WindowOptions& options) {
  std::unique_ptr<Window> w(new Window);
  glfwSetErrorCallback(onGlfwError);
  if (!glfwInit())
    return unavailable("cannot open a window (no display?): " + g_glfwError +
                       "\n  run under a desktop session, or headless with: xvfb-run -s \"-screen 0 1280x800x24\" tilescope ...");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (!options.interactive) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
  w->window_ = glfwCreateWindow(options.width, options.height, "tilescope", nullptr, nullptr);
  if (!w->window_) return unavailable("cannot create an OpenGL 3.3 core window: " + g_glfwError);
  glfwMakeContextCurrent(w->window_);
  // Scripts and reports measure our frame time, not the display's refresh.
  glfwSwapInterval(options.interactive ? 1 : 0);
  auto version = loadGlEntryPoints(reinterpret_cast<GlProcLoader>(glfwGetProcAddress));
  if (!version) return version.error();
  if (!glVersionSuffices(*version)) {
    const auto* v = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return unavailable(std::string(requiredGl()) + " is required, the driver offers " + (v ? v : "?") + " (" +
                       (r ? r : "?") + ")");
  }
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

void Window::pollEvents(bool wait) {
  if (wait) glfwWaitEventsTimeout(0.25);  // idle: sleep until input
  else glfwPollEvents();
}

void Window::waitEvents(double seconds) { glfwWaitEventsTimeout(seconds); }

void Window::wake() { glfwPostEmptyEvent(); }

bool Window::closeRequested() const { return glfwWindowShouldClose(window_); }

void Window::newImGuiFrame() {
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
}

void Window::framebufferSize(int& width, int& height) const { glfwGetFramebufferSize(window_, &width, &height); }

void Window::setFullscreen(bool want) {
  if (want == fullscreen_) return;
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (want && mode) {
    glfwGetWindowPos(window_, &windowed_.x, &windowed_.y);
    glfwGetWindowSize(window_, &windowed_.width, &windowed_.height);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else if (!want) {
    glfwSetWindowMonitor(window_, nullptr, windowed_.x, windowed_.y, windowed_.width, windowed_.height, 0);
  }
  fullscreen_ = want;
}

void Window::setTitle(const std::string& title) {
  if (title == title_) return;
  glfwSetWindowTitle(window_, title.c_str());
  title_ = title;
}

void Window::swapBuffers() { glfwSwapBuffers(window_); }

// Every frame drawn is drawn whole: after a swap the back buffer's contents are undefined. An
// unwatched window draws only a frame whose pixels are read; the frame loop then does not swap.
bool Window::drawPicture(ImDrawData& data, const PictureKey& key, bool whole) {
  if (!watched_ && !whole) return false;
  drawWholePicture(data, key);
  return true;
}

}  // namespace tilescope::platform
