// The theme handed to Dear ImGui's style (theme.cpp decides the colours without ImGui).
#include <imgui.h>

#include "ui/theme.h"

namespace tilescope::ui {
namespace {

ImVec4 toVec(Rgba c) {
  return ImVec4(float(c & 0xff) / 255.f, float((c >> 8) & 0xff) / 255.f, float((c >> 16) & 0xff) / 255.f,
                float((c >> 24) & 0xff) / 255.f);
}

}  // namespace

void applyImGuiStyle(const Theme& theme, bool presentation, float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0.0f;
  style.FrameRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  style.Colors[ImGuiCol_Text] = toVec(theme.panelText);
  style.Colors[ImGuiCol_TextDisabled] = toVec(theme.textDisabled);
  style.Colors[ImGuiCol_WindowBg] = toVec(theme.windowBg);
  style.Colors[ImGuiCol_FrameBg] = toVec(theme.frameBg);
  style.Colors[ImGuiCol_PlotHistogram] = toVec(theme.progressFill);
  if (presentation) {
    style.FrameBorderSize = 1.0f;
    style.Colors[ImGuiCol_Border] = ImVec4(1, 1, 1, 0.6f);
    style.Colors[ImGuiCol_TitleBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.25f, 0.25f, 0.25f, 1);
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

}  // namespace tilescope::ui
