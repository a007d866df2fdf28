// Helpers every core test uses: reproducible seeds (printed on failure) and one call that
// runs a config on the emulator.
#pragma once
#include <gtest/gtest.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/run.h"

namespace tilescope::testing {

// [Seeds]
// A failing test must fail again when it is run again, so inputs are not drawn at random by
// default. Every seed a test draws comes from one base seed, TILESCOPE_SEED (unset: the fixed
// kDefaultBaseSeed; a number: that base; "random": a new base per run, to explore other
// inputs), the test's full name and how many seeds the test drew before: a test's inputs do
// not change when another test is added or filtered out. A listener prints, once per failing
// test, the base that reproduces it and the seeds the test drew.
inline constexpr uint64_t kDefaultBaseSeed = 1;

struct SeedState {
  std::mutex mutex;
  bool baseRead = false;
  uint64_t base = kDefaultBaseSeed;
  std::string baseError;        // a TILESCOPE_SEED that is not a number or "random"
  std::vector<uint64_t> drawn;  // by the running test, for the failure message
};

inline SeedState& seedState() {
  static SeedState state;
  return state;
}

// splitmix64's finaliser: nearby inputs (counters, similar names) give unrelated seeds.
inline uint64_t mixSeed(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// FNV-1a of a test's name: unlike std::hash, the same on every standard library, so a base
// seed reproduces a test's inputs on any machine.
inline uint64_t nameHash(std::string_view name) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (char c : name) h = (h ^ uint8_t(c)) * 0x100000001B3ull;
  return h;
}

// Called with the state locked.
inline void readBaseSeed(SeedState& s) {
  if (s.baseRead) return;
  s.baseRead = true;
  const char* env = std::getenv("TILESCOPE_SEED");
  const std::string_view text = env ? env : "";
  if (text.empty()) return;
  if (text == "random") {
    std::random_device device;
    s.base = (uint64_t(device()) << 32) | device();
    return;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), s.base);
  if (ec != std::errc() || end != text.data() + text.size())
    s.baseError = "TILESCOPE_SEED='" + std::string(text) + "' is neither a number nor 'random'";
}

// The next seed of the running test (see [Seeds]).
inline uint64_t freshSeed() {
  SeedState& s = seedState();
  std::string error;
  uint64_t seed = 0;
  {
    std::lock_guard lock(s.mutex);
    readBaseSeed(s);
    error = s.baseError;
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string name = test ? std::string(test->test_suite_name()) + "." + test->name() : std::string();
    seed = mixSeed(s.base ^ mixSeed(nameHash(name) + s.drawn.size()));
    s.drawn.push_back(seed);
  }
  if (!error.empty()) ADD_FAILURE() << error;
  return seed;
}

// Prints the seeds of each failing test that drew any, before gtest's "[  FAILED  ]" line.
class SeedPrinter : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo&) override {
    std::lock_guard lock(seedState().mutex);
    seedState().drawn.clear();
  }
  void OnTestEnd(const ::testing::TestInfo& test) override {
    SeedState& s = seedState();
    std::lock_guard lock(s.mutex);
    if (!test.result()->Failed() || s.drawn.empty()) return;
    std::string seeds;
    for (uint64_t seed : s.drawn) seeds += (seeds.empty() ? "" : ", ") + std::to_string(seed);
    std::printf("%s.%s drew the seeds %s; TILESCOPE_SEED=%llu draws them again\n", test.test_suite_name(), test.name(),
                seeds.c_str(), static_cast<unsigned long long>(s.base));
    std::fflush(stdout);
  }
};

// Installed once per test program, before main (gtest_main) runs the tests.
inline const bool kSeedPrinterInstalled = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new SeedPrinter);
  return true;
}();

inline Run runEmulated(const LaunchConfig& config, bool traced) {
  auto backend = makeEmulatorBackend();
  auto run = executeRun(*backend, config, traced);
  if (!run) {
    ADD_FAILURE() << "executeRun(" << describe(config) << ") failed: " << run.error().message;
    return Run{};
  }
  return std::move(*run);
}

// A launch for a test: kernel, sizes, tile width (tiled kernels) or block shape (naive-style
// kernels), pad (tiled-transposed) and the seed of its inputs.
inline LaunchConfig launchConfig(KernelId kernel, Dims dims, int tile, uint64_t seed, int bx = 16, int by = 16,
                                 int pad = 0) {
  LaunchConfig c;
  c.kernel = kernel;
  c.dims = dims;
  c.tile = tile;
  c.blockX = bx;
  c.blockY = by;
  c.pad = pad;
  c.seed = seed;
  return c;
}

inline LaunchConfig tiledConfig(KernelId kernel, Dims dims, int tile, uint64_t seed) {
  return launchConfig(kernel, dims, tile, seed);
}

inline LaunchConfig naiveConfig(Dims dims, int bx, int by, uint64_t seed) {
  return launchConfig(KernelId::Naive, dims, 0, seed, bx, by);
}

}  // namespace tilescope::testing
