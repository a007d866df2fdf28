// Copy engine: rung 8's ring of shared-memory stages at the cursor, drawn large for a class.
// A column per stage with the tiles of M and N it holds, coloured by where the stage stands
// (empty, being filled by the copy engine, full, being read, released), who issued each copy,
// and the stage's two mbarriers in words; under them the consumers waiting on a phase and what
// the producer thread does. The model is computed first (core/timeline/copy_ring.h), then drawn.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

// A state's fill and the text drawn over it. Theme colours with the meaning nearest each state:
// a read slot's white for a stage being read, the progress bar's blue (white text over it is a
// pair the contrast test holds) for a full one, the current tile's yellow, as stripes, for the
// copy engine writing, the idle and ghost cells for empty and released.
struct StateLook {
  Rgba fill, text;
  bool stripes = false;
};
StateLook lookOf(StageState s, const Theme& t) {
  switch (s) {
    case StageState::Empty: return {t.cellIdle, t.panelText};
    case StageState::Filling: return {t.cellIdle, t.panelText, true};
    case StageState::Full: return {t.progressFill, t.panelText};
    case StageState::Reading: return {t.readRing, t.background};
    case StageState::Released: return {t.cellGhost, t.textDisabled};
  }
  return {t.cellIdle, t.panelText};
}

std::string stateWords(const RingStage& s) {
  switch (s.state) {
    case StageState::Empty: return "empty";
    case StageState::Filling: return s.n.byThreads ? "filling (copy engine and threads)" : "copy engine filling";
    case StageState::Full: return "full, not read yet";
    case StageState::Reading: return "read by " + std::to_string(s.readers) + " consumers";
    case StageState::Released: return "released";
  }
  return "";
}

// A filled box with stripes in the current tile's colour while the copy engine writes it.
void drawBox(ImDrawList* draw, ImVec2 lo, ImVec2 hi, const StateLook& look, const Theme& theme, float px) {
  draw->AddRectFilled(lo, hi, look.fill, 3.0f);
  if (look.stripes) {
    draw->PushClipRect(lo, hi, true);
    const float step = px * 0.9f, h = hi.y - lo.y;
    for (float x = lo.x - h; x < hi.x; x += step)
      draw->AddLine(ImVec2(x, hi.y), ImVec2(x + h, lo.y), theme.highlight, std::max(2.0f, px * 0.18f));
    draw->PopClipRect();
  }
  draw->AddRect(lo, hi, look.stripes ? theme.highlight : theme.cellOutline, 3.0f, 0, look.stripes ? 3.0f : 1.0f);
}

// One tile of a stage: "M, k tile 3" and its bytes, in a box of the stage's state.
std::array<float, 4> drawTile(const char* matrix, const RingCopy& c, const RingStage& s, ImVec2 at, float width,
                              const Theme& theme) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float px = ImGui::GetFontSize(), h = px * 2.7f;
  const StateLook look = lookOf(s.state, theme);
  drawBox(draw, at, ImVec2(at.x + width, at.y + h), look, theme, px);
  std::string top = std::string(matrix) + (c.tile >= 0 ? ", k tile " + std::to_string(c.tile) : ": no tile yet");
  if (c.byThreads) top += ", by threads";  // not a copy: the producers write it
  const int in = c.byThreads ? c.bytesWritten : c.landed ? c.bytes : 0;
  std::string bottom = c.tile < 0                          ? ""
                       : s.state == StageState::Filling ? std::to_string(in) + " of " + std::to_string(c.bytes) + " bytes"
                                                        : std::to_string(c.bytes) + " bytes";
  if (c.zeroFill) bottom += ", zero-filled";
  const float pad = px * 0.35f;
  const ImVec4 clip(at.x, at.y, at.x + width - pad, at.y + h);
  // Over stripes the text gets a plate of the idle colour so it stays readable.
  for (int line = 0; line < 2; ++line) {
    const std::string& text = line == 0 ? top : bottom;
    if (text.empty()) continue;
    const ImVec2 p(at.x + pad, at.y + pad * 0.6f + float(line) * px * 1.15f);
    if (look.stripes) {
      const ImVec2 size = ImGui::CalcTextSize(text.c_str());
      draw->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(std::min(p.x + size.x + 2, clip.z), p.y + size.y), theme.cellIdle);
    }
    draw->AddText(nullptr, 0.0f, p, look.text, text.c_str(), nullptr, 0.0f, &clip);
  }
  return {at.x, at.y, width, h};
}

// Wrapped text at (x, y) no wider than `width` (screen pixels); returns the y under it.
float wrappedText(const std::string& text, float x, float y, float width, bool dim = false) {
  ImGui::SetCursorScreenPos(ImVec2(x, y));
  if (dim) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrapped(text, width);
  if (dim) ImGui::PopStyleColor();
  return ImGui::GetItemRectMax().y;
}

