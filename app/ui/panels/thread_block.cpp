// Thread block: the selected block's threads laid out as threadIdx (y rows, x columns), or a
// warp per row for the ladder's one-dimensional blocks, coloured by state at the cursor; warps
// alternate their outline; barrier arrivals count up until the block is released.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <string>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/state_glyph.h"
#include "ui/panels/text_record.h"
#include "ui/model/thread_block_view.h"

namespace tilescope::ui {
namespace {

// On a projector's narrow column the legend says "waiting" for "waiting at barrier": the glyph
// and the progress bar above carry the rest, and the threads keep the room.
std::string legendText(ThreadState s, int count, bool compact = false) {
  const std::string name = compact && s == ThreadState::Waiting ? "waiting" : std::string(threadStateName(s));
  return name + " " + std::to_string(count);
}

constexpr ThreadState kShown[] = {ThreadState::Loading, ThreadState::Waiting, ThreadState::Released,
                                  ThreadState::Computing, ThreadState::Stored, ThreadState::Idle};

// The barrier's arrivals as a progress bar while the step is a barrier; false if it is not.
bool barrierBar(const PanelContext& ctx, const ThreadBlockView& v) {
  const Theme& theme = ctx.theme();
  if (!v.barrier()) return false;
  ImGui::PushStyleColor(ImGuiCol_PlotHistogram, v.released() ? theme.stateColour(ThreadState::Released)
                                                             : theme.stateColour(ThreadState::Waiting));
  // The longest wording that fits the bar (ImGui centres the label and cuts both ends).
  char label[96];
  const float room = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().FramePadding.x * 2;
  for (const char* format : {"barrier: %d/%d arrived%s", "%d/%d arrived%s", "%d/%d"}) {
    std::snprintf(label, sizeof label, format, v.arrivals, v.threads, v.released() ? ", released" : "");
    if (ImGui::CalcTextSize(label).x <= room) break;
  }
  ImGui::ProgressBar(float(v.arrivals) / float(v.threads), ImVec2(-1, 0), label);
  ImGui::PopStyleColor();
  return true;
}

// The block's heading and the barrier's bar above the grid. Not on a projector: there the
// caption names the block and the bar heads the legend's column (drawThreadBlockPanel), so
// the threads keep the panel's height.
void blockHeading(const PanelContext& ctx, const ThreadBlockView& v) {
  if (ctx.state.lesson.presenter) return;
  if (v.byWarp) {
    textWrappedF("block (%d,%d): %d threads (threadIdx.x), a warp per row, %d warps", v.bx, v.by, v.threads, v.warps);
  } else {
    textWrappedF("block (%d,%d): %dx%d threads, %d warp%s", v.bx, v.by, v.cols, v.rows, v.warps,
                 v.threads > kWarpSize ? "s" : "");
  }
  if (!barrierBar(ctx, v)) {
    // Wrapped: a narrow column is shorter than the sentence.
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrappedF("no barrier at this step");
    ImGui::PopStyleColor();
  }
}

// Whether the legend goes under the grid (where that gives the threads larger cells: the
// projector's narrow column, its lines wrapped to the column's width) rather than beside it;
// `space` is what the grid then has.
bool legendUnderGrid(const std::array<int, 6>& counts, bool compact, int rows, int cols, float maxCell, ImVec2& space, bool bar) {
  float legendW = 0;
  for (ThreadState s : kShown)
    if (!compact || counts[std::size_t(s)] > 0)
      legendW = std::max(legendW, ImGui::CalcTextSize(legendText(s, 0, compact).c_str()).x + ImGui::CalcTextSize("000").x);
  legendW += ImGui::GetFontSize() * 2.0f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float swatch = ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.x;
  float legendH = 0;
  for (ThreadState s : kShown)
    if (!compact || counts[std::size_t(s)] > 0)
      legendH += std::max(ImGui::GetFrameHeight(),
                          wrappedTextSize(legendText(s, counts[std::size_t(s)], compact), avail.x - swatch).y) +
                 ImGui::GetStyle().ItemSpacing.y;
  if (bar) legendH += ImGui::GetFrameHeightWithSpacing();  // the barrier's bar heads the legend on a projector
  const ImVec2 beside(std::max(avail.x - legendW, avail.x * 0.3f), avail.y);
  const ImVec2 under(avail.x, avail.y - legendH);
  const bool legendUnder = GridPainter::cellSide(rows, cols, under, maxCell) > GridPainter::cellSide(rows, cols, beside, maxCell);
  space = legendUnder ? under : beside;
  return legendUnder;
}

// Each thread's state as a glyph too, in the ink that reads on its fill.
void drawGlyphs(const GridRect& r, const ThreadBlockView& v) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float side = std::min(r.cellWidth, r.cellHeight);
  const std::vector<ThreadState>& states = v.states;
  const int cols = v.cols;
  for (int i = 0; i < std::min(v.threads, int(states.size())); ++i) {
    const ImVec2 at(r.x + float(i % cols) * r.cellWidth + (r.cellWidth - side) * 0.5f,
                    r.y + float(i / cols) * r.cellHeight + (r.cellHeight - side) * 0.5f);
    drawStateGlyph(draw, states[std::size_t(i)], at, side, v.glyphInk[std::size_t(states[std::size_t(i)])]);
  }
}

// A hovered thread's tooltip; a click follows it (or stops following it).
void threadHover(PanelContext& ctx, const ThreadBlockView& v, std::optional<CellIndex> hovered, int followed) {
  // Cell (row, col) is linear thread row * cols + col in both layouts; threadIdx from it.
  const int linear = hovered ? hovered->row * v.cols + hovered->col : -1;
  if (!hovered || linear >= v.threads) return;
  const int hx = linear % v.blockX, hy = linear / v.blockX;
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ctx.emit(linear == followed ? FollowThread{-1, -1} : FollowThread{hx, hy});
  tooltip("thread tx=" + std::to_string(hx) + ", ty=" + std::to_string(hy) + ", linear " + std::to_string(linear) +
          ", warp " + std::to_string(linear / kWarpSize) + "\n" + std::string(threadStateName(v.states[std::size_t(linear)])) +
          (linear == followed ? "\nclick: stop following it" : "\nclick: follow it through the steps"));
}

// The warps as numbered bands down the grid's left edge ("w0", "w1", ...), light and dark in
// turn (far more than 3:1 apart, where the cells' own shading of odd warps is faint on an idle
// block), each recorded for the layout file. Where a warp is a whole number of rows: a block
// wider than 32 threads has two warps in a row, told apart by the cells' outlines alone.
bool warpRulerFits(const ThreadBlockView& v) { return v.warps > 1 && v.cols > 0 && kWarpSize % v.cols == 0; }
float warpRulerWidth(const ThreadBlockView& v) {
  return warpRulerFits(v) ? ImGui::CalcTextSize("w00").x + ImGui::GetStyle().ItemSpacing.x * 1.5f : 0.0f;
}
void drawWarpRuler(PanelContext& ctx, const ThreadBlockView& v, const GridRect& grid) {
  if (!warpRulerFits(v)) return;
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float width = warpRulerWidth(v) - ImGui::GetStyle().ItemSpacing.x * 0.5f;
  const int rowsPerWarp = kWarpSize / v.cols;
  for (int w = 0; w < v.warps; ++w) {
    const float top = grid.y + float(w * rowsPerWarp) * grid.cellHeight;
    const float bottom = grid.y + float(std::min((w + 1) * rowsPerWarp, v.rows)) * grid.cellHeight;
    const Rgba band = w % 2 ? theme.frameBg : theme.panelText, ink = readableOn(band);
    const ImVec2 from(grid.x - warpRulerWidth(v), top);
    draw->AddRectFilled(from, ImVec2(from.x + width, bottom), band);
    const std::string label = "w" + std::to_string(w);
    // The label where it fits inside its band: a one-row warp of small cells keeps its colour alone.
    if (bottom - top >= ImGui::GetFontSize()) {
      const ImVec2 at(from.x + (width - ImGui::CalcTextSize(label.c_str()).x) * 0.5f,
                      (top + bottom - ImGui::GetFontSize()) * 0.5f);
      draw->AddText(at, ink, label.c_str());
    }
    recordTextAt(ctx, "Thread block", "warp band " + label, ImVec2(from.x, top), ink, band);
  }
}

}  // namespace

