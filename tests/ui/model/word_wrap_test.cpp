// The project's word wrap (app/ui/model/word_wrap.h) with a measure of one unit a character, so
// every expected line below is counted by hand: lines break at spaces and newlines only.
#include "ui/model/word_wrap.h"

#include <gtest/gtest.h>

#include <string>

namespace tilescope::ui {
namespace {

// One unit a character (a UTF-8 sequence counts once), like a monospaced font.
float characters(std::string_view s) {
  float n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0u) != 0x80u ? 1.0f : 0.0f;
  return n;
}

std::vector<std::string> wrap(std::string_view text, float width) {
  std::vector<std::string> out;
  for (std::string_view line : wrapLines(text, width, characters)) out.emplace_back(line);
  return out;
}

using Lines = std::vector<std::string>;

TEST(WordWrap, NeverBreaksANumberAtItsPoint) {
  // ImGui 1.86 broke this after "15." at 20 columns: "make 15." fits, "make 15.52" does not.
  const std::string text = "2048 blocks make 15.52 waves";
  EXPECT_EQ(wrap(text, 20), (Lines{"2048 blocks make", "15.52 waves"}));
  EXPECT_EQ(wrap("the last is 0.24 of a wave", 14), (Lines{"the last is", "0.24 of a wave"}));
  EXPECT_EQ(wrap("tiles 128x256x32/64x64/8x16 here", 22), (Lines{"tiles", "128x256x32/64x64/8x16", "here"}));
  EXPECT_EQ(wrap("a, b; c! d? e.", 3), (Lines{"a,", "b;", "c!", "d?", "e."}));
}

TEST(WordWrap, KeepsSpacesInsideALineAndDropsThemAtABreak) {
  EXPECT_EQ(wrap("a  b c", 10), (Lines{"a  b c"}));
  EXPECT_EQ(wrap("abc   def", 4), (Lines{"abc", "def"}));  // no trailing spaces, no leading ones
  EXPECT_EQ(wrap("  indented text", 11), (Lines{"  indented", "text"}));  // the indent is the text's
  EXPECT_EQ(wrap("end   ", 10), (Lines{"end"}));
  EXPECT_EQ(wrap("exactly10!", 10), (Lines{"exactly10!"}));  // a line as wide as the width fits
}

TEST(WordWrap, EveryNewlineStartsALine) {
  EXPECT_EQ(wrap("one\ntwo", 80), (Lines{"one", "two"}));
  EXPECT_EQ(wrap("one\n\ntwo", 80), (Lines{"one", "", "two"}));
  EXPECT_EQ(wrap("one two three\nfour", 8), (Lines{"one two", "three", "four"}));
  EXPECT_EQ(wrap("last\n", 80), (Lines{"last", ""}));
  EXPECT_EQ(wrap("", 80), (Lines{""}));
}

TEST(WordWrap, CutsAWordWiderThanTheLineWhereItMust) {
  EXPECT_EQ(wrap("abcdefghij", 4), (Lines{"abcd", "efgh", "ij"}));
  EXPECT_EQ(wrap("go abcdefghij k", 4), (Lines{"go", "abcd", "efgh", "ij k"}));
  EXPECT_EQ(wrap("\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1", 2),  // five alphas, two bytes each
            (Lines{"\xce\xb1\xce\xb1", "\xce\xb1\xce\xb1", "\xce\xb1"}));
  EXPECT_EQ(wrap("ab c", 0), (Lines{"a", "b", "c"}));  // narrower than a character: one a line
}

}  // namespace
}  // namespace tilescope::ui
