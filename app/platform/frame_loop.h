// The app's frame loop as each target runs it, and what a page tells its host page.
#pragma once
#include <functional>
#include <string>

namespace tilescope::platform {

// Runs `frame` until it returns false, then `finish`, whose exit code it returns. On the
// desktop a plain loop. In a page the browser calls `frame` once per animation frame
// (emscripten_set_main_loop), background work (worker_thread.h) runs in slices between frames,
// and this function never returns: the page lives on after `finish` (its last picture stays).
// Keep what `frame` uses on the heap: in a page the caller's stack is gone.
int runFrameLoop(std::function<bool()> frame, std::function<int()> finish);

// A page sets window.tilescopeFirstFrame = performance.now() once (the first picture of a
// run is on screen); the desktop does nothing.
void announceFirstPicture();
// A page sets window.tilescopeScriptDone = {ok, message} (the script ended, or failed with
// message); the desktop does nothing (its exit code says it).
void announceScriptEnd(bool ok, const std::string& message);

}  // namespace tilescope::platform
