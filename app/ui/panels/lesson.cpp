// Lesson: the guided tour of assets/lessons. A lesson picker, the page's title and text, a
// progress bar, Back and Next (PageUp/PageDown, B/N), and the presenter switch (F5). Each page sets
// the app up through its own script-mode commands (the frame loop runs them), so what the
// text says is on screen; the user can still change anything by hand. The page's figures are
// the view's (model/lesson_view.h), filled in once per page and analysis.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/model/start_page.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {

namespace {

// The run's sliders on the projector, in one line where the normal layout has its progress bar
// (the page number goes beside Back and Next), so a teacher changes T in front of the class
// without leaving the layout and no page's text loses a line: the size, then the tile width, the
// block shape or the ladder's tiling, each naming itself inside its frame ("T = 16"). Each is
// recorded where it is drawn ("slider tile T 16"), for the test that drives it through the X server.
void presenterSliders(PanelContext& ctx) {
  LaunchConfig config = ctx.state.request.config;
  if (!ctx.state.request.openFile.empty()) return;  // a replayed file's run has no sliders
  auto record = [&](const char* name, int value) {
    recordText(ctx, "Lesson", std::string("slider ") + name + " " + std::to_string(value), ctx.theme().panelText,
               ctx.theme().frameBg);
  };
  const bool square = config.dims.j == config.dims.k && config.dims.k == config.dims.l;
  const bool ladder = !kernelTilings(config.kernel).empty(), tiled = kernelInfo(config.kernel).tiled;
  const int items = (square ? 1 : 0) + (ladder || tiled ? 1 : 2);
  const float spacing = ImGui::GetStyle().ItemSpacing.x, room = ImGui::GetContentRegionAvail().x;
  // A ladder's tiling (32x64x8/16x32/4x4) takes two thirds: the size slider needs less.
  const float sizeWidth = ladder ? room * 0.3f : (room - spacing * float(items - 1)) / float(items);
  bool changed = false;
  if (square) {
    ImGui::SetNextItemWidth(sizeWidth);
    changed = sizeSlider(config, true);
    record("size", config.dims.j);
    ImGui::SameLine();
  }
  ImGui::PushItemWidth(ladder || !square ? ImGui::GetContentRegionAvail().x / float(ladder || tiled ? 1 : 2) -
                                              (ladder || tiled ? 0.0f : spacing * 0.5f)
                                        : sizeWidth);
  changed = tileChoice(config, true) || changed;
  ImGui::PopItemWidth();
  if (!ladder && tiled) record("tile T", config.tile);
  if (changed) ctx.emit(SetConfig{config});
}

// Back and Next, and beside them the page number on a projector (its sliders take the progress
// bar's line), else the presenter switch.
void pageButtons(PanelContext& ctx, int pages) {
  const LessonState& ls = ctx.state.lesson;
  const bool first = ls.page == 0, last = ls.page + 1 >= pages;
  if (first) ImGui::BeginDisabled();
  if (ImGui::Button("< Back")) ctx.emit(LessonGoTo{ls.page - 1});
  if (ImGui::IsItemHovered()) tooltip("previous page (PageUp or B)");
  if (first) ImGui::EndDisabled();
  ImGui::SameLine();
  if (last) ImGui::BeginDisabled();
  if (ImGui::Button("Next >")) ctx.emit(LessonGoTo{ls.page + 1});
  if (ImGui::IsItemHovered()) tooltip("next page (PageDown or N)");
  if (last) ImGui::EndDisabled();
  if (ls.presenter) {
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    const std::string progress = "page " + std::to_string(ls.page + 1) + " of " + std::to_string(pages);
    ImGui::TextUnformatted(progress.c_str());
    recordText(ctx, "Lesson", progress);
  } else {
    bool presenter = false;
    sameLineIfFits(ImGui::CalcTextSize("presenter").x + ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::Checkbox("presenter", &presenter)) ctx.emit(SetPresenter{true});
    if (ImGui::IsItemHovered()) tooltip("projector layout: controls hidden, lesson text large (F5; Esc leaves)");
  }
}

}  // namespace

void drawLessonPanel(PanelContext& ctx) {
  const LessonState& ls = ctx.state.lesson;
  const Lesson* lesson = ls.lesson();
  const std::string preview = lesson ? lesson->title : std::string("choose a lesson");
  // On a projector the picker is clutter: the lesson's title stands in its place.
  const bool picker = !(ls.presenter && lesson);
  if (!picker) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrapped(preview);
    ImGui::PopStyleColor();
  }
  if (picker) ImGui::SetNextItemWidth(-1);
  if (picker && ImGui::BeginCombo("##lesson", preview.c_str())) {
    if (!ls.loaded) {
      ImGui::TextDisabled("lessons load when one is opened");
      if (ImGui::Selectable("open the first lesson")) ctx.emit(OpenLesson{"1"});
    }
    for (std::size_t i = 0; i < ls.lessons.size(); ++i) {
      const std::string label = std::to_string(i + 1) + ". " + ls.lessons[i].title;
      if (ImGui::Selectable(label.c_str(), int(i) == ls.current)) ctx.emit(OpenLesson{ls.lessons[i].name});
    }
    ImGui::EndCombo();
  }
  if (!ls.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().error);
    textWrapped(ls.error);
    ImGui::PopStyleColor();
  }
  if (!lesson) {  // the start page, as the Controls panel's prompt has it (model/start_page.h)
    const StartPage start = startPage();
    textWrapped(start.intro);
    if (ImGui::Button(start.button.c_str())) ctx.emit(OpenLesson{start.lesson});
    return;
  }
  const int pages = int(lesson->pages.size());
  const LessonPage& page = lesson->pages[std::size_t(ls.page)];

  pageButtons(ctx, pages);
  if (ls.presenter) {
    presenterSliders(ctx);
  } else {
    const std::string progress = "page " + std::to_string(ls.page + 1) + " of " + std::to_string(pages);
    ImGui::ProgressBar(float(ls.page + 1) / float(pages), ImVec2(-1, 0), progress.c_str());
  }
  ImGui::Separator();
  ImGui::PushStyleColor(ImGuiCol_Text, ctx.theme().highlight);
  textWrapped(page.title);
  ImGui::PopStyleColor();
  recordText(ctx, "Lesson", page.title, ctx.theme().highlight, ctx.theme().windowBg);
  ImGui::Spacing();
  // The run's figures ({banks.conflicts}, ...) from the run on screen: the page's own analysis,
  // filled in by the view once per page and analysis.
  shownAnalysis(ctx);  // says "Analysing..." while it is computed
  const LessonView* view = shownLessonView(ctx.state);
  for (std::size_t i = 0; view && i < view->paragraphs.size(); ++i) {
    const std::string& text = view->paragraphs[i];
    recordedWrapped(ctx, "Lesson", text);
    ctx.layout.lessonText.push_back(text);
    ImGui::Spacing();
  }
  if (ls.presenter) {
    ImGui::Spacing();
    if (ImGui::SmallButton("leave presenter (Esc)")) ctx.emit(SetPresenter{false});
  }
}

}  // namespace tilescope::ui
