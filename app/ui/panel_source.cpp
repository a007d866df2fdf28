// Source: the kernel that ran, as written (embedded at build time by kernels/), without its
// facts, with the lines of the current step's events highlighted and the newest event's
// line marked. Long lines wrap under themselves, so no statement is cut off at any width.
#include <imgui.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "kernels/kernel_sources.h"
#include "panels.h"

namespace tilescope::ui {

void drawSourcePanel(PanelContext& ctx) {
  const LoadedRun* run = shownRun(ctx.state);
  const BlockTimeline* block = ctx.state.shown.block.get();
  if (!run || !block) return;
  const Theme& theme = ctx.theme();
  const KernelInfo& info = kernelInfo(run->run.config.kernel);
  const std::string path = "kernels/" + std::string(info.sourceFile);
  const auto source = kernelSource(info.id);
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

  ImGui::BeginChild("code", ImVec2(0, 0), false);
  if (ctx.monoFont) ImGui::PushFont(ctx.monoFont);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float lineH = ImGui::GetTextLineHeightWithSpacing();
  std::string_view text = kernelBody(*source);
  SourceRect& report = ctx.layout.source;
  report = SourceRect{path, 0, currentLine, "", std::vector<int>(stepLines.begin(), stepLines.end()), 0.0f, 0.0f};
  const float numberWidth = ImGui::CalcTextSize("000 ").x;
  int number = 1;
  float currentY = -1;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    // The indentation becomes the text's start, so a wrapped statement continues under itself
    // (ImGui would otherwise break after the leading blanks and leave the number alone).
    const std::size_t code = std::min(line.find_first_not_of(' '), line.size());
    const float indent = std::min(float(code) * ImGui::CalcTextSize(" ").x, ImGui::GetContentRegionAvail().x * 0.25f);
    const std::string_view statement = line.substr(code);
    const float wrapWidth = std::max(ImGui::GetContentRegionAvail().x - numberWidth - indent, numberWidth);
    const float height =
        std::max(lineH, ImGui::CalcTextSize(statement.data(), statement.data() + statement.size(), false, wrapWidth).y +
                            ImGui::GetStyle().ItemSpacing.y);
    if (stepLines.count(number)) {
      const Rgba band = number == currentLine ? theme.highlight : theme.stateColour(ThreadState::Released);
      draw->AddRectFilled(p, ImVec2(p.x + ImGui::GetWindowWidth(), p.y + height), (band & 0x00ffffffu) | 0x50000000u);
      if (number == currentLine) currentY = ImGui::GetCursorPosY();
    }
    ImGui::TextDisabled("%3d", number);
    ImGui::SameLine(numberWidth + indent);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(statement.data(), statement.data() + statement.size());
    ImGui::PopTextWrapPos();
    report.width = wrapWidth;
    report.widestLine = std::max(report.widestLine, ImGui::GetItemRectSize().x);
    if (number == currentLine) report.currentText = std::string(line);
    report.lines = number;
    ++number;
  }
  // Keep the current line in view when it changes.
  if (currentY >= 0 && (currentY < ImGui::GetScrollY() || currentY > ImGui::GetScrollY() + ImGui::GetWindowHeight() - lineH))
    ImGui::SetScrollY(currentY - ImGui::GetWindowHeight() * 0.4f);
  if (ctx.monoFont) ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace tilescope::ui
