// The overlay of keys (? or F1): every shortcut app.cpp's shortcuts() knows, in one table over
// the middle of the screen, so nobody has to find them in a guide while a class waits.
#include <imgui.h>

#include "platform/page.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

struct KeyLine {
  const char* keys;
  const char* what;
};

// Kept beside shortcuts() in app.cpp: a key added there is listed here.
constexpr KeyLine kKeys[] = {
    {"Space", "play / pause"},
    {"Left, Right", "step back, forward"},
    {"Up, Down", "coarser, finer steps (phase, barrier interval, k step)"},
    {"+, -", "faster, slower"},
    {"Home, End", "to the start, to the end"},
    {"N or PageDown, B or PageUp", "next, previous lesson page"},
    {"F5, Esc", "presenter layout on, off (in a lesson)"},
    {"P", "presentation mode: larger text, high contrast"},
    {"F", "fullscreen"},
    {"? or F1", "this list (Esc closes it)"},
};
// Only a page has an address to copy (app.cpp's copyLink).
constexpr KeyLine kPageKey = {"L", "copy the link to what is on screen (the page's address)"};

void keyRow(PanelContext& ctx, const KeyLine& k) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(k.keys);
  recordText(ctx, "Keys", k.keys);  // the layout file lists the keys shown
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(k.what);
}

}  // namespace

void drawKeyHelp(PanelContext& ctx) {
  ctx.layout.keyHelp = ctx.state.view.keyHelp;
  if (!ctx.state.view.keyHelp) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
  if (ImGui::Begin("Keys", nullptr, kFlags)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const KeyLine& k : kKeys) keyRow(ctx, k);
      if (platform::pageAddressBase()) keyRow(ctx, kPageKey);
      endTable(ctx, "Keys");
    }
    if (ImGui::Button("close")) ctx.emit(ToggleKeyHelp{});
  }
  ImGui::End();
}

}  // namespace tilescope::ui
