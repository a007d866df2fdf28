// A student's bytes made readable and unambiguous: the pieces every place that shows them
// shares (the grader's reports in app/cli, the lab's description of a run in app/lab). Each
// reader escapes for where the text goes; these are the parts that do not depend on it.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace tilescope {

// The length of the well-formed UTF-8 sequence at s[i] (no overlong forms, no surrogates,
// nothing past U+10FFFF) and its code point, or 0 when the bytes there are not one.
std::size_t utf8Sequence(std::string_view s, std::size_t i, char32_t& cp);

// A byte as the text \xNN.
std::string hexByte(unsigned char c);

// Valid UTF-8 in which two different texts never read the same: well-formed UTF-8 as it is,
// every byte that is not UTF-8 as \xNN, a backslash as \\ (so that the text "\xff" and the byte
// 0xff stay two texts), and with `escapeControls` the control bytes (a tab and a newline too,
// which would shift columns or start a line of their own) as \xNN.
std::string unambiguousText(std::string_view s, bool escapeControls);

}  // namespace tilescope
