// A thread state's glyph, so states are told apart by shape and not by grey level alone:
// loading a down arrow (values come in), waiting two bars (pause), released a play triangle,
// computing a plus (multiply-add), stored a tick, idle nothing. The Thread block panel draws one
// on every thread and beside each legend entry; the timeline's strip on each kind of step.
#pragma once
#include <imgui.h>

#include "core/timeline/timeline.h"
#include "ui/theme.h"

namespace tilescope::ui {

inline void drawStateGlyph(ImDrawList* draw, ThreadState s, ImVec2 min, float side, Rgba ink) {
  if (side < 7.0f) return;  // too small to read: the colour and the tooltip carry it
  const float m = side * 0.22f, w = std::max(1.5f, side * 0.1f);
  const ImVec2 a(min.x + m, min.y + m), b(min.x + side - m, min.y + side - m);
  const float cx = (a.x + b.x) * 0.5f, cy = (a.y + b.y) * 0.5f;
  switch (s) {
    case ThreadState::Loading:
      draw->AddLine(ImVec2(cx, a.y), ImVec2(cx, b.y - w), ink, w);
      draw->AddTriangleFilled(ImVec2(a.x, cy), ImVec2(b.x, cy), ImVec2(cx, b.y), ink);
      break;
    case ThreadState::Waiting: {
      const float bar = (b.x - a.x) * 0.3f;
      draw->AddRectFilled(a, ImVec2(a.x + bar, b.y), ink);
      draw->AddRectFilled(ImVec2(b.x - bar, a.y), b, ink);
      break;
    }
    case ThreadState::Released: draw->AddTriangleFilled(a, ImVec2(a.x, b.y), ImVec2(b.x, cy), ink); break;
    case ThreadState::Computing:
      draw->AddLine(ImVec2(a.x, cy), ImVec2(b.x, cy), ink, w * 1.5f);
      draw->AddLine(ImVec2(cx, a.y), ImVec2(cx, b.y), ink, w * 1.5f);
      break;
    case ThreadState::Stored: {
      const ImVec2 tick[3] = {ImVec2(a.x, cy), ImVec2(a.x + (b.x - a.x) * 0.4f, b.y), b.x > a.x ? ImVec2(b.x, a.y) : a};
      draw->AddPolyline(tick, 3, ink, 0, w * 1.5f);
      break;
    }
    case ThreadState::Idle: break;
  }
}

}  // namespace tilescope::ui
