// Source: the kernel that ran, as written (embedded at build time by kernels/), without its
// facts, with the lines of the current step's events highlighted and the newest event's
// line marked. Long lines wrap under themselves, so no statement is cut off at any width. The
// projector layout never scrolls and never shrinks the code below the presenter's text size
// (a 36th of the height, readable from the back row): it leaves out the file's header comment
// and shows the whole kernel if it fits; else the lines of the current step, the signature and
// as many lines around them as fit, folding the others into marked lines ("... lines 12-30 ...").
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ui/model/source_view.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

struct CodeLine {
  int number;
  std::string_view text;
  int foldedTo = 0;  // > 0: a marker standing for lines number..foldedTo, folded away
};

// Where a statement starts, and how far it is indented (bounded, so deep code still has room).
struct Layout {
  float numberWidth, space, lineH, spacing;
};

float indentOf(std::string_view line, const Layout& l, float avail) {
  const std::size_t code = std::min(line.find_first_not_of(' '), line.size());
  return std::min(float(code) * l.space, avail * 0.25f);
}

float lineHeight(const CodeLine& codeLine, const Layout& l, float avail) {
  if (codeLine.foldedTo) return l.lineH;
  const std::string_view line = codeLine.text;
  const std::size_t code = std::min(line.find_first_not_of(' '), line.size());
  const std::string_view statement = line.substr(code);
  const float wrap = std::max(avail - l.numberWidth - indentOf(line, l, avail), l.numberWidth);
  return std::max(l.lineH, ImGui::CalcTextSize(statement.data(), statement.data() + statement.size(), false, wrap).y +
                               l.spacing);
}

Layout currentLayout() {
  return {ImGui::CalcTextSize("000 ").x, ImGui::CalcTextSize(" ").x, ImGui::GetTextLineHeightWithSpacing(),
          ImGui::GetStyle().ItemSpacing.y};
}

float codeHeight(const std::vector<CodeLine>& lines, float avail) {
  const Layout l = currentLayout();
  float h = 0;
  for (const CodeLine& line : lines) h += lineHeight(line, l, avail);
  return h;
}

bool fitsAt(ImFont* font, const std::vector<CodeLine>& lines, float avail, float room) {
  ImGui::PushFont(font);
  const bool fits = codeHeight(lines, avail) <= room;
  ImGui::PopFont();
  return fits;
}

// The kernel's lines split, numbered from 1; on a projector without the file's header comment
// (the lesson's text describes the file there).
std::vector<CodeLine> codeLines(std::string_view text, bool dropHeader) {
  std::vector<CodeLine> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    lines.push_back({int(lines.size()) + 1, text.substr(0, nl)});
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  std::size_t first = 0;
  while (dropHeader && first < lines.size()) {
    const std::string_view l = lines[first].text;
    const std::size_t code = l.find_first_not_of(' ');
    if (code != std::string_view::npos && l.substr(code, 2) != "//") break;
    ++first;
  }
  if (first < lines.size()) lines.erase(lines.begin(), lines.begin() + std::ptrdiff_t(first));
  return lines;
}

// The lines kept within `radius` of an anchor (the current step's lines), with the signature
// (up to the line that opens the body); every other run of two lines or more becomes one marker
// line, so what is left out is said, never silently scrolled away. The closing brace goes into
// the last marker with the lines before it: a line of the projector's room for the step's code.
// Where even the step's lines and the whole signature do not fit (the ladder's signatures
// take four lines, each wrapped), `shortSignature` keeps only its first two lines.
std::vector<CodeLine> foldAround(const std::vector<CodeLine>& lines, const std::set<int>& anchors, int radius,
                                 bool shortSignature = false) {
  std::vector<bool> keep(lines.size(), false);
  for (std::size_t i = 0; i < lines.size(); ++i) {  // the signature, up to the line that opens the body
    keep[i] = true;
    if (lines[i].text.find('{') != std::string_view::npos || (shortSignature && i >= 1)) break;
  }
  if (keep.size() > 1) keep[1] = true;  // a one-line signature: the body's first line with it
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (int a : anchors)
      if (std::abs(lines[i].number - a) <= radius) keep[i] = true;
  std::vector<CodeLine> out;
  for (std::size_t i = 0; i < lines.size();) {
    std::size_t end = i;
    while (end < lines.size() && !keep[end]) ++end;
    if (end - i >= 2) {
      out.push_back({lines[i].number, {}, lines[end - 1].number});
      i = end;
    } else {
      out.push_back(lines[i++]);
    }
  }
  return out;
}

struct CodeView {
  std::vector<CodeLine> lines;
  ImFont* font;
};

