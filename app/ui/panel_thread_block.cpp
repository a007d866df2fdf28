#include <imgui.h>

#include "panels.h"

namespace tilescope::ui {

void drawThreadBlockPanel(PanelContext& ctx) { ImGui::TextDisabled("Thread block: coming next"); }

}  // namespace tilescope::ui
