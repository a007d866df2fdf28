// The app's fonts: found once per session (app/platform's font_finder.h), rasterised into
// Dear ImGui's atlas at the interface's scale and the screen's pixel ratio, rebuilt when either
// changes (the frame loop in app.cpp asks).
#pragma once
#include <vector>

#include <imgui.h>

#include "platform/font_finder.h"
#include "ui/state/app_state.h"

namespace tilescope::ui {

struct Fonts {
  Result<platform::FontFile> sansFile = unavailable("not looked up");
  Result<platform::FontFile> monoFile = unavailable("not looked up");
  ImFont* sans = nullptr;
  ImFont* mono = nullptr;
  std::vector<ImFont*> code;  // mono at the Source panel's sizes, largest first
  ImFont* caption = nullptr;  // the step in words
  float builtScale = 0.0f;
  float builtRatio = 0.0f;  // the window's pixelRatio() the atlas was rasterised at
};

// Once per session: fontconfig's answer does not change while the app runs, and the message
// about a fallback should appear once, not at every font-scale change.
void findFonts(Fonts& fonts, AppState& state);
// Rebuilds the font atlas at the new scale: crisp text at 1x-3x instead of stretched pixels.
void buildFonts(Fonts& fonts, float scale, float ratio);

}  // namespace tilescope::ui
