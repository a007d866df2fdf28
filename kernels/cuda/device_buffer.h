// Owners of device resources (memory, events). Move-only, released in the destructor, and
// created only through functions that return an Error value, so a failed allocation is a
// message naming the buffer, never a null pointer handed to a kernel.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "kernels/cuda/cuda_check.h"

namespace tilescope::cuda {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  // `what` names the buffer in the error ("trace slots", "M"), so an out-of-memory message
  // says which allocation did not fit and how large it was.
  static Result<DeviceBuffer> allocate(std::size_t count, const char* what) {
    DeviceBuffer b;
    if (count == 0) return b;
    void* p = nullptr;
    const cudaError_t code = cudaMalloc(&p, count * sizeof(T));
    if (code != cudaSuccess) {
      Status s = check(code, "cudaMalloc");
      return failure(s.error().message + " while allocating " + what + " (" +
                     std::to_string(double(count * sizeof(T)) / double(1 << 20)) + " MiB)");
    }
    b.data_ = static_cast<T*>(p);
    b.count_ = count;
    return b;
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void release() {
    if (data_) cudaFree(data_);  // cannot fail usefully in a destructor; a sticky error surfaces at the next call
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

class DeviceEvent {
 public:
  DeviceEvent() = default;
  DeviceEvent(DeviceEvent&& o) noexcept : event_(std::exchange(o.event_, nullptr)) {}
  DeviceEvent& operator=(DeviceEvent&& o) noexcept {
    std::swap(event_, o.event_);
    return *this;
  }
  DeviceEvent(const DeviceEvent&) = delete;
  DeviceEvent& operator=(const DeviceEvent&) = delete;
  ~DeviceEvent() {
    if (event_) cudaEventDestroy(event_);
  }
  static Result<DeviceEvent> create() {
    DeviceEvent e;
    CUDA_TRY(cudaEventCreate(&e.event_));
    return e;
  }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace tilescope::cuda
