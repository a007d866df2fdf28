// The CUDA timing engine (timing.h): verified, event-timed launches of the plain kernels,
// the bench-only probe-free copies and cuBLAS, with inputs rotated across buffer sets.
#include <algorithm>
#include <cuda_runtime_api.h>

#include "kernels/cuda/bench_probe_free.h"
#include "kernels/cuda/cublas_sgemm.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gpu_info.h"
#include "kernels/cuda/run_on_gpu.h"
#include "reference.h"
#include "run.h"
#include "timing.h"

namespace tilescope {

namespace {
using cuda::DeviceBuffer;
using cuda::DeviceEvent;

constexpr int kNaNByte = 0xff;  // all-ones floats are NaN: the poison for P

struct InputSet {
  DeviceBuffer<float> m, n, p;
};

// The inputs of one size, on the host (for verification) and on the device as several
// copies, so consecutive timed launches read different memory.
struct Inputs {
  Dims dims;
  uint64_t seed = 0;
  Matrix hostM, hostN;
  std::vector<InputSet> sets;
};

// Elements of P to check: all of them for small products, otherwise a sample that keeps
// the double-precision check near 2^24 multiply-adds (verifyProduct's diagonal sweep first
// touches every row and column).
long verificationSample(const Dims& d) {
  const long all = long(d.j) * d.l;
  const long cheap = (1L << 24) / std::max(d.k, 1);
  return std::min(all, std::max(cheap, long(std::max(d.j, d.l)) + 256));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

class CudaTimingEngine final : public TimingEngine {
 public:
  CudaTimingEngine(cuda::GpuInfo info, cuda::CublasSgemm cublas) : info_(std::move(info)), cublas_(std::move(cublas)) {}

  std::string deviceName() const override { return info_.name; }

  Result<Ceilings> ceilings() override {
    if (ceilings_.copyGBps > 0) return ceilings_;
    Ceilings c;
    c.fp32PeakGflops = info_.fp32PeakGflops();
    c.peakDerivation = info_.peakDerivation();
    auto bw = cuda::measureCopyBandwidth();
    if (!bw) return bw.error();
    c.copyGBps = *bw;
    ceilings_ = c;
    return c;
  }

  Result<TimingResult> time(const TimingCase& tc, const TimingOptions& options) override {
    const Dims& d = tc.config.dims;
    KernelLaunch launch;
    if (tc.kind != TimedKind::Cublas) {
      auto plan = planLaunch(tc.config, false);
      if (!plan) return plan.error();
      launch = plan->launch;
      if (tc.kind == TimedKind::Kernel && !gpuSupports(launch))
        return invalidInput("the GPU build has no instantiation of " + tc.label() + " (built for " +
                            gpuTileWidthsText() + ")");
      if (tc.kind == TimedKind::ProbeFree && !cuda::probeFreeSupports(launch))
        return invalidInput("no probe-free bench copy of " + tc.label());
      // The unchecked tiled kernel indexes past the matrices unless T divides every side.
      if (kernelInfo(launch.kernel).needsMultipleOfTile &&
          (d.j % launch.tile || d.k % launch.tile || d.l % launch.tile))
        return invalidInput(tc.label() + " needs every dimension to be a multiple of T; not timed at " +
                            std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l));
    } else {
      for (int side : {d.j, d.k, d.l})
        if (side < 1 || side > kMaxDimension) return invalidInput("cuBLAS case: dimension out of range");
    }
    if (auto s = prepareInputs(tc.config); !s) return s.error();

    auto run = [&](const InputSet& set) -> Status {
      switch (tc.kind) {
        case TimedKind::Kernel: return launchOnGpu(launch, set.m.data(), set.n.data(), set.p.data(), nullptr);
        case TimedKind::ProbeFree: return cuda::launchProbeFree(launch, set.m.data(), set.n.data(), set.p.data());
        case TimedKind::Cublas: return cublas_.multiply(set.m.data(), set.n.data(), set.p.data(), d.j, d.k, d.l);
      }
      return failure("unknown timed kind");
    };

    TimingResult result;
    result.what = tc;
    // 1. Verify: one launch into a poisoned P, checked against the double reference.
    const InputSet& first = inputs_.sets.front();
    CUDA_TRY(cudaMemset(first.p.data(), kNaNByte, first.p.bytes()));
    if (auto s = run(first); !s) return s.error();
    CUDA_TRY(cudaDeviceSynchronize());
    Matrix P(d.j, d.l);
    CUDA_TRY(cudaMemcpy(P.values.data(), first.p.data(), first.p.bytes(), cudaMemcpyDeviceToHost));
    const Verification v = verifyProduct(inputs_.hostM, inputs_.hostN, P, verificationSample(d));
    result.verified = v.passed;
    result.verification = v.summary();
    result.maxRelativeError = v.maxRelativeError;
    if (!v.passed) return result;  // no timing for a wrong answer

    // 2. Warm up, then time each launch with a pair of events, rotating the input sets.
    const std::size_t sets = inputs_.sets.size();
    for (int w = 0; w < options.warmup; ++w)
      if (auto s = run(inputs_.sets[std::size_t(w + 1) % sets]); !s) return s.error();
    auto start = DeviceEvent::create();
    if (!start) return start.error();
    auto stop = DeviceEvent::create();
    if (!stop) return stop.error();
    std::vector<double> ms;
    double spent = 0.0;
    const int maxRepeats = std::max(options.repeats, 3);
    for (int r = 0; r < maxRepeats; ++r) {
      if (options.cancel && options.cancel->load()) return failure("cancelled");
      // Stop early once the time budget is spent, but never below 3 samples.
      if (r >= 3 && spent > options.maxSecondsPerCase * 1e3) break;
      CUDA_TRY(cudaEventRecord(start->get()));
      if (auto s = run(inputs_.sets[std::size_t(r) % sets]); !s) return s.error();
      CUDA_TRY(cudaEventRecord(stop->get()));
      CUDA_TRY(cudaEventSynchronize(stop->get()));
      float elapsed = 0.0f;
      CUDA_TRY(cudaEventElapsedTime(&elapsed, start->get(), stop->get()));
      ms.push_back(elapsed);
      spent += elapsed;
    }
    CUDA_TRY(cudaGetLastError());
    result.repeats = int(ms.size());
    result.medianMs = median(ms);
    result.minMs = *std::min_element(ms.begin(), ms.end());
    result.maxMs = *std::max_element(ms.begin(), ms.end());
    result.gflops = result.flops() / (result.medianMs * 1e-3) / 1e9;
    return result;
  }

 private:
  // Draws the inputs for `c` (the same ones executeRun draws for its seed) unless the
  // previous case used the same; sweeps go size by size, so most cases reuse them.
  Status prepareInputs(const LaunchConfig& c) {
    if (!inputs_.sets.empty() && inputs_.dims == c.dims && inputs_.seed == c.seed) return Ok{};
    inputs_ = Inputs{};
    inputs_.dims = c.dims;
    inputs_.seed = c.seed;
    inputs_.hostM = inputM(c);
    inputs_.hostN = inputN(c);
    const std::size_t mCount = inputs_.hostM.size(), nCount = inputs_.hostN.size();
    const std::size_t pCount = std::size_t(c.dims.j) * c.dims.l;
    const std::size_t setBytes = (mCount + nCount + pCount) * sizeof(float);
    // Enough copies to hold twice the L2 cache, at least 2, at most 64 and about 1 GiB.
    std::size_t sets = std::max<std::size_t>(2, (2 * info_.l2Bytes + setBytes - 1) / setBytes);
    sets = std::min<std::size_t>({sets, 64, std::max<std::size_t>(2, (std::size_t(1) << 30) / setBytes)});
    for (std::size_t s = 0; s < sets; ++s) {
      InputSet set;
      auto m = DeviceBuffer<float>::allocate(mCount, "M");
      if (!m) return m.error();
      auto n = DeviceBuffer<float>::allocate(nCount, "N");
      if (!n) return n.error();
      auto p = DeviceBuffer<float>::allocate(pCount, "P");
      if (!p) return p.error();
      set.m = std::move(*m);
      set.n = std::move(*n);
      set.p = std::move(*p);
      if (s == 0) {
        CUDA_TRY(cudaMemcpy(set.m.data(), inputs_.hostM.values.data(), set.m.bytes(), cudaMemcpyHostToDevice));
        CUDA_TRY(cudaMemcpy(set.n.data(), inputs_.hostN.values.data(), set.n.bytes(), cudaMemcpyHostToDevice));
      } else {  // same values, other addresses
        const InputSet& src = inputs_.sets.front();
        CUDA_TRY(cudaMemcpy(set.m.data(), src.m.data(), set.m.bytes(), cudaMemcpyDeviceToDevice));
        CUDA_TRY(cudaMemcpy(set.n.data(), src.n.data(), set.n.bytes(), cudaMemcpyDeviceToDevice));
      }
      inputs_.sets.push_back(std::move(set));
    }
    return Ok{};
  }

  cuda::GpuInfo info_;
  cuda::CublasSgemm cublas_;
  Inputs inputs_;
  Ceilings ceilings_;
};
}  // namespace

Result<std::unique_ptr<TimingEngine>> makeTimingEngine() {
  auto count = cuda::deviceCount();
  if (!count) return count.error();
  auto info = cuda::queryGpu(0);
  if (!info) return info.error();
  auto cublas = cuda::CublasSgemm::create();
  if (!cublas) return cublas.error();
  return std::unique_ptr<TimingEngine>(std::make_unique<CudaTimingEngine>(std::move(*info), std::move(*cublas)));
}

}  // namespace tilescope
