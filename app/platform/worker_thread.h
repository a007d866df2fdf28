// Work off the frame: on the desktop a thread of its own; in a page (single-threaded: no
// pthreads without cross-origin isolation) slices run between animation frames on the one
// thread. The owner's step() does one piece of work (one run, one analysis, one sweep) and
// says whether it did any; it must not block waiting for work (wake() says there is some).
#pragma once
#include <functional>
#include <memory>

namespace tilescope::platform {

class WorkerThread {
 public:
  // Starts at once, calling step() until it returns false, then waits for wake().
  explicit WorkerThread(std::function<bool()> step);
  ~WorkerThread();  // lets the running step end, then stops
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;

  void wake();  // there may be work: step() again

  // A page's frame loop calls this between frames: steps of the first worker (in the order they
  // were made) that has work, for up to about `budgetSeconds` (at least one step); a later worker
  // steps in a slice where none before it has work. The desktop's threads need none.
  static void runSlices(double budgetSeconds);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace tilescope::platform
