// Same trace as the built-in kernels: every kernel of the list whose source is in the lab's
// CUDA subset, read from its own file (its kernel function; its Facts stay C++ and give the
// launch), runs through the interpreter and through the native emulator at several shapes,
// and the two traces agree event for event, bit for bit, as do P, the out-of-bounds accesses
// and the barrier reports. A kernel outside the subset is listed as skipped with the sentence
// the front end gives. A new kernel in kernels/kernel_list.h is covered without an edit here.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/run/launch_config.h"
#include "kernels/catalog.h"
#include "kernels/emu/run_on_emulator.h"
#include "kernels/kernel_list.h"
#include "kernels/kernel_sources.h"
#include "lab/interp/interp.h"
#include "tests/lab/interp/kernel_launches.h"

namespace tilescope::interp {
namespace {

struct Shape {
  int j, k, l, tile;
};
// Multiples of the tile, sizes that are not (figs. 5.11 and 5.12's wrong accesses), rectangles.
const Shape kShapes[] = {{8, 8, 8, 4}, {16, 16, 16, 8}, {13, 9, 11, 4}, {6, 10, 7, 2}, {32, 16, 24, 8}};

std::vector<float> randomMatrix(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

std::string describeEvent(const Event& e) {
  return "op " + std::to_string(int(e.op)) + " flags " + std::to_string(e.flags) + " line " + std::to_string(e.line) +
         " block (" + std::to_string(e.blockX) + "," + std::to_string(e.blockY) + ") thread (" + std::to_string(e.threadX) +
         "," + std::to_string(e.threadY) + ") global (" + std::to_string(e.globalRow) + "," + std::to_string(e.globalCol) +
         ") shared (" + std::to_string(e.sharedRow) + "," + std::to_string(e.sharedCol) + ") value " + std::to_string(e.value);
}

class TraceEquality : public ::testing::TestWithParam<KernelId> {};

TEST_P(TraceEquality, InterpreterAndEmulatorRecordTheSameEvents) {
  const KernelId id = GetParam();
  const auto source = kernelSource(id);
  ASSERT_TRUE(source.has_value());
  const std::string_view body = kernelBody(*source);
  const Compiled compiled = compileSource(body);
  if (compiled.error) GTEST_SKIP() << kernelInfo(id).name << ": " << formatDiagnostic(body, *compiled.error);
  ASSERT_EQ(compiled.kernels.size(), 1u);
  int compared = 0;
  for (const Shape& s : kShapes) {
    LaunchConfig config;
    config.kernel = id;
    config.dims = {s.j, s.k, s.l};
    config.tile = s.tile;
    config.blockX = config.blockY = 4;
    auto plan = planLaunch(config, true);
    if (!plan.ok()) continue;  // a shape this kernel refuses
    const KernelLaunch& L = plan->launch;
    const CapturedLaunch launch = captureLaunch(L, source->substr(body.size()));
    if (!launch.problem.empty()) GTEST_SKIP() << kernelInfo(id).name << ": its launch needs " << launch.problem;
    const Instance instance = instantiate(*compiled.unit, compiled.kernels[0].name, launch.templateArguments);
    ASSERT_FALSE(instance.error) << formatDiagnostic(body, *instance.error);
    SCOPED_TRACE(describe(config));

    const std::vector<float> M = randomMatrix(std::size_t(L.j) * L.k, 7), N = randomMatrix(std::size_t(L.k) * L.l, 11);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> nativeP(std::size_t(L.j) * L.l, nan), interpP = nativeP;
    std::vector<Event> nativeEvents(plan->traceSlots), interpEvents(plan->traceSlots);
    unsigned nativeOverflow = 0, interpOverflow = 0;
    const TraceSink nativeSink = traceSinkFor(L, nativeEvents.data(), plan->slotsPerThread, &nativeOverflow);
    const TraceSink interpSink = traceSinkFor(L, interpEvents.data(), plan->slotsPerThread, &interpOverflow);
    const emu::Report native = runOnEmulator(L, M.data(), N.data(), nativeP.data(), &nativeSink);
    ASSERT_TRUE(native.error.empty()) << native.error;

    RunRequest r;
    r.program = instance.program.get();
    r.grid = launch.grid;
    r.block = launch.block;
    r.dynamicSharedBytes = launch.dynamicSharedBytes;
    r.arguments = launch.arguments;
    r.matrices[0] = const_cast<float*>(M.data());
    r.matrices[1] = const_cast<float*>(N.data());
    r.matrices[2] = interpP.data();
    r.counts[0] = (long long)M.size();
    r.counts[1] = (long long)N.size();
    r.counts[2] = (long long)interpP.size();
    r.sink = &interpSink;
    const RunResult ran = runProgram(r);
    ASSERT_FALSE(ran.error) << formatDiagnostic(body, *ran.error);

    EXPECT_EQ(interpOverflow, nativeOverflow);
    EXPECT_EQ(0, std::memcmp(interpP.data(), nativeP.data(), interpP.size() * sizeof(float))) << "P differs";
    EXPECT_EQ(ran.report.outOfBoundsTotal, native.outOfBoundsTotal);
    EXPECT_EQ(ran.report.divergences.size(), native.divergences.size());
    for (std::size_t i = 0; i < interpEvents.size(); ++i)
      if (std::memcmp(&interpEvents[i], &nativeEvents[i], sizeof(Event)) != 0) {
        ADD_FAILURE() << "slot " << i << " (thread " << i / plan->slotsPerThread << ", event " << i % plan->slotsPerThread
                      << ")\n  interpreter: " << describeEvent(interpEvents[i])
                      << "\n  emulator:    " << describeEvent(nativeEvents[i]);
        break;
      }
    ++compared;
  }
  EXPECT_GT(compared, 0) << "no shape of the list runs " << kernelInfo(id).name;
}

std::vector<KernelId> everyKernel() {
#define TILESCOPE_KERNEL_ID(id, room, file) KernelId::id,
  return {TILESCOPE_KERNELS(TILESCOPE_KERNEL_ID)};
#undef TILESCOPE_KERNEL_ID
}
INSTANTIATE_TEST_SUITE_P(EveryKernel, TraceEquality, ::testing::ValuesIn(everyKernel()),
                         [](const auto& info) {
                           std::string name(kernelInfo(info.param).name);
                           for (char& c : name)
                             if (!std::isalnum((unsigned char)c)) c = '_';
                           return name;
                         });

}  // namespace
}  // namespace tilescope::interp
