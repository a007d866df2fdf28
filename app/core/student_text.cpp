#include "core/student_text.h"

#include <cstdio>

namespace tilescope {

std::size_t utf8Sequence(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return cp = c, 1;
  const std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? (c <= 0xef ? 3 : 0) : c >= 0xc2 && c <= 0xdf ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3f);
  }
  const char32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

std::string hexByte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

std::string unambiguousText(std::string_view s, bool escapeControls) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8Sequence(s, i, cp);
    const auto byte = static_cast<unsigned char>(s[i]);
    if (n == 0 || (n == 1 && escapeControls && (byte < 0x20 || byte == 0x7f))) out += hexByte(byte);
    else if (n == 1 && byte == '\\') out += "\\\\";
    else out.append(s.substr(i, n));
    i += n == 0 ? 1 : n;
  }
  return out;
}

}  // namespace tilescope
