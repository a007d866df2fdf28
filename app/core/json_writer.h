// A small streaming JSON writer: objects, arrays, numbers, strings, with commas and
// escaping handled in one place. Fast enough for traces of millions of events.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

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
  JsonWriter& value(long long n) { return value(int64_t(n)); }
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
  void raw(std::string_view s) { out_.write(s.data(), std::streamsize(s.size())); }

  std::ostream& out_;
  std::vector<bool> first_{true};  // per open container: nothing written yet
  bool afterKey_ = false;
};

}  // namespace tilescope
