// The panels' tooltips and wrapping rows; the words for events and counts are the model's
// (model/event_words.h), so that views can hold them.
#pragma once
#include <string>

#include "ui/model/event_words.h"

namespace tilescope::ui {

// Shows `text` as a tooltip when the last item is hovered (wrapped at a readable width).
void tooltip(const std::string& text);

// Continues on the same line when an item `width` pixels wide still fits in the window, so
// rows of buttons and legends wrap instead of running off (presentation mode's big fonts).
void sameLineIfFits(float width);

}  // namespace tilescope::ui
