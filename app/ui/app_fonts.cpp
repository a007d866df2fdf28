#include "app_fonts.h"

#include <cmath>
#include <cstdio>

#include <imgui_impl_opengl3.h>

#include "ui/panels/panels.h"

namespace tilescope::ui {

void findFonts(Fonts& fonts, AppState& state) {
  fonts.sansFile = platform::findFont(platform::FontRole::Sans);
  fonts.monoFile = platform::findFont(platform::FontRole::Mono);
  for (const auto* f : {&fonts.sansFile, &fonts.monoFile})
    if (!*f)
      std::fprintf(stderr, "tilescope: %s; using Dear ImGui's built-in font for %s\n", f->error().message.c_str(),
                   f == &fonts.sansFile ? "the interface" : "source code");
  state.fonts.sans = fonts.sansFile ? fonts.sansFile->path : "";
  state.fonts.mono = fonts.monoFile ? fonts.monoFile->path : "";
}

namespace {

// `px` in layout pixels; the glyphs are rasterised at `px * ratio` framebuffer pixels and drawn
// at 1 / ratio (io.FontGlobalScale), so a page on a Retina screen gets text as sharp as its HTML.
ImFont* addFont(const Result<platform::FontFile>& file, float px, float ratio) {
  ImGuiIO& io = ImGui::GetIO();
  px *= ratio;
  if (file) {
    ImFontConfig config;
    config.FontNo = file->index;
    if (ImFont* font = io.Fonts->AddFontFromFileTTF(file->path.c_str(), px, &config)) return font;
  }
  ImFontConfig config;  // ImGui's built-in bitmap font, scaled
  config.SizePixels = std::round(13.0f * px / kBaseFontPx);
  return io.Fonts->AddFontDefault(&config);
}

}  // namespace

void buildFonts(Fonts& fonts, float scale, float ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  io.FontGlobalScale = 1.0f / ratio;
  fonts.sans = addFont(fonts.sansFile, std::round(kBaseFontPx * scale), ratio);
  fonts.mono = addFont(fonts.monoFile, std::round(kBaseFontPx * scale), ratio);
  // The Source panel picks the largest of these that shows the whole kernel (presenter layout).
  fonts.code.assign(1, fonts.mono);
  for (float f : {0.9f, 0.8f, 0.72f, 0.65f, 0.58f, 0.52f})
    if (const float px = std::round(kBaseFontPx * scale * f); px >= 10.0f) fonts.code.push_back(addFont(fonts.monoFile, px, ratio));
  fonts.caption = addFont(fonts.sansFile, std::round(kBaseFontPx * scale * 1.15f), ratio);
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  fonts.builtScale = scale;
  fonts.builtRatio = ratio;
}

}  // namespace tilescope::ui
