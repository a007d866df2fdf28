// What a page redraws of its picture (app/platform/shown_picture.h): nothing when a frame's
// draw lists are the same, only the region of a window whose text changed, the region of an
// image whose texture was drawn anew, everything when the windows change; and the scissor box
// of a command restricted to a region as ImGui's OpenGL3 backend computes it, checked by hand.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "platform/shown_picture.h"

namespace tilescope::platform {
namespace {

constexpr int kW = 640, kH = 480;

class PictureTrackerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(kW, kH);
    io.Fonts->Build();
    io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(std::intptr_t(1)));
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // Two windows side by side: "left" at x 0-200 (its text, and an image of texture 7 when
  // `image`), "right" at x 300-500 (its text).
  ImDrawData* frame(const std::string& left, const std::string& right, bool image = false) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    const auto flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(200, 100));
    ImGui::Begin("left", nullptr, flags);
    ImGui::TextUnformatted(left.c_str());
    if (image) ImGui::Image(reinterpret_cast<ImTextureID>(std::intptr_t(7)), ImVec2(40, 20));
    ImGui::End();
    ImGui::SetNextWindowPos(ImVec2(300, 0));
    ImGui::SetNextWindowSize(ImVec2(200, 100));
    ImGui::Begin("right", nullptr, flags);
    ImGui::TextUnformatted(right.c_str());
    ImGui::End();
    ImGui::Render();
    return ImGui::GetDrawData();
  }

  PictureTracker tracker;
  const PictureKey key{kW, kH, 0xff202020u, 0};
};

TEST_F(PictureTrackerTest, FirstFrameWholeThenNothingWhenTheSame) {
  auto first = tracker.changes(*frame("a", "b"), key);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], (PixelRect{0, 0, kW, kH}));
  tracker.commit();
  EXPECT_TRUE(tracker.changes(*frame("a", "b"), key).empty());
  tracker.commit();
}

TEST_F(PictureTrackerTest, ChangedTextRedrawsOnlyItsWindow) {
  tracker.changes(*frame("a", "b"), key);
  tracker.commit();
  auto regions = tracker.changes(*frame("a", "bb"), key);
  ASSERT_FALSE(regions.empty());
  for (const PixelRect& r : regions) {
    EXPECT_GE(r.x0, 299) << "the left window (x < 200) is not redrawn";
    EXPECT_LE(r.x1, 501);
    EXPECT_LE(r.y1, 101);
  }
  tracker.commit();
}

TEST_F(PictureTrackerTest, RedrawnTextureRedrawsTheImageShowingIt) {
  tracker.changes(*frame("a", "b", true), key);
  tracker.commit();
  EXPECT_TRUE(tracker.changes(*frame("a", "b", true), key).empty());
  tracker.commit();
  noteTextureRedrawn(reinterpret_cast<ImTextureID>(std::intptr_t(7)));
  auto regions = tracker.changes(*frame("a", "b", true), key);
  ASSERT_EQ(regions.size(), 1u);
  // The image: 40 x 20 px inside the left window, a pixel wider each side.
  EXPECT_LE(regions[0].x1, 200);
  EXPECT_LE(regions[0].area(), 44 * 24);
  EXPECT_GE(regions[0].area(), 40 * 20);
  tracker.commit();
  EXPECT_TRUE(tracker.changes(*frame("a", "b", true), key).empty()) << "the note is taken once";
}

TEST_F(PictureTrackerTest, AnotherClearColourOrSizeRedrawsAll) {
  tracker.changes(*frame("a", "b"), key);
  tracker.commit();
  PictureKey other = key;
  other.background = 0xff000000u;
  auto regions = tracker.changes(*frame("a", "b"), other);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0], (PixelRect{0, 0, kW, kH}));
}

TEST(MergeRegions, TouchingMergeDisjointStayThenFewestPixelsAdded) {
  auto touching = mergeRegions({{0, 0, 10, 10}, {10, 0, 20, 10}}, 6);
  ASSERT_EQ(touching.size(), 1u);
  EXPECT_EQ(touching[0], (PixelRect{0, 0, 20, 10}));
  EXPECT_EQ(mergeRegions({{0, 0, 10, 10}, {50, 50, 60, 60}}, 6).size(), 2u);
  // Three apart, room for two: the two nearest (adding 10x10 between them) merge.
  auto two = mergeRegions({{0, 0, 10, 10}, {20, 0, 30, 10}, {200, 200, 210, 210}}, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0], (PixelRect{0, 0, 30, 10}));
  EXPECT_EQ(two[1], (PixelRect{200, 200, 210, 210}));
}

// The backend scissors [10, 19) for a clip x of 10.7..20.2 (x = int(10.7), w = int(9.5)); within
// the region [0, 15) that is [10, 15). Rows: clip y 2.5..30.5 in a 100-row framebuffer gives
// glScissor y = int(69.5) = 69, h = int(28) = 28: rows 100-69-28 = 3 to 31 from the top.
TEST(ClipToRegion, TheBackendsScissorBoxWithinTheRegion) {
  ImGui::CreateContext();
  ImGui::GetIO().Fonts->Build();
  ImDrawList list(ImGui::GetDrawListSharedData());
  list._ResetForNewFrame();
  list.PushClipRect(ImVec2(10.7f, 2.5f), ImVec2(20.2f, 30.5f));
  list.AddRectFilled(ImVec2(0, 0), ImVec2(50, 50), IM_COL32_WHITE);
  list.PopClipRect();
  ImDrawList* lists[] = {&list};
  ImDrawData data;
  data.Valid = true;
  data.CmdLists = lists;
  data.CmdListsCount = 1;
  data.DisplayPos = ImVec2(0, 0);
  data.DisplaySize = ImVec2(100, 100);
  data.FramebufferScale = ImVec2(1, 1);
  std::vector<ImVec4> saved;
  std::vector<ImDrawList*> drawn;
  ASSERT_TRUE(clipToRegion(data, {0, 0, 15, 100}, 100, saved, drawn));
  ASSERT_EQ(drawn.size(), 1u);
  const ImVec4 c = list.CmdBuffer[0].ClipRect;
  EXPECT_EQ(c.x, 10.0f);
  EXPECT_EQ(c.z, 15.0f);
  EXPECT_EQ(c.y, 3.0f);
  EXPECT_EQ(c.w, 31.0f);
  restoreClips(data, saved);
  EXPECT_EQ(list.CmdBuffer[0].ClipRect.x, 10.7f);
  // A region the command does not reach: the list is left out.
  ASSERT_TRUE(clipToRegion(data, {40, 40, 60, 60}, 100, saved, drawn));
  EXPECT_TRUE(drawn.empty());
  restoreClips(data, saved);
  // Within its scissor box, but not where its triangles are: skipped too.
  const std::vector<PixelRect> bounds{{10, 3, 12, 31}};
  ASSERT_TRUE(clipToRegion(data, {13, 0, 19, 100}, 100, saved, drawn, &bounds));
  EXPECT_TRUE(drawn.empty());
  restoreClips(data, saved);
  ASSERT_TRUE(clipToRegion(data, {11, 0, 19, 100}, 100, saved, drawn, &bounds));
  EXPECT_EQ(drawn.size(), 1u);
  restoreClips(data, saved);
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace tilescope::platform
