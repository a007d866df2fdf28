#include "ui/panels/event_text.h"

#include <imgui.h>

#include "ui/panels/text_record.h"

namespace tilescope::ui {

void tooltip(const std::string& text) {
  ImGui::BeginTooltip();
  textWrapped(text, ImGui::GetFontSize() * 30.0f - ImGui::GetCursorPosX());  // where PushTextWrapPos would wrap
  ImGui::EndTooltip();
}

void sameLineIfFits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

}  // namespace tilescope::ui