const RingBarrier* barrierOf(const CopyRing& ring, BarrierRole role, int index) {
  for (const RingBarrier& b : ring.barriers)
    if (b.role == role && b.index == index) return &b;
  return nullptr;
}

// One stage's column; returns its bottom.
float drawStage(const CopyRing& ring, const RingStage& s, ImVec2 at, float width, const Theme& theme,
                CopyEngineRect& record) {
  const float px = ImGui::GetFontSize(), gap = px * 0.3f;
  float y = wrappedText("stage " + std::to_string(s.index) + ": " + stateWords(s), at.x, at.y, width);
  record.mBoxes.push_back(drawTile("M", s.m, s, ImVec2(at.x, y + gap), width, theme));
  record.nBoxes.push_back(drawTile("N", s.n, s, ImVec2(at.x, record.mBoxes.back()[1] + record.mBoxes.back()[3] + gap),
                                   width, theme));
  y = record.nBoxes.back()[1] + record.nBoxes.back()[3] + gap;
  if (s.m.tile >= 0) {
    // Where the column has a line for it: a narrow one (four stages at 720) leaves it to the
    // panel's first line (the copy engine writes each tile) and the Producer line (its issuer).
    const std::string issued = "copied by TMA (issued by " + threadName(s.m.issuerX, s.m.issuerY) + ")";
    if (ImGui::CalcTextSize(issued.c_str()).x <= width) y = wrappedText(issued, at.x, y, width, true);
  }
  for (BarrierRole role : {BarrierRole::Full, BarrierRole::Empty})
    if (const RingBarrier* b = barrierOf(ring, role, s.index)) y = wrappedText(b->text(), at.x, y + gap, width);
  return y;
}

void drawLegend(const Theme& theme) {
  const float px = ImGui::GetFontSize();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (StageState s : {StageState::Empty, StageState::Filling, StageState::Full, StageState::Reading, StageState::Released}) {
    const std::string word(stageStateName(s));
    const float w = px * 1.4f + ImGui::CalcTextSize(word.c_str()).x + px * 0.8f;
    if (s != StageState::Empty) {
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::NewLine();
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    drawBox(draw, ImVec2(p.x, p.y + px * 0.1f), ImVec2(p.x + px, p.y + px * 1.1f), lookOf(s, theme), theme, px * 0.5f);
    ImGui::SetCursorScreenPos(ImVec2(p.x + px * 1.3f, p.y));
    ImGui::TextUnformatted(word.c_str());
  }
}

}  // namespace

void drawCopyEnginePanel(PanelContext& ctx) {
  const CopyEngineView* view = shownCopyEngineView(ctx.state);
  if (!view) return;
  if (!view->applies) {
    textWrappedF(
        "This kernel moves no tile with the copy engine: its threads load every tile themselves. "
        "Rung 8 (tma-pipeline) has the Tensor Memory Accelerator copy whole tiles into a ring of stages.");
    return;
  }
  const Theme& theme = ctx.theme();
  CopyEngineRect record;
  record.ring = view->ring;
  const CopyRing& ring = record.ring;
  // Who writes each tile: the copy engine alone (rung 8), or it and the producers (rung 11: TMA
  // cannot turn N's tile, the producer warpgroup writes it).
  const std::string issued = std::to_string(ring.copiesIssued) + " of " + std::to_string(ring.copiesTotal);
  const std::string block = "Block (" + std::to_string(view->bx) + "," + std::to_string(view->by) + "): ";
  const std::string header =
      ring.nByThreads ? block + "the copy engine (TMA) writes M's tiles into a ring of " + std::to_string(ring.stageCount) +
                            " stages (copies issued: " + issued +
                            "); the producer warpgroups' threads write N's tiles there themselves."
                      : block + "no thread loads a tile. The copy engine (TMA) writes each one into a ring of " +
                            std::to_string(ring.stageCount) + " stages; copies issued: " + issued + ".";
  textWrapped(header);
  recordText(ctx, "Copy engine", header);
  const float px = ImGui::GetFontSize(), gap = px * 0.8f;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float column = (width - gap * float(ring.stageCount - 1)) / float(std::max(ring.stageCount, 1));
  float bottom = origin.y;
  for (const RingStage& s : ring.stages)
    bottom = std::max(bottom, drawStage(ring, s, ImVec2(origin.x + float(s.index) * (column + gap), origin.y), column,
                                        theme, record));
  record.x = origin.x;
  record.y = origin.y;
  record.width = width;
  record.height = bottom - origin.y;
  ImGui::SetCursorScreenPos(ImVec2(origin.x, bottom + px * 0.5f));
  textWrappedF("Consumers: %s.", ring.waitText().c_str());
  textWrappedF("Producer: %s.", ring.producer.c_str());
  drawLegend(theme);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  textWrappedF(
      "The trace records when a copy was issued, not when its bytes arrived: they are drawn "
      "arriving one step later.");
  ImGui::PopStyleColor();
  ctx.layout.copyEngine = std::move(record);
}

}  // namespace tilescope::ui
