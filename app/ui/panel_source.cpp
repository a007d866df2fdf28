#include <imgui.h>

#include "panels.h"

namespace tilescope::ui {

void drawSourcePanel(PanelContext& ctx) { ImGui::TextDisabled("Source: coming next"); }

}  // namespace tilescope::ui
