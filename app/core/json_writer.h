// A small streaming JSON writer: objects, arrays, numbers, strings, with commas and
// escaping handled in one place. Fast enough for traces of millions of events.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tilescope {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  ~JsonWriter() { flush(); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& beginObject();
  JsonWriter& endObject();
  JsonWriter& beginArray();
  JsonWriter& endArray();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(bool b);
  JsonWriter& value(int64_t n);
  JsonWriter& value(int n) { return value(int64_t(n)); }
  JsonWriter& value(unsigned n) { return value(int64_t(n)); }
  JsonWriter& value(uint64_t n) { return value(int64_t(n)); }
  // int64_t is long on x86-64 Linux but long long on wasm32 (the page), where long and size_t
  // are 32-bit: the other of each pair, whichever it is here.
  using OtherLong = std::conditional_t<std::is_same_v<int64_t, long>, long long, long>;
  using OtherUnsignedLong = std::conditional_t<std::is_same_v<uint64_t, unsigned long>, unsigned long long, unsigned long>;
  JsonWriter& value(OtherLong n) { return value(int64_t(n)); }
  JsonWriter& value(OtherUnsignedLong n) { return value(int64_t(n)); }
  JsonWriter& value(double d);  // NaN and infinities become null
  JsonWriter& null();
  // A [a, b] pair, or null when a < 0 (an unused coordinate).
  JsonWriter& pairOrNull(int a, int b);

  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

 private:
  void separate();
  // Output is gathered here and written in large pieces: a stream call per character made
  // writing a trace of millions of events several times slower. Everything is flushed when
  // the outermost object or array closes, so text the caller writes afterwards lands after it.
  void raw(std::string_view s) {
    buffer_.append(s);
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void put(char c) { buffer_.push_back(c); }
  void flush() {
    out_.write(buffer_.data(), std::streamsize(buffer_.size()));
    buffer_.clear();
  }
  void closeContainer(char c);

  static constexpr std::size_t kFlushBytes = 1 << 16;
  std::ostream& out_;
  std::string buffer_;
  std::vector<bool> first_{true};  // per open container: nothing written yet
  bool afterKey_ = false;
};

}  // namespace tilescope
