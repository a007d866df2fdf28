// The profile the Roofline and Occupancy panels share: which one is used by default, what
// the panels say about it, and which names a user (or `set profile`) may choose.
#include <gtest/gtest.h>

#include "ui/model/analysis_profile.h"

namespace tilescope::ui {
namespace {

AnalysisView withGpu() {
  DeviceProperties p;
  p.name = "NVIDIA H100 80GB HBM3";
  p.major = 9;
  p.multiProcessorCount = 132;
  p.maxThreadsPerMultiProcessor = 2048;
  p.maxBlocksPerMultiProcessor = 32;
  p.maxThreadsPerBlock = 1024;
  p.regsPerMultiprocessor = p.regsPerBlock = 65536;
  p.sharedMemPerMultiprocessor = 233472;
  p.sharedMemPerBlockOptin = 232448;
  p.reservedSharedMemPerBlock = 1024;
  AnalysisView v;
  v.device = withMeasuredCeilings(profileFromProperties(p), 2951.0, 66900.0, "derived");
  return v;
}

TEST(AnalysisProfile, NoGpu_DefaultIsH100_AndSaysWhy) {
  AnalysisView v;
  v.noDevice = "no CUDA device: the driver reports none";
  const ProfileChoice c = analysisProfile(v);
  EXPECT_EQ(c.profile.name, "h100");
  EXPECT_EQ(c.note, "default: h100 (no CUDA device: the driver reports none)");
  EXPECT_EQ(analysisProfileNames(v), (std::vector<std::string>{"textbook", "a100", "h100"}));
}

TEST(AnalysisProfile, StillProbing_DefaultIsH100) {
  const ProfileChoice c = analysisProfile(AnalysisView{});
  EXPECT_EQ(c.profile.name, "h100");
  EXPECT_EQ(c.note, "default: h100 (still looking for a CUDA device)");
}

TEST(AnalysisProfile, WithGpu_DefaultIsTheDeviceWithMeasuredCeilings) {
  const AnalysisView v = withGpu();
  const ProfileChoice c = analysisProfile(v);
  EXPECT_EQ(c.profile.name, "device");
  EXPECT_EQ(c.profile.smCount, 132);
  EXPECT_EQ(c.profile.bandwidthGBs, 2951.0);
  EXPECT_EQ(c.note, "default: this GPU's own profile (the CUDA backend is present)");
  EXPECT_EQ(analysisProfileNames(v), (std::vector<std::string>{"device", "textbook", "a100", "h100"}));
}

TEST(AnalysisProfile, ChosenBuiltin_WinsOverTheDevice) {
  AnalysisView v = withGpu();
  v.chosen = "textbook";
  const ProfileChoice c = analysisProfile(v);
  EXPECT_EQ(c.profile.name, "textbook");
  EXPECT_EQ(c.profile.maxThreadsPerSm, 1536);
  EXPECT_EQ(c.note, "chosen: a built-in profile");
  v.chosen = "device";
  EXPECT_EQ(analysisProfile(v).note, "chosen: this GPU's own profile");
}

TEST(AnalysisProfile, Check_DeviceNeedsAGpu_UnknownNamesListed) {
  AnalysisView none;
  none.noDevice = "no CUDA device: the driver reports none";
  const Status device = checkAnalysisProfile(none, "device");
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.error().message,
            "no device profile: no CUDA device: the driver reports none (the profiles are textbook, a100, h100)");
  const Status v100 = checkAnalysisProfile(withGpu(), "v100");
  ASSERT_FALSE(v100.ok());
  EXPECT_EQ(v100.error().message, "unknown profile 'v100': the profiles are device, textbook, a100, h100");
  EXPECT_TRUE(checkAnalysisProfile(withGpu(), "device").ok());
  EXPECT_TRUE(checkAnalysisProfile(none, "a100").ok());
}

}  // namespace
}  // namespace tilescope::ui
