#include "ui/model/word_wrap.h"

#include <algorithm>

namespace tilescope::ui {

namespace {

bool continuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0u) == 0x80u; }

// The end of the character that starts at `at`: the whole UTF-8 sequence.
std::size_t nextCharacter(std::string_view s, std::size_t at) {
  ++at;
  while (at < s.size() && continuationByte(s[at])) ++at;
  return at;
}

// Where to cut a line that starts at `from` when its first word, starting at `word`, does not
// fit: after the longest run of characters that fits, never before the word's first character.
std::size_t cutInsideWord(std::string_view line, std::size_t from, std::size_t word, std::size_t wordEnd, float width,
                          const TextMeasure& measure) {
  std::size_t cut = nextCharacter(line, word);
  while (cut < wordEnd) {
    const std::size_t next = nextCharacter(line, cut);
    if (measure(line.substr(from, next - from)) > width) break;
    cut = next;
  }
  return cut;
}

// The lines of one paragraph (no '\n' in it), appended to `lines`.
void wrapParagraph(std::string_view para, float width, const TextMeasure& measure, std::vector<std::string_view>& lines) {
  std::size_t lineStart = 0;  // the line being filled: para[lineStart, lineEnd)
  std::size_t lineEnd = 0;
  bool hasWord = false;
  std::size_t pos = 0;
  const std::size_t before = lines.size();
  while (pos < para.size()) {
    const std::size_t word = para.find_first_not_of(' ', pos);
    if (word == std::string_view::npos) break;  // spaces at the end: dropped
    const std::size_t wordEnd = std::min(para.find(' ', word), para.size());
    if (!hasWord && lines.size() > before) lineStart = word;  // after a break: no leading spaces
    if (measure(para.substr(lineStart, wordEnd - lineStart)) <= width) {
      lineEnd = wordEnd, hasWord = true, pos = wordEnd;
    } else if (hasWord) {  // the line is full: the word begins the next one
      lines.push_back(para.substr(lineStart, lineEnd - lineStart));
      hasWord = false, pos = word;
    } else {  // the word alone is wider than the line
      const std::size_t cut = cutInsideWord(para, lineStart, word, wordEnd, width, measure);
      lines.push_back(para.substr(lineStart, cut - lineStart));
      pos = cut;
    }
  }
  if (hasWord)
    lines.push_back(para.substr(lineStart, lineEnd - lineStart));
  else if (lines.size() == before)  // an empty paragraph (or only spaces): an empty line
    lines.emplace_back();
}

}  // namespace

std::vector<std::string_view> wrapLines(std::string_view text, float width, const TextMeasure& measure) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t newline = text.find('\n', start);
    wrapParagraph(text.substr(start, newline == std::string_view::npos ? std::string_view::npos : newline - start),
                  width, measure, lines);
    if (newline == std::string_view::npos) break;
    start = newline + 1;
  }
  return lines;
}

}  // namespace tilescope::ui
