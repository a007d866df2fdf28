// A page has one thread: a worker is a step function the frame loop calls between frames.
#include <emscripten.h>

#include <algorithm>
#include <vector>

#include "platform/worker_thread.h"

// A test that acts on the page between frames before a run arrives (a key, a dropped file) sets
// window.tilescopeHoldWork: the frames go on, the background work waits until it is cleared.
EM_JS(int, tilescopeWorkHeld, (), { return window.tilescopeHoldWork ? 1 : 0; });

namespace tilescope::platform {

struct WorkerThread::Impl {
  std::function<bool()> step;
  bool woken = true;  // the first slice runs the worker's start-up work
};

namespace {
std::vector<WorkerThread::Impl*>& workers() {
  static std::vector<WorkerThread::Impl*> all;
  return all;
}
}  // namespace

WorkerThread::WorkerThread(std::function<bool()> step) : impl_(std::make_unique<Impl>()) {
  impl_->step = std::move(step);
  workers().push_back(impl_.get());
}

WorkerThread::~WorkerThread() { std::erase(workers(), impl_.get()); }

void WorkerThread::wake() { impl_->woken = true; }

// Workers in the order they were made (the app makes its run worker first): a slice steps the
// first one that has work, and only when none before it had any does a later one step. So the
// run a person waits for is never held up by background work, and a frame follows a step of it
// at once: the timing worker's start-up (tracing the ladder's launches for the roofline, a
// second or more on a school laptop) runs only after the first picture is on screen.
void WorkerThread::runSlices(double budgetSeconds) {
  if (tilescopeWorkHeld()) return;
  const double start = emscripten_get_now();
  std::size_t first = 0;  // the first worker that had work in this slice
  for (bool any = true; any && emscripten_get_now() - start < budgetSeconds * 1000.0;) {
    any = false;
    const std::vector<Impl*> all = workers();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!all[i]->woken) continue;
      if (first == 0) first = i + 1;
      else if (i + 1 != first) break;  // a later worker waits for a slice of its own
      all[i]->woken = all[i]->step();  // a worker that found nothing to do sleeps until wake()
      any = all[i]->woken;
      break;
    }
  }
}

}  // namespace tilescope::platform
