#include <imgui.h>

#include "panels.h"

namespace tilescope::ui {

void drawTimelinePanel(PanelContext& ctx) { ImGui::TextDisabled("Timeline: coming next"); }

}  // namespace tilescope::ui
