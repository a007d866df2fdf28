// Errors are values: every fallible call returns Result<T>, holding either its value or an
// Error that says what failed. Nothing below main() exits or throws across a module.
#pragma once
#include <string>
#include <utility>
#include <variant>

namespace tilescope {

enum class ErrorKind {
  InvalidInput,  // the request breaks a stated limit (CLI exit code 2)
  Unavailable,   // the backend or device is not there (CLI exit code 2)
  Failed,        // it ran and failed: a CUDA call, a file, a verification
};

struct Error {
  ErrorKind kind = ErrorKind::Failed;
  std::string message;
};

inline Error invalidInput(std::string message) { return {ErrorKind::InvalidInput, std::move(message)}; }
inline Error unavailable(std::string message) { return {ErrorKind::Unavailable, std::move(message)}; }
inline Error failure(std::string message) { return {ErrorKind::Failed, std::move(message)}; }

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// For calls that return nothing but can fail.
struct Ok {};
using Status = Result<Ok>;

}  // namespace tilescope
