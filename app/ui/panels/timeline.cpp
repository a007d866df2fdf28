// Timeline: the selected block's steps as a strip (phases as segments, barriers as markers),
// a scrubber, transport buttons, speed and step granularity; above them the step in words
// (thread_story.h), large in the projector layout, which keeps the transport to one row.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/state_glyph.h"
#include "ui/panels/text_record.h"
#include "ui/model/timeline_view.h"

namespace tilescope::ui {

namespace {

// The step in words: what the current step does, from the trace (large on the projector).
void drawStepCaption(PanelContext& ctx, const TimelineView& v, bool presenter) {
  if (!v.hasCaption) return;
  const Theme& theme = ctx.theme();
  ImFont* font = presenter && ctx.captionFont ? ctx.captionFont : nullptr;
  if (font) ImGui::PushFont(font);
  ImGui::PushStyleColor(ImGuiCol_Text, theme.highlight);
  textWrapped(v.caption);
  ImGui::PopStyleColor();
  ctx.layout.caption = v.caption;
  ctx.layout.captionFontPx = ImGui::GetFontSize();
  recordText(ctx, "Timeline", v.caption, theme.highlight, theme.windowBg);
  ctx.layout.captionHeight = ImGui::GetItemRectSize().y;
  if (font) ImGui::PopFont();
}

// The transport: start, back, play, forward, end; the step granularity and (in small text) the
// speed. In large text (the projector, presentation mode) one row, the granularity a short
// combo, the strip after it: the band stays low and the pictures keep the room.
void drawTransport(PanelContext& ctx, const Playback& play, bool compact) {
  if (ImGui::Button("|<")) ctx.emit(SeekStart{});
  ImGui::SameLine();
  if (ImGui::Button("<")) ctx.emit(Step{-1});
  if (ImGui::IsItemHovered()) tooltip("step back (left arrow)");
  ImGui::SameLine();
  if (ImGui::Button(play.playing ? "pause" : "play", ImVec2(ImGui::GetFontSize() * 3.5f, 0))) ctx.emit(TogglePlaying{});
  if (ImGui::IsItemHovered()) tooltip("play / pause (space)");
  ImGui::SameLine();
  if (ImGui::Button(">")) ctx.emit(Step{1});
  if (ImGui::IsItemHovered()) tooltip("step forward (right arrow)");
  ImGui::SameLine();
  if (ImGui::Button(">|")) ctx.emit(SeekEnd{});
  constexpr const char* kNames[] = {"phase", "barrier interval", "k step"};
  if (compact) {
    // One row: the granularity as a short combo, the strip in the rest of it; speed by + and -.
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("barrier interval").x + ImGui::GetFrameHeight() * 1.5f);
    if (ImGui::BeginCombo("##granularity", kNames[int(play.granularity)])) {
      for (int g = 0; g < kGranularityCount; ++g)
        if (ImGui::Selectable(kNames[g], int(play.granularity) == g)) ctx.emit(SetGranularity{Granularity(g)});
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) tooltip("step by (up / down arrows)");
    ImGui::SameLine();
  }
  // Items continue on the same line while they fit (presentation mode's large fonts wrap).
  if (!compact) {
    const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x;
    sameLineIfFits(ImGui::CalcTextSize("step by").x);
    ImGui::TextUnformatted("step by");
    for (int g = 0; g < kGranularityCount; ++g) {
      sameLineIfFits(radio + ImGui::CalcTextSize(kNames[g]).x);
      if (ImGui::RadioButton(kNames[g], int(play.granularity) == g)) ctx.emit(SetGranularity{Granularity(g)});
    }
    sameLineIfFits(ImGui::GetFontSize() * 7.0f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("steps/s").x);
    float speed = float(play.stepsPerSecond);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
    if (ImGui::SliderFloat("steps/s", &speed, 0.125f, 256.0f, "%.3g", ImGuiSliderFlags_Logarithmic))
      ctx.emit(SetSpeed{speed});
    if (ImGui::IsItemHovered()) tooltip("playback speed (+ / -)");
  }

}

// Each phase's name over its part of the strip, on a patch of the window's background so it
// reads whatever the steps' fills are; "P3" where "phase 3" is too wide, nothing where neither fits.
struct PhaseLabel {
  std::string text;
  ImVec2 at, size;
};

std::vector<PhaseLabel> placePhaseLabels(const TimelineView& v, ImVec2 p0, float stepW, float stripH) {
  std::vector<PhaseLabel> labels;
  for (const PhaseSpan& span : v.phases) {
    const float x0 = p0.x + stepW * float(span.first), x1 = p0.x + stepW * float(span.end);
    for (const std::string& label : {"phase " + std::to_string(span.phase), "P" + std::to_string(span.phase)}) {
      const ImVec2 size = ImGui::CalcTextSize(label.c_str());
      if (size.x + 6 > x1 - x0 || size.y > stripH) continue;
      labels.push_back({label, ImVec2((x0 + x1 - size.x) * 0.5f, p0.y + (stripH - size.y) * 0.5f), size});
      break;
    }
  }
  return labels;
}

// Whether a step's glyph, x0..x1 across, would lie under a phase's name: a glyph cut by the
// name's patch reads as stray marks around it, so that step shows its fill alone.
bool underALabel(const std::vector<PhaseLabel>& labels, float x0, float x1) {
  return std::any_of(labels.begin(), labels.end(),
                     [&](const PhaseLabel& l) { return x0 < l.at.x + l.size.x + 3 && l.at.x - 3 < x1; });
}

void drawPhaseLabels(PanelContext& ctx, const std::vector<PhaseLabel>& labels) {
  const Theme& theme = ctx.theme();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const PhaseLabel& l : labels) {
    draw->AddRectFilled(ImVec2(l.at.x - 3, l.at.y), ImVec2(l.at.x + l.size.x + 3, l.at.y + l.size.y), theme.windowBg, 3.0f);
    draw->AddText(l.at, theme.panelText, l.text.c_str());
    recordTextAt(ctx, "Timeline", l.text, l.at, theme.panelText, theme.windowBg);
  }
}

