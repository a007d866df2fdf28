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

void WorkerThread::runSlices(double budgetSeconds) {
  if (tilescopeWorkHeld()) return;
  const double start = emscripten_get_now();
  for (bool any = true; any && emscripten_get_now() - start < budgetSeconds * 1000.0;) {
    any = false;
    for (Impl* w : std::vector<Impl*>(workers())) {
      if (!w->woken) continue;
      w->woken = w->step();  // a worker that found nothing to do sleeps until wake()
      any = any || w->woken;
    }
  }
}

}  // namespace tilescope::platform
