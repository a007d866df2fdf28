// A large launch's first phase first (app/ui/workers/run_worker.h, firstPictureFirst): a slider
// change at 64^3 and up hands over a first picture, every block run to its second barrier (at
// 128^3 T = 32, its first), then the whole run, which replaces it. What it guarantees: the first picture holds exactly the
// events of phase 0 that the whole run has (the same fields, in the same order), counted by
// hand; it says it is partial and is neither verified nor called wrong; the whole run that
// follows is verified and puts the cursor back where it was; a small launch comes whole at once.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "ui/model/controls_view.h"
#include "ui/state/apply_intents.h"

namespace tilescope::ui {
namespace {

using namespace std::chrono_literals;

LaunchConfig tiled(int n, int tile) {
  LaunchConfig c;
  c.kernel = KernelId::Tiled;
  c.dims = {n, n, n};
  c.tile = tile;
  c.seed = 11;
  return c;
}

// Frames without a window: every run the worker hands over, in the order the app sees them.
std::vector<std::shared_ptr<const LoadedRun>> picturesOf(AppState& state, RunWorker& worker, int& newPictures) {
  std::vector<std::shared_ptr<const LoadedRun>> seen;
  const std::shared_ptr<const LoadedRun> before = state.shown.loaded;  // the picture already on screen
  const auto deadline = std::chrono::steady_clock::now() + 120s;
  while (std::chrono::steady_clock::now() < deadline) {
    applyIntents(state, worker);
    newPictures += collectRun(state, worker) ? 1 : 0;
    const auto& shown = state.shown.loaded;
    if (shown && shown != before && (seen.empty() || seen.back() != shown)) seen.push_back(shown);
    if (state.request.generation == state.request.shownGeneration && worker.idle()) return seen;
    std::this_thread::sleep_for(1ms);
  }
  ADD_FAILURE() << "the worker did not answer within 120 s";
  return seen;
}

// The app without a window: a slider change as it makes one, and every picture that follows.
struct Session {
  AppState state;
  RunWorker worker;
  int newPictures = 0;
  std::vector<std::shared_ptr<const LoadedRun>> change(const LaunchConfig& config) {
    state.intents.push_back(SetConfig{config});
    return picturesOf(state, worker, newPictures);
  }
};

bool sameEvent(const Event& a, const Event& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The whole run's events of the first `barriers` barrier intervals of every block, in order.
std::vector<Event> firstIntervals(const Trace& trace, int barriers) {
  std::vector<Event> out;
  const KernelLaunch& L = trace.launch;
  const int threads = int(L.blockX * L.blockY);
  int bx = -1, by = -1, arrivals = 0;
  for (const Event& e : trace.events) {
    if (e.blockX != bx || e.blockY != by) bx = e.blockX, by = e.blockY, arrivals = 0;
    if (arrivals >= barriers * threads) continue;
    out.push_back(e);
    arrivals += e.op == Op::Barrier;
  }
  return out;
}

TEST(FirstPicture, Tiled64T16_ShowsPhase0ThenTheWholeRun) {
  Session app;
  const auto seen = app.change(tiled(64, 16));
  ASSERT_EQ(seen.size(), 2u) << "a first picture, then the whole run";
  const LoadedRun& first = *seen[0];
  const LoadedRun& whole = *seen[1];
  EXPECT_EQ(app.newPictures, 1) << "one change, one new picture: the whole run replaces its first picture";

  ASSERT_TRUE(first.partial.has_value());
  EXPECT_EQ(first.partial->phasesShown, 1);
  EXPECT_EQ(first.partial->phasesTotal, 4);  // k / T = 64 / 16
  EXPECT_EQ(partialNote(first), "phase 0 of phases 0 to 3 shown, the rest running");
  const std::string runLine = controlsView(first, 0).runLine;
  EXPECT_NE(runLine.find("not verified yet"), std::string::npos) << runLine;
  EXPECT_EQ(runLine.find("WRONG"), std::string::npos) << runLine;
  EXPECT_EQ(first.run.outcome.blocksStopped, 16u);  // a 4 x 4 grid, every block stopped

  // Hand count: 16 blocks x 256 threads, each loading 2 elements, reading 2 x 16 from shared
  // memory and arriving at 2 barriers in phase 0: 36 events, no store.
  ASSERT_TRUE(first.run.trace);
  EXPECT_EQ(first.run.trace->events.size(), 16u * 256u * (2 + 32 + 2));
  std::size_t stores = 0;
  for (const Event& e : first.run.trace->events) stores += e.op == Op::StoreP;
  EXPECT_EQ(stores, 0u);

  // The same events, field by field (phase, k, clock, value), as the whole run's phase 0.
  ASSERT_FALSE(whole.partial.has_value());
  EXPECT_TRUE(whole.run.verification.passed);
  ASSERT_TRUE(whole.run.trace);
  EXPECT_EQ(first.partial->barriers, 2);
  const std::vector<Event> expected = firstIntervals(*whole.run.trace, 2);
  ASSERT_EQ(first.run.trace->events.size(), expected.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) differing += !sameEvent(first.run.trace->events[i], expected[i]);
  EXPECT_EQ(differing, 0u);
  for (const Event& e : first.run.trace->events) ASSERT_EQ(e.phase, 0);

  EXPECT_EQ(first.timeline.phasesDone(first.timeline.end()), 1);
  EXPECT_EQ(whole.timeline.phasesDone(whole.timeline.end()), 4);
}

// 128^3 at T = 32: phase 0 alone would be 16 x 1024 x 68 events; the first picture stops at the
// first barrier, phase 0's tiles loaded: 16 blocks x 1024 threads x (2 loads + 1 arrival).
TEST(FirstPicture, Tiled128T32_ShowsPhase0sTilesLoaded) {
  Session app;
  const auto seen = app.change(tiled(128, 32));
  ASSERT_EQ(seen.size(), 2u);
  const LoadedRun& first = *seen[0];
  ASSERT_TRUE(first.partial.has_value());
  EXPECT_EQ(first.partial->barriers, 1);
  EXPECT_EQ(partialNote(first), "the tiles of phase 0 of phases 0 to 3 shown, its k steps and the rest running");
  ASSERT_TRUE(first.run.trace);
  EXPECT_EQ(first.run.trace->events.size(), 16u * 1024u * 3u);
  std::size_t loads = 0, reads = 0;
  for (const Event& e : first.run.trace->events) loads += readsGlobal(e), reads += e.op == Op::ReadM || e.op == Op::ReadN;
  EXPECT_EQ(loads, 16u * 1024u * 2u);
  EXPECT_EQ(reads, 0u);
  const std::vector<Event> expected = firstIntervals(*seen[1]->run.trace, 1);
  ASSERT_EQ(expected.size(), first.run.trace->events.size());
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_TRUE(sameEvent(first.run.trace->events[i], expected[i])) << i;
  EXPECT_TRUE(seen[1]->run.verification.passed);
}

TEST(FirstPicture, TheCursorComesBackWhereItWasAfterTheWholeRun) {
  Session app;
  app.change(tiled(64, 16));
  // At the end of the run (P stored): a slider change shows the end of phase 0 first, then the end.
  app.state.shown.cursor = app.state.shown.loaded->timeline.end();
  const auto seen = app.change(tiled(64, 8));
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[0]->partial.has_value());
  EXPECT_EQ(seen[0]->partial->phasesTotal, 8);
  EXPECT_TRUE(app.state.shown.loaded->timeline.atEnd(app.state.shown.cursor));
  EXPECT_FALSE(app.state.shown.loaded->partial.has_value());
}

TEST(FirstPicture, ASmallLaunchComesWholeAtOnce) {
  Session app;
  const auto seen = app.change(tiled(32, 16));
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_FALSE(seen[0]->partial.has_value());
  EXPECT_TRUE(seen[0]->run.verification.passed);
  EXPECT_EQ(app.newPictures, 1);
}

}  // namespace
}  // namespace tilescope::ui
