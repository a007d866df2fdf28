// The lab on the GPU: the interpreter runs a student's kernel first (its trace, counters and
// verdict are the run's), then NVRTC compiles the same file as written and the GPU checks its P
// and times it: the same verdict as on the emulator, the GPU's facts and time added; a compile
// error lands on its line; a kernel the interpreter stops (an endless loop, a write past P) is
// never launched on the GPU, and the caller goes on. Timed (lab::timeLab), the kernel as written is verified
// first, a wrong one is never timed, and fig. 5.9 as a student pastes it times like the
// built-in tiled kernel, the same code. A kernel that recognises the interpreter and takes
// another path on the GPU fails as "behaves differently on the GPU". Skipped without a CUDA
// device.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab/exercise.h"
#include "lab/lab.h"
#include "core/timing/timing.h"
#include "gpu_support.h"
#include "test_support.h"

namespace tilescope::testing {
namespace {

using namespace tilescope::lab;

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

LabRequest requestFor(const std::filesystem::path& file) {
  auto q = requestFromFile(readFile(file), file.filename().string());
  EXPECT_TRUE(q.ok()) << q.error().message;
  return q.ok() ? *q : LabRequest{};
}

// A kernel that never ends, at size n with blocks b x b and a 2 s limit, whose loop is on line 3.
// The loop reads M, so no compiler may drop it; M holds finite values, so it never ends.
LabRequest endlessLoop(int n, unsigned b) {
  LabRequest q;
  q.fileName = "spin.cu";
  q.source = "__global__ void k(float* M, float* N, float* P, int Width) {\n"
             "  float x = 0;\n"
             "  while (M[0] == M[0]) { x += 1; }\n"
             "  P[0] = x;\n"
             "}\n";
  q.dims = {n, n, n};
  q.block = Dim3{b, b, 1};
  q.timeoutSeconds = 2.0;
  return q;
}

// Runs `q` on the emulator and with --backend cuda: the same verdict and the interpreter's
// trace, with the GPU's device, registers and (for a verified kernel) its checked time added;
// the GPU's traced run gave the interpreter's trace, event for event, or the verdict would be
// "behaves differently on the GPU".
void expectGpuEqualsEmulator(LabRequest q) {
  q.backend = LabBackend::Emulator;
  auto e = runLab(q);
  ASSERT_TRUE(e.ok()) << e.error().message;
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  SCOPED_TRACE("emulator: " + e->summary + "\ngpu: " + g->summary);
  EXPECT_EQ(verdictName(g->verdict), verdictName(e->verdict));
  if (e->verdict == LabVerdict::CompileError) {  // refused before any backend was chosen
    ASSERT_FALSE(g->diagnostics.empty());
    EXPECT_EQ(g->diagnostics.front().line, e->diagnostics.front().line);
    return;
  }
  ASSERT_TRUE(e->finished && g->finished);
  ASSERT_TRUE(e->finished->run.trace && g->finished->run.trace);
  EXPECT_EQ(e->finished->run.trace->events.size(), g->finished->run.trace->events.size());
  if (e->verdict != LabVerdict::Verified && e->verdict != LabVerdict::WrongResult && e->verdict != LabVerdict::Hazard)
    return;  // stopped, or reached past an array: not launched on the GPU
  EXPECT_EQ(g->launch.backend, "cuda");
  ASSERT_TRUE(g->gpu.has_value());
  EXPECT_GT(g->gpu->registersPerThread, 0) << "cuFuncGetAttribute(NUM_REGS) of the kernel as written";
  EXPECT_NE(describeOutcome(*g).find("registers per thread"), std::string::npos);
  if (e->verdict == LabVerdict::Verified) {
    ASSERT_TRUE(g->timing.has_value());
    EXPECT_TRUE(g->timing->verified) << g->timing->verification;
    EXPECT_NE(g->summary.find("; on the GPU: the GPU's trace is the lab's, event for event ("), std::string::npos)
        << g->summary;
    EXPECT_NE(g->summary.find(" events); timed: "), std::string::npos) << g->summary;
  }
}

TEST(LabGpu, EveryExampleRunsThroughNvrtcAndEqualsTheEmulator) {
  REQUIRE_CUDA_BACKEND(gpu);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TILESCOPE_LAB_EXAMPLES)) {
    if (entry.path().extension() != ".cu") continue;
    SCOPED_TRACE(entry.path().filename().string());
    expectGpuEqualsEmulator(requestFor(entry.path()));
    ++files;
  }
  EXPECT_GE(files, 8);
}

