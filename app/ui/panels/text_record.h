// Recording what a panel wrote, for the layout file: the words, where, the line pitch and the
// colours of the text and of what lies right behind it. The tests read sizes (legible from the
// back row) and contrast (WCAG AA, 4.5:1) from these records instead of guessing from pixels.
#pragma once
#include <imgui.h>

#include <string>

#include "ui/panels/panels.h"

namespace tilescope::ui {

// A text drawn at `at` with the current font (AddText, a table cell); its pitch is the font's
// line height, the distance from one wrapped line to the next.
inline void recordTextAt(PanelContext& ctx, const char* panel, std::string text, ImVec2 at, Rgba colour, Rgba background) {
  ctx.layout.texts.push_back({panel, std::move(text), at.x, at.y, ImGui::GetFontSize(), colour, background});
}

// The last item (Text, TextWrapped) as a text of `panel`, in the style's text colour on the
// window's background unless told otherwise.
inline void recordText(PanelContext& ctx, const char* panel, std::string text, Rgba colour, Rgba background) {
  recordTextAt(ctx, panel, std::move(text), ImGui::GetItemRectMin(), colour, background);
}
inline void recordText(PanelContext& ctx, const char* panel, std::string text) {
  recordText(ctx, panel, std::move(text), ctx.theme().panelText, ctx.theme().windowBg);
}

// TextWrapped of `text`, recorded.
inline void recordedWrapped(PanelContext& ctx, const char* panel, const std::string& text) {
  ImGui::TextWrapped("%s", text.c_str());
  recordText(ctx, panel, text);
}

}  // namespace tilescope::ui