// The strip: one segment per fine step, coloured by kind and marked with its glyph where there
// is room; phase boundaries drawn over it, each phase named; the cursor as a bar; click or drag
// to seek.
void drawStrip(PanelContext& ctx, const TimelineView& v, bool compact) {
  const Theme& theme = ctx.theme();
  const float stripH = compact ? ImGui::GetFrameHeight() : ImGui::GetFontSize() * 1.6f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton("strip", ImVec2(width, stripH));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int steps = int(v.steps.size());
  const float stepW = width / float(steps);
  const std::vector<PhaseLabel> labels = placePhaseLabels(v, p0, stepW, stripH);
  const float glyph = stripH * 0.6f;
  for (int s = 0; s < steps; ++s) {
    const StripStep& st = v.steps[std::size_t(s)];
    const float x0 = p0.x + stepW * float(s), x1 = p0.x + stepW * float(s + 1);
    draw->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x1, p0.y + stripH), st.done ? st.colour : (st.colour & 0x00ffffffu) | 0x60000000u);
    const float gx = x0 + (stepW - glyph) * 0.5f;
    if (st.done && stepW >= glyph && !underALabel(labels, gx, gx + glyph))
      drawStateGlyph(draw, st.glyph, ImVec2(gx, p0.y + stripH * 0.2f), glyph, st.ink);
    if (st.phaseStart) draw->AddLine(ImVec2(x0, p0.y - 2), ImVec2(x0, p0.y + stripH + 2), theme.panelText, 2.0f);
  }
  drawPhaseLabels(ctx, labels);
  const float cx = p0.x + width * float(v.position / double(steps));
  draw->AddRectFilled(ImVec2(cx - 1.5f, p0.y - 3), ImVec2(cx + 1.5f, p0.y + stripH + 3), theme.highlight);
  if (ImGui::IsItemActive() || (ImGui::IsItemHovered() && ImGui::IsMouseClicked(0))) {
    const double pos = double(ImGui::GetMousePos().x - p0.x) / double(width) * double(steps);
    ctx.emit(SeekPosition{pos});
  } else if (ImGui::IsItemHovered()) {
    const int s = std::clamp(int((ImGui::GetMousePos().x - p0.x) / stepW), 0, steps - 1);
    tooltip(v.steps[std::size_t(s)].label + "\nclick or drag to seek");
  }
}

}  // namespace

void drawTimelinePanel(PanelContext& ctx) {
  const TimelineView* view = shownTimelineView(ctx.state);
  if (!view) {
    // Nothing may be coming: a first request that failed (a --open file that did not open).
    ImGui::TextDisabled("%s", ctx.state.request.error.empty() ? "Running the kernel..." : "No trace to show: this launch did not run (the notice says why)");
    return;
  }
  const TimelineView& v = *view;
  const bool presenter = ctx.state.lesson.presenter;

  if (!v.partial.empty()) {  // a first picture says so before anything it shows
    const std::string note = "First picture: " + v.partial;
    ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().highlight);
    textWrapped(note);
    ImGui::PopStyleColor();
    recordText(ctx, "Timeline", note, ctx.theme().highlight, ctx.theme().windowBg);
  }
  drawStepCaption(ctx, v, presenter);
  const bool compact = presenter || ctx.state.view.presentation;
  drawTransport(ctx, ctx.state.playback, compact);
  drawStrip(ctx, v, compact);

  if (presenter) return;  // the caption says where we are
  // Where we are, in words.
  char where[256];
  std::snprintf(where, sizeof where, "step %d of %d: %s", v.step + 1, int(v.steps.size()), v.stepLabel.c_str());
  std::string line = where;
  if (v.phaseCount > 0)  // a kernel without tiles (naive) has no phases to count: "0 of 0" said nothing
    line += "   (phases done " + std::to_string(v.phasesDone) + " of " + std::to_string(v.phaseCount) + ")";
  ImGui::TextUnformatted(line.c_str());
  recordText(ctx, "Timeline", line);
  if (v.threadsThrough < v.threadsPerBlock) {
    ImGui::SameLine();
    ImGui::TextDisabled("  %d/%d threads through it", v.threadsThrough, v.threadsPerBlock);
  }
}

}  // namespace tilescope::ui
