// BlockTimeline (timeline.h): one block's events by step and its threads' states at a cursor,
// built on the steps Timeline (timeline.cpp) cut the whole trace into.
#include "core/timeline/timeline.h"

#include <algorithm>

#include "core/timeline/block_geometry.h"
#include "core/timeline/step_keys.h"
#include "core/trace/memory_layout.h"

namespace tilescope {

BlockTimeline BlockTimeline::build(const Timeline& timeline, int bx, int by) {
  BlockTimeline b;
  b.timeline_ = &timeline;
  b.bx_ = bx;
  b.by_ = by;
  b.threads_ = timeline.threadsPerBlock();
  const auto& events = timeline.trace().events;
  const unsigned blockX = timeline.trace().launch.blockX;
  const auto [first, last] = timeline.blockRange(bx, by);
  const std::size_t nSteps = std::size_t(timeline.steps());

  // Counting sort of the block's events by step; stable, so canonical order survives.
  std::vector<int> stepOf(last - first);
  timeline_detail::KeyWalker walker(timeline.keySpan(), b.threads_, timeline.realOrder(), timeline.phaseSpan());
  walker.startBlock();
  b.stepBegin_.assign(nSteps + 1, 0);
  for (std::size_t i = first; i < last; ++i) {
    const Event& e = events[i];
    const int s = timeline.stepOfKey(walker.key(e, linearThread(e, blockX)));
    stepOf[i - first] = s;
    ++b.stepBegin_[std::size_t(s) + 1];
  }
  for (std::size_t s = 0; s < nSteps; ++s) b.stepBegin_[s + 1] += b.stepBegin_[s];
  b.order_.resize(last - first);
  std::vector<uint32_t> fill(b.stepBegin_.begin(), b.stepBegin_.end() - 1);
  b.activity_.assign(nSteps * std::size_t(b.threads_), ThreadState::Idle);
  b.arrivals_.assign(nSteps, 0);
  std::vector<char> loads(nSteps, 0);
  for (std::size_t i = first; i < last; ++i) {
    const std::size_t s = std::size_t(stepOf[i - first]);
    b.order_[fill[s]++] = uint32_t(i);
    const Event& e = events[i];
    // The thread's last event in the step (program order) is what it is doing after it.
    b.activity_[s * std::size_t(b.threads_) + std::size_t(linearThread(e, blockX))] = activityOf(e);
    if (e.op == Op::Barrier) ++b.arrivals_[s];
    if (e.op == Op::LoadM || e.op == Op::LoadN) loads[s] = 1;
  }
  b.loadStepAt_.assign(nSteps, -1);
  b.before_.assign(nSteps * std::size_t(b.threads_), ThreadState::Idle);
  b.arrivedBefore_.assign(nSteps, 0);
  for (std::size_t s = 0; s < nSteps; ++s) {
    b.loadStepAt_[s] = loads[s] ? int(s) : (s > 0 ? b.loadStepAt_[s - 1] : -1);
    // In real order the arrivals of one interval are spread over its threads' steps.
    if (s > 0 && timeline.step(int(s)).interval == timeline.step(int(s) - 1).interval)
      b.arrivedBefore_[s] = b.arrivedBefore_[s - 1] + b.arrivals_[s - 1];
    if (s + 1 == nSteps) break;
    const bool released = b.arrivals_[s] > 0 && b.arrivedBefore_[s] + b.arrivals_[s] == b.threads_;
    for (std::size_t t = 0; t < std::size_t(b.threads_); ++t) {
      ThreadState a = b.activity_[s * b.threads_ + t];
      if (a == ThreadState::Idle) a = b.before_[s * b.threads_ + t];  // waiting since an earlier step
      if (a == ThreadState::Waiting && released) a = ThreadState::Released;
      b.before_[(s + 1) * b.threads_ + t] = a;
    }
  }
  return b;
}

std::span<const uint32_t> BlockTimeline::stepEvents(int s) const {
  if (s < 0 || s + 1 >= int(stepBegin_.size())) return {};
  return std::span<const uint32_t>(order_).subspan(stepBegin_[std::size_t(s)],
                                                   stepBegin_[std::size_t(s) + 1] - stepBegin_[std::size_t(s)]);
}

ThreadState BlockTimeline::threadState(Cursor c, int thread) const {
  c = timeline_->normalize(c);
  const std::size_t row = std::size_t(c.step) * std::size_t(threads_);
  const ThreadState a = activity_[row + std::size_t(thread)];
  const ThreadState now = a != ThreadState::Idle && thread < c.threads ? a : before_[row + std::size_t(thread)];
  // Everyone has arrived only when the whole block is past this barrier step; in real order
  // that releases the threads that arrived in earlier steps too.
  const bool released = arrivals_[std::size_t(c.step)] > 0 && c.threads == threads_ &&
                        arrivedBefore_[std::size_t(c.step)] + arrivals_[std::size_t(c.step)] == threads_;
  return now == ThreadState::Waiting && released ? ThreadState::Released : now;
}

int BlockTimeline::barrierArrivals(Cursor c) const {
  c = timeline_->normalize(c);
  if (timeline_->step(c.step).kind != StepKind::Barrier) return -1;
  const std::size_t row = std::size_t(c.step) * std::size_t(threads_);
  int n = arrivedBefore_[std::size_t(c.step)];
  for (int t = 0; t < c.threads; ++t) n += activity_[row + std::size_t(t)] == ThreadState::Waiting;
  return n;
}

int64_t BlockTimeline::currentEvent(Cursor c) const {
  c = timeline_->normalize(c);
  const auto& events = timeline_->trace().events;
  const unsigned blockX = timeline_->trace().launch.blockX;
  for (int s = c.step; s >= 0; --s) {
    const auto span = stepEvents(s);
    for (std::size_t i = span.size(); i-- > 0;)
      if (timeline_->done(c, s, linearThread(events[span[i]], blockX))) return span[i];
  }
  return -1;
}

int64_t BlockTimeline::lastEventAt(Cursor c, std::span<const Op> ops, int row, int col) const {
  c = timeline_->normalize(c);
  const auto& events = timeline_->trace().events;
  const unsigned blockX = timeline_->trace().launch.blockX;
  for (int s = c.step; s >= 0; --s) {
    const auto span = stepEvents(s);
    for (std::size_t i = span.size(); i-- > 0;) {
      const Event& e = events[span[i]];
      if (!touchesElement(e, row, col)) continue;
      if (std::find(ops.begin(), ops.end(), e.op) == ops.end()) continue;
      if (timeline_->done(c, s, linearThread(e, blockX))) return span[i];
    }
  }
  return -1;
}

}  // namespace tilescope