TEST(LabGpu, Fig5_9OnASizeNotAMultipleOfTheTileEqualsTheEmulator) {
  REQUIRE_CUDA_BACKEND(gpu);
  // Width 7, T = 2: 4 x 4 blocks, phases 7/2 = 3 (one short), threads past the edge read
  // across row ends and store outside P: out-of-bounds on both, the same accesses.
  LabRequest q = requestFor(std::filesystem::path(TILESCOPE_LAB_EXAMPLES) / "pmpp_fig5_9.cu");
  q.dims = {7, 7, 7};
  q.seed = freshSeed();
  SCOPED_TRACE("seed " + std::to_string(q.seed));
  expectGpuEqualsEmulator(q);
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->verdict, LabVerdict::OutOfBounds) << g->summary;
}

TEST(LabGpu, ACompileErrorLandsOnItsLineThroughNvrtc) {
  REQUIRE_CUDA_BACKEND(gpu);
  LabRequest q;
  q.fileName = "typo.cu";
  q.source = "__global__ void k(float* M, float* N, float* P, int Width) {\n"
             "  int Row = threadIdx.y;\n"
             "  int Col = threadIdx.x;\n"
             "  P[Row*Width + Col] = Pvalu;\n"
             "}\n";
  q.dims = {2, 2, 2};
  q.block = Dim3{2, 2, 1};
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->verdict, LabVerdict::CompileError) << g->summary;
  ASSERT_FALSE(g->diagnostics.empty()) << g->compilerOutput;
  EXPECT_EQ(g->diagnostics.front().file, "typo.cu");
  EXPECT_EQ(g->diagnostics.front().line, 4) << g->compilerOutput;
  EXPECT_NE(g->diagnostics.front().message.find("Pvalu"), std::string::npos) << g->diagnostics.front().message;
  EXPECT_EQ(g->diagnostics.size(), 1u) << "the unit holds the kernel twice: one message each";
  EXPECT_EQ(g->exitCode(), 2);
}

TEST(LabGpu, AnEndlessLoopIsStoppedByTheInterpreterAndNeverLaunched) {
  REQUIRE_CUDA_BACKEND(gpu);
  LabRequest q = endlessLoop(2, 2);
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->verdict, LabVerdict::TimedOut) << g->summary;
  EXPECT_EQ(g->exitCode(), 3);
  EXPECT_FALSE(g->gpu.has_value()) << "launched on the GPU: " << g->summary;
  ASSERT_TRUE(g->where.has_value()) << g->summary;
  EXPECT_EQ(g->where->line, 3) << g->summary;
  // The device takes the next kernel.
  LabRequest next = requestFor(std::filesystem::path(TILESCOPE_LAB_EXAMPLES) / "pmpp_fig5_9.cu");
  next.backend = LabBackend::Cuda;
  auto ok = runLab(next);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(ok->verdict, LabVerdict::Verified) << ok->summary;
}

TEST(LabGpu, RunFromTheSourceTreeTheEmbeddedHeadersAreTheOnlyOnes) {
  REQUIRE_CUDA_BACKEND(gpu);
  // tilescope's source tree has a kernels/ directory of its own: NVRTC must not take its
  // headers beside the lab's embedded copies (a teacher runs tilescope-cli from there).
  const std::filesystem::path root = std::filesystem::path(TILESCOPE_LAB_EXAMPLES).parent_path().parent_path().parent_path();
  ASSERT_TRUE(std::filesystem::exists(root / "kernels" / "trace" / "trace_event.h")) << root;
  std::filesystem::current_path(root);
  LabRequest q = requestFor(std::filesystem::path(TILESCOPE_LAB_EXAMPLES) / "pmpp_fig5_9.cu");
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->verdict, LabVerdict::Verified) << g->summary;
}

