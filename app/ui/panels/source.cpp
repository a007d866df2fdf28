// Source: the kernel that ran, as written (embedded at build time by kernels/), without its
// facts, with the lines of the current step's events highlighted and the newest event's
// line marked. Long lines wrap under themselves, so no statement is cut off at any width. The
// projector layout shows the kernel whole: it leaves out the file's header comment and picks
// the largest code font at which every line fits the panel without scrolling.
#include <imgui.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/kernel_sources.h"
#include "ui/panels/panels.h"

namespace tilescope::ui {
namespace {

struct CodeLine {
  int number;
  std::string_view text;
};

// Where a statement starts, and how far it is indented (bounded, so deep code still has room).
struct Layout {
  float numberWidth, space, lineH, spacing;
};

float indentOf(std::string_view line, const Layout& l, float avail) {
  const std::size_t code = std::min(line.find_first_not_of(' '), line.size());
  return std::min(float(code) * l.space, avail * 0.25f);
}

float lineHeight(std::string_view line, const Layout& l, float avail) {
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
  for (const CodeLine& line : lines) h += lineHeight(line.text, l, avail);
  return h;
}

}  // namespace

void drawSourcePanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  const BlockTimeline* block = ctx.state.shown.block.get();
  if (!run || !block) return;
  const Theme& theme = ctx.theme();
  // A built-in kernel's file as embedded, or the Lab tab's kernel as the student wrote it.
  const KernelInfo& info = kernelInfo(run->run.config.kernel);
  const std::optional<LabKernel>& lab = run->run.lab;
  const std::string path = lab ? "lab: " + lab->fileName : "kernels/" + std::string(info.sourceFile);
  const auto source = lab ? std::optional<std::string_view>(lab->text) : kernelSource(info.id);
  const bool presenter = ctx.state.lesson.presenter;
  ImGui::TextDisabled("%s", path.c_str());
  if (!source) {
    ImGui::TextWrapped("%s is not embedded in this build.", path.c_str());
    return;
  }
  const Timeline& t = run->timeline;
  const Cursor c = t.normalize(ctx.state.shown.cursor);
  const auto& events = t.trace().events;
  std::set<int> stepLines;
  for (uint32_t i : block->stepEvents(c.step)) stepLines.insert(events[i].line);
  const int64_t current = block->currentEvent(c);
  const int currentLine = current >= 0 ? events[std::size_t(current)].line : -1;

  std::vector<CodeLine> lines;
  for (std::string_view text = lab ? *source : kernelBody(*source); !text.empty();) {
    const auto nl = text.find('\n');
    lines.push_back({int(lines.size()) + 1, text.substr(0, nl)});
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  if (presenter) {  // the header comment describes the file; the lesson's text does that on a projector
    std::size_t first = 0;
    while (first < lines.size()) {
      const std::string_view l = lines[first].text;
      const std::size_t code = l.find_first_not_of(' ');
      if (code != std::string_view::npos && l.substr(code, 2) != "//") break;
      ++first;
    }
    if (first < lines.size()) lines.erase(lines.begin(), lines.begin() + std::ptrdiff_t(first));
  }

  SourceRect& report = ctx.layout.source;
  report = SourceRect{path, 0, currentLine, "", std::vector<int>(stepLines.begin(), stepLines.end()), 0.0f, 0.0f};
  report.firstLine = lines.empty() ? 1 : lines.front().number;
  report.lines = lines.empty() ? 0 : lines.back().number;
  // The code's font: the mono font, or on a projector the largest size that shows it all.
  ImFont* font = ctx.monoFont;
  const float avail = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize * (presenter ? 0.0f : 1.0f);
  const float room = ImGui::GetContentRegionAvail().y;
  if (presenter && !ctx.codeFonts.empty()) {
    // A kernel too long to fit at any size (the ladder's top rungs) keeps a middle size,
    // readable from the back row, and scrolls to the current line.
    font = ctx.codeFonts[ctx.codeFonts.size() / 2];
    for (ImFont* candidate : ctx.codeFonts) {
      ImGui::PushFont(candidate);
      const bool fits = codeHeight(lines, avail) <= room;
      ImGui::PopFont();
      if (fits) {
        font = candidate;
        break;
      }
    }
  }
  ImGui::BeginChild("code", ImVec2(0, 0), false);
  if (font) ImGui::PushFont(font);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const Layout l = currentLayout();
  const float width = ImGui::GetContentRegionAvail().x;
  report.fontPx = ImGui::GetFontSize();
  report.visibleHeight = ImGui::GetWindowHeight();
  float currentY = -1;
  for (const CodeLine& line : lines) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    // The indentation becomes the text's start, so a wrapped statement continues under itself
    // (ImGui would otherwise break after the leading blanks and leave the number alone).
    const std::size_t code = std::min(line.text.find_first_not_of(' '), line.text.size());
    const float indent = indentOf(line.text, l, width);
    const std::string_view statement = line.text.substr(code);
    const float height = lineHeight(line.text, l, width);
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
  }
  // Keep the current line in view when it changes.
  if (currentY >= 0 && (currentY < ImGui::GetScrollY() || currentY > ImGui::GetScrollY() + ImGui::GetWindowHeight() - l.lineH))
    ImGui::SetScrollY(currentY - ImGui::GetWindowHeight() * 0.4f);
  if (font) ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace tilescope::ui
