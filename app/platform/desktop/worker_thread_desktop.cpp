// A worker is a thread: it steps while there is work, then sleeps until woken.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "platform/worker_thread.h"

namespace tilescope::platform {

struct WorkerThread::Impl {
  std::function<bool()> step;
  std::mutex mutex;
  std::condition_variable wake;
  bool woken = true;  // the first pass runs at once (a worker's start-up work)
  bool stop = false;
  std::thread thread;  // last: starts after the members above exist

  void loop() {
    for (;;) {
      {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return stop || woken; });
        if (stop) return;
        woken = false;
      }
      // A wake() during these steps sets `woken` again: no request is missed.
      while (step()) {
        std::lock_guard lock(mutex);
        if (stop) return;
      }
    }
  }
};

WorkerThread::WorkerThread(std::function<bool()> step) : impl_(std::make_unique<Impl>()) {
  impl_->step = std::move(step);
  impl_->thread = std::thread([impl = impl_.get()] { impl->loop(); });
}

WorkerThread::~WorkerThread() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stop = true;
  }
  impl_->wake.notify_all();
  impl_->thread.join();
}

void WorkerThread::wake() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->woken = true;
  }
  impl_->wake.notify_all();
}

void WorkerThread::runSlices(double) {}

}  // namespace tilescope::platform
