// Live timing of the plain kernels on the GPU, the cuBLAS reference and the device's
// ceilings, plus the recorded results the app shows when there is no GPU.
//
// Every case is verified before it is timed: the kernel runs once on fresh inputs into a
// poisoned P that is checked against the double-precision reference (a sample for large
// P). A case that fails verification, NaN included, carries no time and no GFLOP/s, so
// nothing downstream can plot it. Timed runs use CUDA events around each launch after a
// warm-up, rotate among several input sets (so repeats do not just hit L2) and report the
// median.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/run/launch_config.h"
#include "kernels/result.h"

namespace tilescope {

class JsonWriter;

enum class TimedKind {
  Kernel,     // a tilescope kernel, plain build (the kernel file as written)
  ProbeFree,  // bench only: the same kernel copied with no probe template (kernels/cuda/bench_probe_free.cu)
  Cublas,     // cuBLAS SGEMM, FP32, CUBLAS_PEDANTIC_MATH (no TF32)
  Lab,        // a student's kernel as written, timed in a process of its own (lab::timeLab)
  CublasTf32, // cuBLAS on the tensor cores: cublasGemmEx, CUBLAS_COMPUTE_32F_FAST_TF32 (rung 10's reference)
};
// A cuBLAS case (FP32 or TF32): no kernel of ours, the dims only.
inline bool isCublas(TimedKind k) { return k == TimedKind::Cublas || k == TimedKind::CublasTf32; }

struct TimingCase {
  TimedKind kind = TimedKind::Kernel;
  LaunchConfig config;  // kernel, dims, tile or block shape, seed; cuBLAS and Lab use the dims only
  std::string name;     // Lab: which kernel, as the lab names it ("matrixMulKernel in tiled.cu")
  // "naive (32,32)", "tiled T=16", "cuBLAS SGEMM", "tiled T=16 no-probe copy", "lab: ..."
  std::string label() const;
};

struct TimingResult {
  TimingCase what;
  bool verified = false;
  std::string verification;  // Verification::summary(), or the error that stopped the case
  double maxRelativeError = 0.0;
  // Set only when verified: milliseconds per launch (median, min, max over `repeats`).
  double medianMs = 0.0, minMs = 0.0, maxMs = 0.0;
  int repeats = 0;
  double gflops = 0.0;  // 2 j k l / median
  // Which sweep measured it, where a report gathers several (the app's live results): a
  // percentage of cuBLAS pairs results of one sweep only. 0 for a single sweep or a file.
  int sweep = 0;

  double flops() const { return 2.0 * what.config.dims.j * what.config.dims.k * what.config.dims.l; }
};

struct Ceilings {
  double fp32PeakGflops = 0.0;  // SMs x clock x FP32 lanes x 2
  std::string peakDerivation;   // how that number was derived, for the plot's legend
  double copyGBps = 0.0;        // measured device-to-device cudaMemcpy, bytes read + written
};

struct TimingOptions {
  int warmup = 2;                   // untimed launches before the timed ones
  int repeats = 10;                 // timed launches (fewer when one launch is slow, at least 3)
  double maxSecondsPerCase = 2.0;   // cap on the timed launches of one case
  const std::atomic<bool>* cancel = nullptr;  // checked between launches
};

struct SweepProgress {
  std::size_t done = 0, total = 0;
  std::string current;  // label of the case being timed
};
using ProgressFn = std::function<void(const SweepProgress&)>;

struct TimingReport {
  std::string device;     // "NVIDIA H100 80GB HBM3"
  std::string date;       // UTC, YYYY-MM-DD
  bool recorded = false;  // loaded from a file, not measured now
  Ceilings ceilings;
  std::vector<TimingResult> results;
  bool cancelled = false;
  double seconds = 0.0;   // wall time of the whole sweep
};

class TimingEngine {
 public:
  virtual ~TimingEngine() = default;
  virtual std::string deviceName() const = 0;
  // Measured once (the copy takes a few milliseconds) and remembered.
  virtual Result<Ceilings> ceilings() = 0;
  // Verifies, then times one case. A failed verification is a result with verified=false;
  // an Error means the case could not run at all (bad config, CUDA failure, cancelled).
  virtual Result<TimingResult> time(const TimingCase& c, const TimingOptions& options) = 0;
};

// The CUDA timing engine, or Unavailable ("no CUDA device", "built without CUDA").
Result<std::unique_ptr<TimingEngine>> makeTimingEngine();

// Times `cases` in order, reporting progress before each; stops early when *options.cancel
// becomes true (the report says cancelled). A case that fails is kept with its message.
Result<TimingReport> runSweep(TimingEngine& engine, const std::vector<TimingCase>& cases,
                              const TimingOptions& options, const ProgressFn& progress);

// --- Case lists -------------------------------------------------------------------------
// The lecture's experiment at N = 8192: naive with blocks (64,16) (32,32) (16,64) (64,4)
// (32,8) (16,16); tiled at T = 8, 16, 32; cuBLAS.
std::vector<TimingCase> lectureCases(int n = 8192);
// The app's live sweep: naive (16,16) and tiled, tiled-bounds, tiled-dynamic at T=16, for
// N = 256, 512, ..., maxN, with cuBLAS at each N.
std::vector<TimingCase> liveSweepCases(int maxN = 4096);
// Every combination: tiled kernels x tiles, naive-style kernels x blocks, square sizes.
std::vector<TimingCase> gridCases(const std::vector<KernelId>& kernels, const std::vector<int>& sizes,
                                  const std::vector<int>& tiles, const std::vector<std::pair<int, int>>& blocks,
                                  bool cublas);

// --- Files ------------------------------------------------------------------------------
// CSV with '# key: value' header lines (device, date, ceilings), one row per result.
std::string timingCsv(const TimingReport& report);
void writeTimingJson(JsonWriter& json, const TimingReport& report);
Result<TimingReport> parseTimingCsv(std::string_view text);
// Reads a CSV written by timingCsv (assets/timings/*.csv) and marks it recorded.
Result<TimingReport> loadRecordedTimings(const std::string& path);

std::string timedKindName(TimedKind k);  // "kernel", "probe-free", "cublas"
std::string todayUtc();

}  // namespace tilescope
