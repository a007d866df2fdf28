// The app's window: GLFW, its GL context and Dear ImGui's GLFW/OpenGL3 backends. On the
// desktop a window of its own (GL 3.3 core); in a page the canvas, filling the browser window
// (WebGL2), with fullscreen through the browser.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernels/result.h"
#include "platform/shown_picture.h"

struct GLFWwindow;

namespace tilescope::platform {

struct WindowOptions {
  int width = 1280, height = 800;  // the desktop's; a page's canvas fills the browser window
  bool interactive = true;         // a person at it (else: fixed size, no vsync)
};

class Window {
 public:
  // Opens the window, makes its context current, loads GL and starts ImGui with its backends.
  static Result<std::unique_ptr<Window>> open(const WindowOptions& options);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* glfw() const { return window_; }
  // Input: `wait` sleeps until input or a quarter second (the desktop, idle); a page never waits.
  void pollEvents(bool wait);
  // Sleeps until input, wake() or `seconds` (the desktop; a page never waits).
  void waitEvents(double seconds);
  // Ends a waitEvents() or an idle pollEvents() early; any thread may call it.
  static void wake();
  bool closeRequested() const;
  // ImGui's backends' NewFrame (DeltaTime is never 0: ImGui asserts on it).
  void newImGuiFrame();
  void framebufferSize(int& width, int& height) const;
  void setFullscreen(bool on);
  void setTitle(const std::string& title);
  void swapBuffers();
  // True when this frame's picture is exactly the one on screen (the last drawn frame's draw
  // lists, size, clear colour and grid redraw count): then a page issues no GL at all and the
  // browser keeps showing its canvas. Always false on the desktop, whose back buffer is
  // undefined after a swap. The caller draws anyway when it reads the frame's pixels.
  bool showsAlready(const ImDrawData& data, const PictureKey& key);

 private:
  Window() = default;
  GLFWwindow* window_ = nullptr;
  bool imguiGlfw_ = false, imguiGl_ = false, fullscreen_ = false;
  struct Placement {
    int x = 0, y = 0, width = 0, height = 0;
  } windowed_;  // the desktop's window before fullscreen
  std::string title_ = "tilescope";
  std::vector<unsigned char> shown_, next_;  // the picture on screen, this frame's (a page)
};

}  // namespace tilescope::platform
