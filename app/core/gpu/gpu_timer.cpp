#include "core/gpu/gpu_timer.h"

#include <algorithm>
#include <cuda_runtime_api.h>

#include "kernels/cuda/cuda_check.h"
#include "core/run/reference.h"
#include "core/run/run.h"

namespace tilescope {

namespace {
using cuda::DeviceBuffer;
using cuda::DeviceEvent;

constexpr int kNaNByte = 0xff;  // all-ones floats are NaN: the poison for P

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
}  // namespace

Status GpuTimer::prepare(const LaunchConfig& c) {
  if (!sets_.empty() && dims_ == c.dims && seed_ == c.seed) return Ok{};
  sets_.clear();
  dims_ = c.dims;
  seed_ = c.seed;
  hostM_ = inputM(c);
  hostN_ = inputN(c);
  const std::size_t mCount = hostM_.size(), nCount = hostN_.size();
  const std::size_t pCount = std::size_t(c.dims.j) * c.dims.l;
  const std::size_t setBytes = (mCount + nCount + pCount) * sizeof(float);
  // Enough copies to hold twice the L2 cache, at least 2, at most 64 and about 1 GiB.
  std::size_t count = std::max<std::size_t>(2, (2 * l2Bytes_ + setBytes - 1) / setBytes);
  count = std::min<std::size_t>({count, 64, std::max<std::size_t>(2, (std::size_t(1) << 30) / setBytes)});
  for (std::size_t s = 0; s < count; ++s) {
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
      CUDA_TRY(cudaMemcpy(set.m.data(), hostM_.values.data(), set.m.bytes(), cudaMemcpyHostToDevice));
      CUDA_TRY(cudaMemcpy(set.n.data(), hostN_.values.data(), set.n.bytes(), cudaMemcpyHostToDevice));
    } else {  // same values, other addresses
      const InputSet& src = sets_.front();
      CUDA_TRY(cudaMemcpy(set.m.data(), src.m.data(), set.m.bytes(), cudaMemcpyDeviceToDevice));
      CUDA_TRY(cudaMemcpy(set.n.data(), src.n.data(), set.n.bytes(), cudaMemcpyDeviceToDevice));
    }
    sets_.push_back(std::move(set));
  }
  return Ok{};
}

Result<TimingResult> GpuTimer::time(const TimingCase& what, const TimedLaunch& launch, const TimingOptions& options) {
  if (auto s = prepare(what.config); !s) return s.error();
  const Dims& d = what.config.dims;
  auto run = [&](const InputSet& set) { return launch(set.m.data(), set.n.data(), set.p.data()); };

  TimingResult result;
  result.what = what;
  // 1. Verify: one launch into a poisoned P, checked against the double reference.
  const InputSet& first = sets_.front();
  CUDA_TRY(cudaMemset(first.p.data(), kNaNByte, first.p.bytes()));
  if (auto s = run(first); !s) return s.error();
  CUDA_TRY(cudaDeviceSynchronize());
  Matrix P(d.j, d.l);
  CUDA_TRY(cudaMemcpy(P.values.data(), first.p.data(), first.p.bytes(), cudaMemcpyDeviceToHost));
  const int mantissaBits = what.kind == TimedKind::CublasTf32 ? 10
                           : what.kind == TimedKind::Kernel  ? kernelInfo(what.config.kernel).operandMantissaBits
                                                             : 23;
  const Verification v = verifyProduct(hostM_, hostN_, P, verificationSample(d), mantissaBits);
  result.verified = v.passed;
  result.verification = v.summary();
  result.maxRelativeError = v.maxRelativeError;
  if (!v.passed) return result;  // no timing for a wrong answer

  // 2. Warm up, then time each launch with a pair of events, rotating the input sets.
  const std::size_t count = sets_.size();
  for (int w = 0; w < options.warmup; ++w)
    if (auto s = run(sets_[std::size_t(w + 1) % count]); !s) return s.error();
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
    if (auto s = run(sets_[std::size_t(r) % count]); !s) return s.error();
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

}  // namespace tilescope
