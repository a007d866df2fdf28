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
  // Framebuffer pixels per layout unit: a page's devicePixelRatio (2 on a Retina screen, 1.25 on
  // a scaled Windows one), whose canvas holds that many pixels per CSS pixel while ImGui lays
  // out in CSS pixels (its DisplaySize) and the fonts are rasterised at the ratio; 1 on the
  // desktop.
  float pixelRatio() const { return pixelRatio_; }
  void setFullscreen(bool on);
  void setTitle(const std::string& title);
  void swapBuffers();
  // Draws this frame's ImGui picture into the window's framebuffer on a clear of
  // key.background. The desktop draws it whole (its back buffer is undefined after a swap),
  // every frame while watched (setWatched). A page's canvas keeps its pixels between frames
  // (preserveDrawingBuffer), so a page draws only the regions whose pixels change
  // (PictureTracker: exact, command by command) and nothing at all when the picture is the one
  // on screen; `whole` (a frame whose pixels are read) draws all of it. False when nothing was
  // drawn.
  bool drawPicture(ImDrawData& data, const PictureKey& key, bool whole);
  // Whether anyone looks at the window's frames. Unwatched (a script with no person at it,
  // timing nothing), the desktop draws only the frames whose pixels are read
  // (`whole`) and lays the others out without rasterising them: a software rasteriser pays for
  // every pixel. A page's canvas is on the screen of whoever opened it, so a page draws anyway.
  void setWatched(bool watched) { watched_ = watched; }

 private:
  Window() = default;
  GLFWwindow* window_ = nullptr;
  bool imguiGlfw_ = false, imguiGl_ = false, fullscreen_ = false, watched_ = true;
  float pixelRatio_ = 1.0f;
  struct Placement {
    int x = 0, y = 0, width = 0, height = 0;
  } windowed_;  // the desktop's window before fullscreen
  std::string title_ = "tilescope";
  PictureTracker picture_;  // what the canvas shows (a page)
};

}  // namespace tilescope::platform
