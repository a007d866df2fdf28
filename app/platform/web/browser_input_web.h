// The browser's input for the page's window (window_web.cpp): the wheel in the browser's
// direction and distance, the app's keys kept from the browser's defaults (F1, F5, Space,
// arrows) while its other shortcuts work, fullscreen on F inside the key's event, touches as the
// mouse, and key taps shorter than a frame seen.
#pragma once

struct GLFWwindow;

namespace tilescope::platform {

// Once, after ImGui's GLFW backend has installed its callbacks.
void listenToBrowser(GLFWwindow* window);
// Each frame, before ImGui's backends start it: releases held back from the last frame go in.
void beforeImGuiFrame();

}  // namespace tilescope::platform
