// A page's frame loop: the browser calls one frame per animation frame; background work runs
// in slices after it. What the host page (and the browser tests) read is set on window.
#include <emscripten.h>
#include <malloc.h>

#include <cstdio>

#include "platform/frame_loop.h"
#include "platform/worker_thread.h"

// What the host page (and the browser tests) read.
EM_JS(void, tilescopeSetFirstFrame, (), { window.tilescopeFirstFrame = performance.now(); });
EM_JS(void, tilescopeSetScriptDone, (int ok, const char* message),
      { window.tilescopeScriptDone = {ok: ok != 0, message: UTF8ToString(message)}; });
// Frames drawn so far: what a test waits on after a key press or a dropped file, instead of a
// fixed sleep (the app sees input at its next frame).
// The first one also takes the shell's loading text away (window.tilescopeStarted).
EM_JS(void, tilescopeCountFrame, (), {
  window.tilescopeFrames = (window.tilescopeFrames || 0) + 1;
  if (window.tilescopeFrames === 1 && window.tilescopeStarted) window.tilescopeStarted();
});

// The bytes malloc has handed out and not taken back, beside the heap's size (which never
// shrinks): the web benchmark's lesson walk reads both (Module._tilescopeHeapInUse()).
extern "C" EMSCRIPTEN_KEEPALIVE unsigned tilescopeHeapInUse() { return unsigned(mallinfo().uordblks); }

namespace tilescope::platform {
namespace {

// Background work per animation frame: a slice the size of a frame at 60 Hz less drawing time.
constexpr double kSliceSeconds = 0.010;

struct Loop {
  std::function<bool()> frame;
  std::function<int()> finish;
};
Loop* g_loop = nullptr;  // the page's one loop; lives as long as the page

void tick() {
  if (!g_loop->frame()) {
    emscripten_cancel_main_loop();
    const int code = g_loop->finish();
    std::printf("tilescope: the session ended (exit code %d)\n", code);
    return;
  }
  tilescopeCountFrame();
  WorkerThread::runSlices(kSliceSeconds);
}

}  // namespace

int runFrameLoop(std::function<bool()> frame, std::function<int()> finish) {
  g_loop = new Loop{std::move(frame), std::move(finish)};
  emscripten_set_main_loop(tick, 0, 1);  // does not return
  return 0;
}

void announceFirstPicture() {
  static bool done = false;
  if (done) return;
  done = true;
  tilescopeSetFirstFrame();
}

void announceScriptEnd(bool ok, const std::string& message) {
  static bool done = false;
  if (done) return;
  done = true;
  tilescopeSetScriptDone(ok ? 1 : 0, message.c_str());
}

}  // namespace tilescope::platform