// The projector's view of the code, never below a readable size (minPx, the text's): whole at
// the largest size that fits; else folded around the current step at the largest size that
// keeps ten lines around it (a loop's body), else at the smallest with as many as fit (with
// only the signature's first two lines if the step's lines need that room).
CodeView presenterView(const std::vector<CodeLine>& lines, const std::set<int>& anchors, std::span<ImFont* const> fonts,
                       float minPx, float avail, float room) {
  std::vector<ImFont*> readable;
  for (ImFont* font : fonts)
    if (font->FontSize >= minPx - 0.01f) readable.push_back(font);
  if (readable.empty()) readable.push_back(fonts.front());
  for (ImFont* font : readable)
    if (fitsAt(font, lines, avail, room)) return {lines, font};
  // The widest context that fits, by bisection (more context is never shorter); least - 1 if none.
  auto widest = [&](ImFont* font, int least, bool shortSignature = false) {
    int lo = least - 1, hi = int(lines.size());
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (fitsAt(font, foldAround(lines, anchors, mid, shortSignature), avail, room)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  constexpr int kContext = 10;
  for (ImFont* font : readable)
    if (const int r = widest(font, kContext); r >= kContext) return {foldAround(lines, anchors, r), font};
  ImFont* smallest = readable.back();
  if (const int r = widest(smallest, 0); r >= 0) return {foldAround(lines, anchors, r), smallest};
  return {foldAround(lines, anchors, std::max(widest(smallest, 0, true), 0), true), smallest};
}

// The lines, numbered, the step's lines banded (the current one in the highlight); records each
// in `report`. Returns where the current line was drawn (-1: not shown).
float drawCodeLines(PanelContext& ctx, const std::vector<CodeLine>& lines, const std::set<int>& stepLines, int currentLine,
                    const Layout& l, float width, SourceRect& report) {
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  float currentY = -1;
  for (const CodeLine& line : lines) {
    if (line.foldedTo) {  // a marker: which lines are left out, where they are
      ImGui::TextDisabled("    ... lines %d-%d ...", line.number, line.foldedTo);
      report.folded.push_back({line.number, line.foldedTo});
      report.textHeight += lineHeight(line, l, width);
      continue;
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    // The indentation becomes the text's start, so a wrapped statement continues under itself
    // (ImGui would otherwise break after the leading blanks and leave the number alone).
    const std::size_t code = std::min(line.text.find_first_not_of(' '), line.text.size());
    const float indent = indentOf(line.text, l, width);
    const std::string_view statement = line.text.substr(code);
    const float height = lineHeight(line, l, width);
    if (stepLines.count(line.number)) {
      const Rgba band = line.number == currentLine ? theme.highlight : theme.stateColour(ThreadState::Released);
      draw->AddRectFilled(p, ImVec2(p.x + ImGui::GetWindowWidth(), p.y + height), (band & 0x00ffffffu) | 0x50000000u);
      if (line.number == currentLine) currentY = ImGui::GetCursorPosY();
    }
    ImGui::TextDisabled("%3d", line.number);
    ImGui::SameLine(l.numberWidth + indent);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(statement.data(), statement.data() + statement.size());
    ImGui::PopTextWrapPos();
    report.width = width - l.numberWidth;  // the text column; wrapping keeps every line inside it
    report.widestLine = std::max(report.widestLine, indent + ImGui::GetItemRectSize().x);
    report.textHeight += height;
    if (line.number == currentLine) report.currentText = std::string(line.text);
    if (line.number == currentLine || &line == &lines.front())
      recordTextAt(ctx, "Source", std::string(statement), ImGui::GetItemRectMin(), theme.panelText, theme.windowBg);
  }
  return currentY;
}

}  // namespace

void drawSourcePanel(PanelContext& ctx) {
  const SourceView* view = shownSourceView(ctx.state);
  if (!view) return;
  const std::string& path = view->path;
  const bool presenter = ctx.state.lesson.presenter;
  if (!presenter || !view->embedded) ImGui::TextDisabled("%s", path.c_str());  // a projector's lesson names the kernel
  if (!view->embedded) {
    textWrappedF("%s is not embedded in this build.", path.c_str());
    return;
  }
  const std::set<int>& stepLines = view->stepLines;
  const int currentLine = view->currentLine;

  std::vector<CodeLine> lines = codeLines(view->text, presenter);
  SourceRect& report = ctx.layout.source;
  report = SourceRect{};
  report.file = path;
  report.currentLine = currentLine;
  report.stepLines.assign(stepLines.begin(), stepLines.end());
  report.firstLine = lines.empty() ? 1 : lines.front().number;
  report.lines = lines.empty() ? 0 : lines.back().number;
  // The code's font: the mono font, or on a projector the largest size that shows it all.
  ImFont* font = ctx.monoFont;
  // On a projector the statements follow each other at the font's own line height (no item
  // spacing), so more of the kernel fits at the text's size.
  if (presenter) ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
  if (presenter && !ctx.codeFonts.empty()) {
    std::set<int> anchors = stepLines;
    if (currentLine >= 0) anchors.insert(currentLine);
    const float minPx = kBaseFontPx * presenterFontScale(ImGui::GetIO().DisplaySize.y);
    CodeView view = presenterView(lines, anchors, ctx.codeFonts, minPx, ImGui::GetContentRegionAvail().x,
                                  ImGui::GetContentRegionAvail().y);
    lines = std::move(view.lines);
    font = view.font;
  }
  // On a projector the code is folded to fit and never scrolls: no scrollbar, whose width, once
  // shown, would wrap the lines taller than the fit measured and keep itself shown.
  ImGui::BeginChild("code", ImVec2(0, 0), false, presenter ? ImGuiWindowFlags_NoScrollbar : 0);
  if (font) ImGui::PushFont(font);
  const Layout l = currentLayout();
  const float width = ImGui::GetContentRegionAvail().x;
  report.fontPx = ImGui::GetFontSize();
  report.visibleHeight = ImGui::GetWindowHeight();
  const float currentY = drawCodeLines(ctx, lines, stepLines, currentLine, l, width, report);
  // Keep the current line in view when it changes.
  if (currentY >= 0 && (currentY < ImGui::GetScrollY() || currentY > ImGui::GetScrollY() + ImGui::GetWindowHeight() - l.lineH))
    ImGui::SetScrollY(currentY - ImGui::GetWindowHeight() * 0.4f);
  if (font) ImGui::PopFont();
  ImGui::EndChild();
  if (presenter) ImGui::PopStyleVar();
}

}  // namespace tilescope::ui