TEST(LabGpu, AWritePastPIsFoundByTheInterpreterAndNeverLaunched) {
  REQUIRE_CUDA_BACKEND(gpu);
  LabRequest q;
  q.fileName = "wild.cu";
  q.source = "__global__ void k(float* M, float* N, float* P, int Width) {\n"
             "  int i = threadIdx.y * 2 + threadIdx.x;\n"
             "  P[i + (1 << 30)] = 1.0f;\n"
             "}\n";
  q.dims = {2, 2, 2};
  q.block = Dim3{2, 2, 1};
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->verdict, LabVerdict::OutOfBounds) << g->summary;
  EXPECT_FALSE(g->gpu.has_value()) << "launched on the GPU: " << g->summary;
  ASSERT_FALSE(g->boundsViolations().empty()) << g->summary;
  EXPECT_EQ(int(g->boundsViolations().front().event.line), 3) << g->summary;
  EXPECT_EQ(g->exitCode(), 1);
}

TEST(LabGpu, AutoPicksTheGpuWhenThereIsOne) {
  REQUIRE_CUDA_BACKEND(gpu);
  LabRequest q = requestFor(std::filesystem::path(TILESCOPE_LAB_EXAMPLES) / "pmpp_fig5_9.cu");
  q.backend = LabBackend::Auto;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->launch.backend, "cuda");
  EXPECT_TRUE(g->launch.backendNote.empty()) << g->launch.backendNote;
}

TEST(LabGpu, TheKernelAsWrittenIsVerifiedThenTimedLikeTheBuiltInTiledKernel) {
  REQUIRE_CUDA_BACKEND(gpu);
  LabRequest q = requestFor(std::filesystem::path(TILESCOPE_LAB_EXAMPLES) / "pmpp_fig5_9.cu");
  q.defines = {{"TILE_WIDTH", "16"}};  // the file's own #define; its `lab:` line asks for 2
  q.seed = freshSeed();
  auto engine = makeTimingEngine();
  ASSERT_TRUE(engine.ok()) << engine.error().message;
  for (int n : {1024, 2048}) {
    SCOPED_TRACE("N = " + std::to_string(n) + ", seed " + std::to_string(q.seed));
    q.dims = {n, n, n};
    auto lab = timeLab(q);
    ASSERT_TRUE(lab.ok()) << lab.error().message;
    EXPECT_EQ(lab->verdict, LabVerdict::Verified) << lab->summary;
    ASSERT_TRUE(lab->timing.has_value());
    const TimingResult& t = *lab->timing;
    EXPECT_TRUE(t.verified) << t.verification;
    EXPECT_EQ(t.what.kind, TimedKind::Lab);
    EXPECT_EQ(t.what.label(), "lab: matrixMulKernel (pmpp_fig5_9.cu) TILE_WIDTH=16");
    EXPECT_GE(t.repeats, 3);
    EXPECT_GT(t.gflops, 0.0);
    EXPECT_NEAR(t.gflops, t.flops() / (t.medianMs * 1e-3) / 1e9, 1e-6 * t.gflops);
    EXPECT_EQ(lab->launch.block.x, 16u);
    // The same book kernel, built in (kernels/book/tiled.cuh at T = 16), timed by the same timer.
    TimingCase builtIn;
    builtIn.config.kernel = KernelId::Tiled;
    builtIn.config.tile = 16;
    builtIn.config.dims = q.dims;
    auto b = (*engine)->time(builtIn, {});
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_TRUE(b->verified);
    std::printf("N = %d: lab fig. 5.9 %.1f GFLOP/s (median %.4f ms), built-in tiled T=16 %.1f GFLOP/s (%.4f ms)\n", n,
                t.gflops, t.medianMs, b->gflops, b->medianMs);
    EXPECT_NEAR(t.gflops / b->gflops, 1.0, 0.25) << "the same kernel, compiled by NVRTC instead of nvcc";
  }
}

TEST(LabGpu, AWrongResultIsNeverTimed) {
  REQUIRE_CUDA_BACKEND(gpu);
  // The slides' naive kernel sums into an int: every product is truncated.
  LabRequest q = requestFor(std::filesystem::path(TILESCOPE_LAB_EXAMPLES) / "slides_naive.cu");
  q.block = Dim3{16, 16, 1};
  q.dims = {512, 512, 512};
  auto lab = timeLab(q);
  ASSERT_TRUE(lab.ok()) << lab.error().message;
  EXPECT_EQ(lab->verdict, LabVerdict::WrongResult) << lab->summary;
  ASSERT_TRUE(lab->timing.has_value());
  EXPECT_FALSE(lab->timing->verified);
  EXPECT_EQ(lab->timing->gflops, 0.0);
  EXPECT_EQ(lab->timing->medianMs, 0.0);
  EXPECT_EQ(lab->timing->repeats, 0);
  EXPECT_NE(lab->summary.find("(not timed)"), std::string::npos) << lab->summary;
  EXPECT_EQ(lab->exitCode(), 1);
}

