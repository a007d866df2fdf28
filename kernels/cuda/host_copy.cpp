#include "kernels/cuda/host_copy.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

#include "kernels/cuda/cuda_check.h"

namespace tilescope::cuda {

namespace {
// Copies with several threads: the destination is usually fresh memory, and faulting it in
// costs as much as the copy itself, so spreading both over the cores is what pays.
void parallelCopy(char* dst, const char* src, std::size_t bytes) {
  const unsigned workers = std::clamp(std::thread::hardware_concurrency() / 2, 1u, 8u);
  const std::size_t share = (bytes + workers - 1) / workers;
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) {
    const std::size_t begin = std::min(bytes, w * share), end = std::min(bytes, begin + share);
    if (begin < end) pool.emplace_back([=] { std::memcpy(dst + begin, src + begin, end - begin); });
  }
  std::memcpy(dst, src, std::min(bytes, share));
  for (auto& t : pool) t.join();
}
}  // namespace

StagedCopier::~StagedCopier() {
  // Destructors cannot report; a failure here would surface at the next CUDA call anyway.
  for (int i = 0; i < 2; ++i) {
    if (staging_[i]) cudaFreeHost(staging_[i]);
    if (filled_[i]) cudaEventDestroy(filled_[i]);
  }
  if (stream_) cudaStreamDestroy(stream_);
}

Status StagedCopier::ensureStaging() {
  if (stream_) return Ok{};
  CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  for (int i = 0; i < 2; ++i) {
    CUDA_TRY(cudaHostAlloc(&staging_[i], kChunkBytes, cudaHostAllocDefault));
    CUDA_TRY(cudaEventCreateWithFlags(&filled_[i], cudaEventDisableTiming));
  }
  return Ok{};
}

Status StagedCopier::toHost(void* dst, const void* src, std::size_t bytes) {
  if (bytes <= kChunkBytes) {
    CUDA_TRY(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return Ok{};
  }
  if (auto s = ensureStaging(); !s) return s;
  // The source was written by kernels on the default stream; the copies run on our own
  // stream, so wait for that work first.
  CUDA_TRY(cudaDeviceSynchronize());
  auto* out = static_cast<char*>(dst);
  const auto* in = static_cast<const char*>(src);
  const std::size_t chunks = (bytes + kChunkBytes - 1) / kChunkBytes;
  auto issue = [&](std::size_t c) -> Status {
    const std::size_t offset = c * kChunkBytes, n = std::min(kChunkBytes, bytes - offset);
    CUDA_TRY(cudaMemcpyAsync(staging_[c % 2], in + offset, n, cudaMemcpyDeviceToHost, stream_));
    CUDA_TRY(cudaEventRecord(filled_[c % 2], stream_));
    return Ok{};
  };
  if (auto s = issue(0); !s) return s;
  for (std::size_t c = 0; c < chunks; ++c) {
    // The other buffer was emptied in the previous iteration: refill it while this one drains.
    if (c + 1 < chunks)
      if (auto s = issue(c + 1); !s) return s;
    CUDA_TRY(cudaEventSynchronize(filled_[c % 2]));
    const std::size_t offset = c * kChunkBytes, n = std::min(kChunkBytes, bytes - offset);
    parallelCopy(out + offset, static_cast<const char*>(staging_[c % 2]), n);
  }
  return Ok{};
}

}  // namespace tilescope::cuda
