#include <imgui.h>

#include "panels.h"

namespace tilescope::ui {

void drawSharedPanel(PanelContext& ctx) { ImGui::TextDisabled("Shared memory: coming next"); }

}  // namespace tilescope::ui
