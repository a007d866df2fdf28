// The one reader of a run's description (core/run/run_description.h): each setting read from the
// words the CLI, a lesson, a script and a page's address give it, in one set of words; a list as
// one word or several; the ranges checked or left to the plan.
#include <gtest/gtest.h>

#include "core/run/run_description.h"

namespace tilescope {
namespace {

LaunchConfig read(std::string_view name, std::vector<std::string> values, LaunchConfig c = {}) {
  Status s = readRunSetting(c, name, values);
  EXPECT_TRUE(s.ok()) << name << ": " << (s ? "" : s.error().message);
  return c;
}

std::string refusal(std::string_view name, std::vector<std::string> values, Ranges ranges = Ranges::Checked) {
  LaunchConfig c;
  Status s = readRunSetting(c, name, values, ranges);
  return s ? "" : s.error().message;
}

TEST(RunDescription, AListIsOneWordOrSeveral) {
  // The CLI's --dims 33,17,9, the address's dims=33x17x9 and a lesson's `set dims 33 17 9`.
  for (auto words : {std::vector<std::string>{"33,17,9"}, {"33x17x9"}, {"33", "17", "9"}})
    EXPECT_EQ(read("dims", words).dims, (Dims{33, 17, 9}));
  const LaunchConfig b = read("block", {"32x8"});
  EXPECT_EQ(b.blockX, 32);
  EXPECT_EQ(b.blockY, 8);
  EXPECT_EQ(read("block", {"7", "3"}).blockX, 7);
  EXPECT_EQ(read("size", {"64"}).dims, (Dims{64, 64, 64}));
  EXPECT_EQ(read("tile", {"16"}).tile, 16);
  EXPECT_EQ(read("grid-blocks", {"0"}).persistentBlocks, 0);
  EXPECT_EQ(read("seed", {"4294967296"}).seed, 4294967296ull);  // past 32 bits
}

TEST(RunDescription, AKernelKeepsOnlyATilingItIsBuiltFor) {
  LaunchConfig c = read("tiling", {"64x64x8/8x1"}, read("kernel", {"regtile-1d"}));
  EXPECT_FALSE(c.tiling.empty());
  c = read("kernel", {"tiled"}, c);
  EXPECT_EQ(c.kernel, KernelId::Tiled);
  EXPECT_TRUE(c.tiling.empty()) << "a kernel with no tilings asks none";
}

TEST(RunDescription, OneSetOfWordsNamingWhatASettingTakesAndWhatItGot) {
  EXPECT_EQ(refusal("tile", {"40"}), "takes a whole number from 1 to 32 (a T x T block holds at most 1024 threads), got '40'");
  EXPECT_EQ(refusal("tile", {"many"}), "takes a whole number from 1 to 32 (a T x T block holds at most 1024 threads), got 'many'");
  EXPECT_NE(refusal("kernel", {"fast"}).find("(unknown kernel): the kernels are naive, tiled,"), std::string::npos);
  EXPECT_NE(refusal("block", {"64x32"}).find("bx*by at most 1024 threads, got '64x32'"), std::string::npos);
  EXPECT_NE(refusal("dims", {"3,4"}).find("three whole numbers J,K,L"), std::string::npos);
  EXPECT_NE(refusal("grid-blocks", {"70000"}).find("0 to 65535"), std::string::npos);
  EXPECT_NE(refusal("seed", {"-1"}).find("0 or more, got '-1'"), std::string::npos);
  EXPECT_NE(refusal("tiling", {"8x8"}).find("BMxBNxBK/TMxTN"), std::string::npos);
  EXPECT_NE(refusal("colour", {"red"}).find("kernel, size, dims, tile, block, tiling, pad, grid-blocks, seed"),
            std::string::npos);
}

TEST(RunDescription, ASlidersRangeMayBeLeftToThePlan) {
  // A script's `set tile 33` is a person's slider: the plan refuses it, as the app does.
  EXPECT_EQ(refusal("tile", {"33"}, Ranges::LeftToThePlan), "");
  EXPECT_NE(refusal("tile", {"x"}, Ranges::LeftToThePlan), "") << "the form is still the reader's";
  LaunchConfig c;
  ASSERT_TRUE(readRunSetting(c, "tile", {"33"}, Ranges::LeftToThePlan).ok());
  auto plan = planLaunch(c, false);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().message.find("tile width 33 is out of range: it must be 1 to 32"), std::string::npos);
}

}  // namespace
}  // namespace tilescope
