// The CUDA backend for GPU tests, or a skip with the reason ("no CUDA device: ...").
#pragma once
#include <gtest/gtest.h>

#include <memory>

#include "core/run/backend.h"

namespace tilescope::testing {

// The backend, created once per test process; null when there is no device.
inline Backend* cudaBackendOrNull(std::string* why) {
  static Result<std::unique_ptr<Backend>> backend = makeCudaBackend();
  if (!backend) {
    *why = backend.error().message;
    return nullptr;
  }
  return backend->get();
}

}  // namespace tilescope::testing

// Skips the calling test when there is no CUDA device; otherwise binds `var` to the backend.
#define REQUIRE_CUDA_BACKEND(var)                                      \
  std::string cudaWhy_;                                                \
  ::tilescope::Backend* var = ::tilescope::testing::cudaBackendOrNull(&cudaWhy_); \
  if (!var) GTEST_SKIP() << cudaWhy_
