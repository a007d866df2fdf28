// Recording what a panel wrote, for the layout file: the words, where, the line pitch and the
// colours of the text and of what lies right behind it. The tests read sizes (legible from the
// back row) and contrast (WCAG AA, 4.5:1) from these records instead of guessing from pixels.
#pragma once
#include <imgui.h>

#include <cstdarg>
#include <cstdio>
#include <string>
#include <string_view>

#include "ui/model/word_wrap.h"
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

// `text` broken into lines no wider than `width` pixels at spaces and newlines only (word_wrap.h:
// ImGui's own wrap breaks "15.52" after the point), joined by '\n', measured in the current font.
inline std::string wrappedLines(std::string_view text, float width) {
  const auto measure = [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; };
  std::string joined;
  joined.reserve(text.size());
  for (std::string_view line : wrapLines(text, width, measure)) {
    joined += line;
    joined += '\n';
  }
  joined.pop_back();  // wrapLines gives one line at least
  return joined;
}

// The size textWrapped(text, width) takes: for a layout that reserves its room first.
inline ImVec2 wrappedTextSize(std::string_view text, float width) {
  return ImGui::CalcTextSize(wrappedLines(text, width).c_str());
}

// `text` wrapped to `width` pixels (below 0: the space left on the line) as wrappedLines breaks
// it. One item, like TextWrapped: its lines at the font's pitch, GetItemRectMin/Max spanning them.
inline void textWrapped(std::string_view text, float width = -1.0f) {
  const std::string joined = wrappedLines(text, width < 0 ? ImGui::GetContentRegionAvail().x : width);
  ImGui::TextUnformatted(joined.data(), joined.data() + joined.size());
}

// ImGui::TextWrapped's printf form, wrapped as above.
inline void textWrappedF(const char* format, ...) IM_FMTARGS(1);
inline void textWrappedF(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string text(n > 0 ? std::size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(text.data(), text.size() + 1, format, again);
  va_end(again);
  textWrapped(text);
}

// `text` wrapped (textWrapped), recorded.
inline void recordedWrapped(PanelContext& ctx, const char* panel, const std::string& text) {
  textWrapped(text);
  recordText(ctx, panel, text);
}

}  // namespace tilescope::ui
