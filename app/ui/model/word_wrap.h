// Word wrap that breaks lines only at spaces and at the text's own newlines. Dear ImGui 1.86's
// wrap (ImFont::CalcWordWrapPositionA) may also break right after '.', ',', ';', '!' or '?',
// inside a word: "15.52 waves" ended a projector line on "15." and began the next on "52".
// GUI-free: the panels pass ImGui's text measure (app/ui/panels/text_record.h), the tests a
// fixed-width one.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

namespace tilescope::ui {

// The width of a piece of text, in the same unit as the line's width (pixels on screen).
using TextMeasure = std::function<float(std::string_view)>;

// The lines of `text` no wider than `width`. Each line is a piece of `text` (the views point
// into it): the spaces inside a line stay as written (an indent too), the spaces where a line
// breaks are dropped, and every '\n' starts a line (two make an empty one). A word wider than
// the line alone is cut where it must, between characters (never inside a UTF-8 sequence), at
// least one character a line.
std::vector<std::string_view> wrapLines(std::string_view text, float width, const TextMeasure& measure);

}  // namespace tilescope::ui