TEST(LabGpu, ATimedKernelThatNeverEndsTimesOutAndTheCallerGoesOn) {
  REQUIRE_CUDA_BACKEND(gpu);
  LabRequest q = endlessLoop(256, 16);
  TimingOptions options;
  options.maxSecondsPerCase = 1.0;
  auto lab = timeLab(q, options);
  ASSERT_TRUE(lab.ok()) << lab.error().message;
  EXPECT_EQ(lab->verdict, LabVerdict::TimedOut) << lab->summary;
  EXPECT_FALSE(lab->timing.has_value());
  EXPECT_EQ(lab->exitCode(), 3);
}

// The red team's FMA probe (tests/lab/redteam/gpu_missing_barrier_fma_probe.cu) takes its
// second barrier only where x*x - t is 0, as the interpreter computes it; NVRTC contracts it
// into an FMA, so on the GPU the barrier is skipped and the tiles race. The interpreter's grade
// passes it; with --backend cuda its traced run lacks the barrier the lab's run has, and both
// lab run and the exercise's check fail it: "behaves differently on the GPU". The honest
// solution passes the same check at every size.
TEST(LabGpu, AKernelThatRecognisesTheInterpreterBehavesDifferentlyOnTheGpu) {
  REQUIRE_CUDA_BACKEND(gpu);
  const std::filesystem::path probe =
      std::filesystem::path(TILESCOPE_LAB_FIXTURES) / "../../lab/redteam/gpu_missing_barrier_fma_probe.cu";
  LabRequest q;
  q.fileName = "probe.cu";
  q.source = readFile(probe);
  ASSERT_FALSE(q.source.empty()) << probe;
  q.dims = {8, 8, 8};
  q.defines = {{"TILE_WIDTH", "4"}};
  q.seed = freshSeed();
  q.backend = LabBackend::Emulator;
  auto e = runLab(q);
  ASSERT_TRUE(e.ok()) << e.error().message;
  EXPECT_EQ(e->verdict, LabVerdict::Verified) << e->summary;
  q.backend = LabBackend::Cuda;
  auto g = runLab(q);
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->verdict, LabVerdict::WrongResult) << g->summary;
  EXPECT_TRUE(g->summary.starts_with("behaves differently on the GPU: its trace is not the lab's: event ")) << g->summary;
  EXPECT_NE(g->summary.find("barrier"), std::string::npos) << g->summary;

  auto x = findExercise("missing_barrier");
  ASSERT_TRUE(x.ok()) << x.error().message;
  LabRequest base;
  base.backend = LabBackend::Cuda;
  base.seed = q.seed;
  for (const bool honest : {false, true}) {
    const std::string source =
        honest ? readFile(std::filesystem::path(TILESCOPE_LAB_FIXTURES) / "solutions/missing_barrier.cu") : q.source;
    SCOPED_TRACE(honest ? "the solution" : "the probe");
    auto grade = gradeExercise(*x, source, "student.cu", base);
    ASSERT_TRUE(grade.ok()) << grade.error().message;
    EXPECT_TRUE(grade->passed);  // the interpreter's checks, which the probe fools
    ASSERT_TRUE(addGpuChecks(*x, source, "student.cu", base, *grade).ok());
    EXPECT_EQ(grade->passed, honest);
    int gpuChecks = 0;
    for (const GradeItem& i : grade->items) {
      if (!i.check.starts_with("the same on the GPU at ")) continue;
      ++gpuChecks;
      EXPECT_EQ(i.passed, honest) << i.check << ": " << i.detail;
      if (!honest) {
        EXPECT_TRUE(i.detail.starts_with("behaves differently on the GPU")) << i.detail;
      }
    }
    EXPECT_EQ(gpuChecks, int(x->sizes.size()));
  }
}

}  // namespace
}  // namespace tilescope::testing
