#include "json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <version>

namespace tilescope {
namespace {

// std::to_chars(double)'s shortest round-trip form. The page's libc++ (emscripten 3.1.6) has no
// floating-point to_chars: there the fewest significant digits that read back the same, in
// the shorter of fixed and scientific notation (fixed on a tie), as to_chars chooses.
std::size_t shortestDouble(char* buf, std::size_t size, double d) {
#if defined(__cpp_lib_to_chars)
  return std::size_t(std::to_chars(buf, buf + size, d).ptr - buf);
#else
  int digits = 1;
  for (char probe[40]; digits < 17; ++digits) {
    std::snprintf(probe, sizeof probe, "%.*e", digits - 1, d);
    if (std::strtod(probe, nullptr) == d) break;
  }
  char sci[40], fixed[400];
  const int sciLength = std::snprintf(sci, sizeof sci, "%.*e", digits - 1, d);
  const int exponent = std::atoi(std::strchr(sci, 'e') + 1);
  const int fixedLength = std::snprintf(fixed, sizeof fixed, "%.*f", std::max(0, digits - 1 - exponent), d);
  const char* best = fixedLength <= sciLength ? fixed : sci;
  const std::size_t n = std::min(size, std::size_t(std::min(fixedLength, sciLength)));
  std::copy(best, best + n, buf);
  return n;
#endif
}

}  // namespace

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_.back()) put(',');
  first_.back() = false;
}

JsonWriter& JsonWriter::beginObject() {
  separate();
  put('{');
  first_.push_back(true);
  return *this;
}
void JsonWriter::closeContainer(char c) {
  first_.pop_back();
  put(c);
  if (first_.size() == 1) flush();  // a top-level value is complete
}

JsonWriter& JsonWriter::endObject() {
  closeContainer('}');
  return *this;
}
JsonWriter& JsonWriter::beginArray() {
  separate();
  put('[');
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::endArray() {
  closeContainer(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  value(k);
  put(':');
  afterKey_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  separate();
  put('"');
  for (char c : s) {
    switch (c) {
      case '"': raw("\\\""); break;
      case '\\': raw("\\\\"); break;
      case '\n': raw("\\n"); break;
      case '\t': raw("\\t"); break;
      case '\r': raw("\\r"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          raw(buf);
        } else {
          put(c);
        }
    }
  }
  put('"');
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  separate();
  raw(b ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::value(int64_t n) {
  separate();
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, n);
  raw(std::string_view(buf, std::size_t(r.ptr - buf)));
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  if (!std::isfinite(d)) return null();
  separate();
  char buf[32];
  raw(std::string_view(buf, shortestDouble(buf, sizeof buf, d)));  // shortest round-trip form
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  raw("null");
  return *this;
}

JsonWriter& JsonWriter::pairOrNull(int a, int b) {
  if (a < 0) return null();
  beginArray();
  value(a);
  value(b);
  return endArray();
}

}  // namespace tilescope
