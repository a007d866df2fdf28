// The finished run (app/core/finished): one plan, one verification whose wrong cells the views
// use, and the timeline only where asked; the one way the app, the CLI and the lab get a run.
#include <gtest/gtest.h>

#include <cmath>

#include "core/finished/finished_run.h"
#include "test_support.h"

namespace tilescope {
namespace {

TEST(FinishedRun, TheVerificationMarksExactlyTheElementsMadeWrong) {
  auto emulator = makeEmulatorBackend();
  auto run = executeRun(*emulator, testing::tiledConfig(KernelId::Tiled, {8, 8, 8}, 4, testing::freshSeed()), true);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_TRUE(run->verification.passed);
  // Two elements spoiled by hand: one off by far more than the tolerance, one not a number.
  run->p.at(2, 3) += 100.0f;
  run->p.at(7, 0) = std::nanf("");
  run->verification = verifyProduct(run->m, run->n, run->p);
  const auto finished = finishRun(std::move(*run));
  const Verification& v = finished->run.verification;
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.wrong, 2);
  ASSERT_EQ(v.wrongCells.size(), 64u);
  int marked = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) marked += finished->wrongAt(r, c);
  EXPECT_EQ(marked, 2);
  EXPECT_TRUE(finished->wrongAt(2, 3));
  EXPECT_TRUE(finished->wrongAt(7, 0));
}

TEST(FinishedRun, TracedRunsGetTheirTimelineAndBoundsReportUntracedNone) {
  auto emulator = makeEmulatorBackend();
  // Fig. 5.9 without boundary checks on the 3 x 3 example of fig. 5.11 with T = 2: its loads
  // leave the matrices, which the bounds report names.
  const LaunchConfig book = testing::tiledConfig(KernelId::Tiled, {3, 3, 3}, 2, testing::freshSeed());
  auto traced = runAndFinish(*emulator, book, RunOptions{});
  ASSERT_TRUE(traced.ok()) << traced.error().message;
  EXPECT_TRUE((*traced)->hasTimeline);
  EXPECT_FALSE((*traced)->outOfBounds.empty());
  EXPECT_GT((*traced)->timeline.steps(), 0);

  RunOptions plain;
  plain.tracing = Tracing::Off;
  auto untraced = runAndFinish(*emulator, book, plain);
  ASSERT_TRUE(untraced.ok()) << untraced.error().message;
  EXPECT_FALSE((*untraced)->run.trace.has_value());
  EXPECT_FALSE((*untraced)->hasTimeline);
  EXPECT_TRUE((*untraced)->outOfBounds.empty()) << "no trace, no report";

  auto noTimeline = runAndFinish(*emulator, book, RunOptions{}, FinishOptions{.timeline = false, .startedAt = std::nullopt});
  ASSERT_TRUE(noTimeline.ok());
  EXPECT_FALSE((*noTimeline)->hasTimeline);
  EXPECT_EQ((*noTimeline)->outOfBounds.size(), (*traced)->outOfBounds.size());
}

TEST(FinishedRun, ATraceOverTheCallersLimitIsRefusedWithBothFiguresOrRunPlainWhenAllowed) {
  auto emulator = makeEmulatorBackend();
  // tiled 64^3 with T = 16: 16 blocks of 256 threads, each with 4 phases of 4 + 2 x 16 events
  // and the store: 4096 x 145 = 593920 events, over a limit of 2^19 = 524288.
  const LaunchConfig c = testing::tiledConfig(KernelId::Tiled, {64, 64, 64}, 16, testing::freshSeed());
  RunOptions small;
  small.maxTraceEvents = uint64_t(1) << 19;
  small.overLimitHint = "pick a smaller size";
  auto refused = executeRun(*emulator, c, small);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::InvalidInput);
  EXPECT_NE(refused.error().message.find("would need 593920 events"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("over the 524288 kept here"), std::string::npos) << refused.error().message;
  EXPECT_NE(refused.error().message.find("pick a smaller size"), std::string::npos);

  small.tracing = Tracing::IfItFits;
  auto plain = executeRun(*emulator, c, small);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_FALSE(plain->trace.has_value());
  EXPECT_TRUE(plain->verification.passed) << plain->verification.summary();
}

}  // namespace
}  // namespace tilescope
