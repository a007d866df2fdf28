#include "theme.h"

#include <imgui.h>

#include <cstdio>
#include <string>

namespace tilescope::ui {
namespace {

constexpr Rgba hex(uint32_t rgb) { return gfx::rgba((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff); }

ImVec4 toVec(Rgba c) {
  return ImVec4(float(c & 0xff) / 255.f, float((c >> 8) & 0xff) / 255.f, float((c >> 16) & 0xff) / 255.f,
                float((c >> 24) & 0xff) / 255.f);
}

}  // namespace

std::string_view paletteName(Palette p) { return p == Palette::OkabeIto ? "okabe-ito" : "vivid"; }

Theme makeTheme(Palette palette, bool presentation) {
  Theme t;
  t.palette = palette;
  t.highContrast = presentation;
  t.outlinePx = presentation ? 2.0f : 1.0f;
  t.highlightPx = presentation ? 5.0f : 3.0f;
  t.background = presentation ? hex(0x000000) : hex(0x1c1f26);
  t.panelText = presentation ? hex(0xffffff) : hex(0xe6e6e6);
  t.cellIdle = presentation ? hex(0x2a2a2a) : hex(0x353b48);
  t.cellGhost = presentation ? hex(0x101010) : hex(0x23262e);
  t.cellOutline = presentation ? hex(0x9a9a9a) : hex(0x14161b);
  t.cellMark = hex(0xffffff);
  if (palette == Palette::OkabeIto) {
    // Okabe & Ito's eight colours, distinguishable with every common colour-vision deficiency.
    // Yellow is kept for the highlight and vermillion for errors, so threads use the rest.
    const Rgba threads[8] = {hex(0x0072b2), hex(0xe69f00), hex(0x009e73), hex(0xcc79a7),
                             hex(0x56b4e9), hex(0x8c6d1f), hex(0x6a51a3), hex(0x999999)};
    for (int i = 0; i < 8; ++i) t.threadColours[i] = threads[i];
    t.highlight = hex(0xf0e442);
    t.error = hex(0xd55e00);
    t.pStored = hex(0x009e73);
  } else {
    const Rgba threads[8] = {hex(0x1f77b4), hex(0xff7f0e), hex(0x2ca02c), hex(0x9467bd),
                             hex(0x17becf), hex(0x8c564b), hex(0xe377c2), hex(0x7f7f7f)};
    for (int i = 0; i < 8; ++i) t.threadColours[i] = threads[i];
    t.highlight = hex(0xffd700);
    t.error = hex(0xd62728);
    t.pStored = hex(0x2ca02c);
  }
  t.readRing = hex(0xffffff);
  t.zeroFilled = presentation ? hex(0x505050) : hex(0x4a4f5c);
  t.pPending = t.cellIdle;
  t.stateColours[int(ThreadState::Idle)] = t.cellIdle;
  t.stateColours[int(ThreadState::Loading)] = hex(0x0072b2);
  t.stateColours[int(ThreadState::Waiting)] = hex(0xe69f00);
  t.stateColours[int(ThreadState::Released)] = hex(0x56b4e9);
  t.stateColours[int(ThreadState::Computing)] = hex(0xcc79a7);
  t.stateColours[int(ThreadState::Stored)] = t.pStored;
  t.warpTint = presentation ? hex(0xffffff) : hex(0x8a93a6);
  t.follow = hex(0xff2ef0);  // magenta: no thread, state or highlight colour is near it
  t.followPx = presentation ? 5.0f : 3.0f;
  // A sequential light-to-dark blue: few loads pale, the naive kernel's count dark.
  t.loadsFew = hex(0xdeebf7);
  t.loadsMany = hex(0x08306b);
  return t;
}

void applyImGuiStyle(const Theme& theme, bool presentation, float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0.0f;
  style.FrameRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  style.Colors[ImGuiCol_Text] = toVec(theme.panelText);
  style.Colors[ImGuiCol_WindowBg] = toVec(presentation ? hex(0x000000) : hex(0x22262e));
  if (presentation) {
    style.FrameBorderSize = 1.0f;
    style.Colors[ImGuiCol_Border] = ImVec4(1, 1, 1, 0.6f);
    style.Colors[ImGuiCol_TitleBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.25f, 0.25f, 0.25f, 1);
  }
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

std::string hexColour(Rgba c) {
  char text[8];
  std::snprintf(text, sizeof text, "#%02x%02x%02x", c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff);
  return text;
}

}  // namespace tilescope::ui