void drawThreadBlockPanel(PanelContext& ctx) {
  const ThreadBlockView* view = shownThreadBlockView(ctx.state);
  if (!view) return;
  const ThreadBlockView& v = *view;
  const Theme& theme = ctx.theme();
  blockHeading(ctx, v);
  // Grid on the left, legend (with live counts) in a column on its right. The projector layout
  // lists only the states some thread is in, so the legend fits its smaller window.
  const bool compact = ctx.state.lesson.presenter;
  const float maxCell = compact ? 80.0f : 40.0f * ctx.state.view.fontScale;
  ImVec2 space;
  const bool barInLegend = compact && v.barrier();
  const bool legendUnder = legendUnderGrid(v.counts, compact, v.rows, v.cols, maxCell, space, barInLegend);
  ImGui::BeginGroup();
  const float ruler = warpRulerWidth(v);
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + ruler);
  space.x = std::max(space.x - ruler, 1.0f);
  const auto hovered = ctx.grids.draw({"block", v.rows, v.cols, v.cells, space, maxCell}, theme, ctx.layout);
  drawWarpRuler(ctx, v, ctx.layout.grids.back());
  drawGlyphs(ctx.layout.grids.back(), v);
  const int followed = followedThread(ctx.state);
  if (followed >= 0) frameCells(ctx.layout.grids.back(), {{followed / v.cols, followed % v.cols}}, theme.follow, theme.followPx);
  threadHover(ctx, v, hovered, followed);
  ImGui::EndGroup();
  if (!legendUnder) ImGui::SameLine();
  ImGui::BeginGroup();
  if (barInLegend) barrierBar(ctx, v);
  for (const ThreadState s : kShown) {
    if (compact && v.counts[std::size_t(s)] == 0) continue;
    ImGui::ColorButton(std::string(threadStateName(s)).c_str(), ImGui::ColorConvertU32ToFloat4(theme.stateColour(s)),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
    drawStateGlyph(ImGui::GetWindowDrawList(), s, ImGui::GetItemRectMin(), ImGui::GetFontSize(), v.glyphInk[std::size_t(s)]);
    ImGui::SameLine();
    recordedWrapped(ctx, "Thread block", legendText(s, v.counts[std::size_t(s)], compact));
  }
  // The bands' legend where the column has room for it (a projector's short panel may not).
  const std::string warps = "w0-w" + std::to_string(v.warps - 1) + ": warps of 32";
  if (warpRulerFits(v) && ImGui::GetContentRegionAvail().y >= wrappedTextSize(warps, ImGui::GetContentRegionAvail().x).y) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrapped(warps);
    recordText(ctx, "Thread block", warps, theme.textDisabled, theme.windowBg);
    ImGui::PopStyleColor();
  }
  ImGui::EndGroup();
}

}  // namespace tilescope::ui
