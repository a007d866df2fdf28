#include <imgui.h>

#include "panels.h"

namespace tilescope::ui {

void drawCountersPanel(PanelContext& ctx) { ImGui::TextDisabled("Counters: coming next"); }

}  // namespace tilescope::ui
