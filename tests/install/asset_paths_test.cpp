// Finding the assets from the executable (app/core/asset_paths.h), on directory trees made
// here: the installed layout, the build-tree layout, the nearest match winning, the override,
// and the error that names every place it looked.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/asset_paths.h"

namespace tilescope {
namespace {

namespace fs = std::filesystem;

class AssetPaths : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("tilescope-assets-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  // A program file at `relative` below the root (the finder only looks at its directory).
  fs::path program(const std::string& relative) {
    const fs::path p = root_ / relative;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "#!\n";
    return p;
  }
  fs::path assetsUnder(const std::string& relative) {
    const fs::path dir = root_ / relative / "share" / "tilescope" / "assets";
    fs::create_directories(dir / "lessons");
    return dir;
  }

  fs::path root_;
};

TEST_F(AssetPaths, TheSubdirectoryIsWhereCmakeInstallPutsThem) {
  EXPECT_EQ(assetsSubdirectory(), "share/tilescope/assets");
}

TEST_F(AssetPaths, InstalledProgramFindsItsPrefix) {
  const fs::path want = assetsUnder("prefix");
  auto found = findAssetsDirectory(program("prefix/bin/tilescope-cli"), "");
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_TRUE(fs::equivalent(*found, want));
}

TEST_F(AssetPaths, BuildTreeProgramsFindTheBuildDirectoryAtAnyDepth) {
  const fs::path want = assetsUnder("build");
  for (const char* p : {"build/app/ui/tilescope", "build/app/cli/tilescope-cli", "build/tests/core/teaching_test"}) {
    auto found = findAssetsDirectory(program(p), "");
    ASSERT_TRUE(found.ok()) << p << ": " << found.error().message;
    EXPECT_TRUE(fs::equivalent(*found, want)) << p;
  }
}

TEST_F(AssetPaths, TheNearestAssetsWin) {
  assetsUnder("");  // an outer prefix: a program below another prefix must not take it
  const fs::path inner = assetsUnder("opt/tilescope");
  auto found = findAssetsDirectory(program("opt/tilescope/bin/tilescope"), "");
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_TRUE(fs::equivalent(*found, inner));
}

TEST_F(AssetPaths, TheOverrideWinsAndMustExist) {
  assetsUnder("prefix");
  const fs::path elsewhere = root_ / "my-assets";
  fs::create_directories(elsewhere);
  auto found = findAssetsDirectory(program("prefix/bin/tilescope"), elsewhere.string());
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_TRUE(fs::equivalent(*found, elsewhere));
  auto missing = findAssetsDirectory(program("prefix/bin/tilescope"), (root_ / "nope").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("TILESCOPE_ASSETS=" + (root_ / "nope").string()), std::string::npos)
      << missing.error().message;
}

TEST_F(AssetPaths, NoAssetsIsAnErrorNamingEveryPlaceLookedIn) {
  const fs::path exe = program("lonely/bin/tilescope-cli");
  auto found = findAssetsDirectory(exe, "");
  ASSERT_FALSE(found.ok());
  const std::string& m = found.error().message;
  EXPECT_NE(m.find(exe.string()), std::string::npos) << m;
  for (fs::path dir = exe.parent_path();; dir = dir.parent_path()) {
    EXPECT_NE(m.find((dir / "share/tilescope/assets").string()), std::string::npos) << dir << "\n" << m;
    if (dir == dir.root_path()) break;
  }
  EXPECT_NE(m.find("TILESCOPE_ASSETS"), std::string::npos) << m;
}

// The test program itself lives in the build tree, whose share/tilescope/assets is the link
// configure made to the checkout's assets/: it finds the shipped lessons.
TEST_F(AssetPaths, ThisBuildFindsTheShippedLessons) {
  if (std::getenv("TILESCOPE_ASSETS")) GTEST_SKIP() << "TILESCOPE_ASSETS is set";
  auto lessons = assetPath("lessons");
  ASSERT_TRUE(lessons.ok()) << lessons.error().message;
  EXPECT_TRUE(fs::exists(*lessons / "03-tiling-and-phases.lesson"));
  EXPECT_FALSE(assetPath("no-such-file").ok());
}

}  // namespace
}  // namespace tilescope
