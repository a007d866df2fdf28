// Lab: the student's kernel in an editor with line numbers, the launch beside it, Run, and
// what happened (README.md, "The kernel lab"). Compile errors are marked red in the gutter at
// their line (the compiler's message on hover and in the list below); where a crash, time-out
// or deadlock stopped is marked in the highlight colour. A kernel that ran is in every other
// view, like a built-in one. The Exercises tab lists assets/exercises with the student's
// ticks and grades the editor's kernel. The panel only reads LabState and pushes LabIntents.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "platform/page.h"
#include "ui/panels/event_text.h"
#include "ui/panels/panels.h"
#include "ui/panels/text_record.h"

namespace tilescope::ui {
namespace {

constexpr int kTabSpaces = 4;
constexpr Rgba kVerifiedColour = IM_COL32(60, 175, 95, 255);
constexpr Rgba kStoppedColour = IM_COL32(235, 140, 30, 255);  // crashed, timed out, deadlocked

struct EditorBuffer {
  std::string* text;
  bool tabPending = false;
};

// The editor's callbacks: the buffer grows as the text does; Tab inserts spaces to the next
// multiple of kTabSpaces instead of a tab character (the char filter drops the '\t', and the
// callback that follows in the same frame inserts the spaces at the cursor).
int editorCallback(ImGuiInputTextCallbackData* d) {
  auto* e = static_cast<EditorBuffer*>(d->UserData);
  if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    e->text->resize(std::size_t(d->BufTextLen));
    d->Buf = e->text->data();
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackCharFilter) {
    if (d->EventChar == '\t') {
      e->tabPending = true;
      return 1;
    }
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackAlways && e->tabPending) {
    e->tabPending = false;
    if (d->HasSelection()) {
      const int from = std::min(d->SelectionStart, d->SelectionEnd);
      d->DeleteChars(from, std::abs(d->SelectionEnd - d->SelectionStart));
      d->CursorPos = from;
    }
    int column = 0;
    for (int i = d->CursorPos - 1; i >= 0 && d->Buf[i] != '\n'; --i) ++column;
    const std::string spaces(std::size_t(kTabSpaces - column % kTabSpaces), ' ');
    d->InsertChars(d->CursorPos, spaces.c_str());
  }
  return 0;
}

template <class T, class Format>
std::string joinPairs(const std::vector<T>& items, Format format) {
  std::string out;
  for (const T& item : items) out += (out.empty() ? "" : " ") + format(item);
  return out;
}

// "NAME=VALUE NAME=VALUE" as typed into the defines and arguments fields (commas work too).
std::vector<std::pair<std::string, std::string>> parsePairs(const std::string& text) {
  std::string spaced = text;
  std::replace(spaced.begin(), spaced.end(), ',', ' ');
  std::istringstream words(spaced);
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string w; words >> w;) {
    const auto eq = w.find('=');
    out.emplace_back(w.substr(0, eq), eq == std::string::npos ? "" : w.substr(eq + 1));
  }
  return out;
}

std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

Rgba verdictColour(const Theme& theme, lab::LabVerdict v) {
  switch (v) {
    case lab::LabVerdict::Verified: return kVerifiedColour;
    case lab::LabVerdict::Crashed:
    case lab::LabVerdict::TimedOut:
    case lab::LabVerdict::Deadlocked: return kStoppedColour;
    default: return theme.error;
  }
}

ImVec4 colourOf(Rgba c) { return ImGui::ColorConvertU32ToFloat4(c); }

// GCC quotes names with typographic quotes in a UTF-8 locale; the interface's font covers
// Latin-1 only, so they would show as '?'.
std::string plainQuotes(std::string text) {
  for (const char* quote : {"\xE2\x80\x98", "\xE2\x80\x99", "\xE2\x80\x9C", "\xE2\x80\x9D"})
    for (std::size_t at = text.find(quote); at != std::string::npos; at = text.find(quote, at))
      text.replace(at, 3, quote[2] == '\x98' || quote[2] == '\x99' ? "'" : "\"");
  return text;
}

std::string currentFileName(const LabState& s) {
  return s.path.empty() ? std::string("kernel.cu") : std::filesystem::path(s.path).filename().string();
}

// The outcome shown: the run's, or the grade's measured run.
const lab::LabOutcome* shownOutcome(const LabResult* r) {
  if (!r) return nullptr;
  if (r->outcome) return &*r->outcome;
  if (r->grade && r->grade->measured) return &*r->grade->measured;
  return nullptr;
}

void drawToolbar(PanelContext& ctx) {
  const LabState& s = ctx.state.lab;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::BeginCombo("##examples", "Examples", ImGuiComboFlags_HeightLarge)) {
    for (const std::string& file : labExampleFiles())
      if (ImGui::Selectable(std::filesystem::path(file).stem().string().c_str())) ctx.emit(LabIntent{LabOpenFile{file}});
    if (!s.exercises.empty()) ImGui::Separator();
    for (const lab::Exercise& x : s.exercises)
      if (ImGui::Selectable(("exercise: " + x.id).c_str())) ctx.emit(LabIntent{LabOpenExercise{x.id}});
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  const bool timeButton = ctx.state.cudaUnavailable.empty();
  const float buttons = ImGui::CalcTextSize(timeButton ? "OpenSaveRunCancelTime" : "OpenSaveRunCancel").x +
                        ImGui::GetStyle().FramePadding.x * (timeButton ? 10 : 8) +
                        ImGui::GetStyle().ItemSpacing.x * (timeButton ? 5 : 4);
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - buttons, ImGui::GetFontSize() * 6.0f));
  std::string path = s.pathField;
  EditorBuffer pathBuffer{&path};
  if (ImGui::InputTextWithHint("##path", "file.cu", path.data(), path.capacity() + 1, ImGuiInputTextFlags_CallbackResize,
                               editorCallback, &pathBuffer))
    ctx.emit(LabIntent{LabSetPathField{path}});
  if (ImGui::IsItemHovered()) tooltip("the file to open or save (a path, relative to where tilescope was started)");
  ImGui::SameLine();
  if (ImGui::Button("Open")) ctx.emit(LabIntent{LabOpenFile{s.pathField}});
  ImGui::SameLine();
  if (ImGui::Button("Save")) ctx.emit(LabIntent{LabSaveFile{s.pathField}});
  ImGui::SameLine();
  if (s.pendingGeneration) {
    if (ImGui::Button("Cancel")) ctx.emit(LabIntent{LabCancel{}});
  } else if (ImGui::Button("Run")) {
    ctx.emit(LabIntent{LabRun{}});
  }
  if (ImGui::IsItemHovered()) tooltip(s.pendingGeneration ? "stop the kernel's process" : "compile and run the kernel (Ctrl+Enter)");
  if (timeButton) {  // a GPU is there: the kernel as written joins the live sweep
    ImGui::SameLine();
    if (ImGui::Button("Time")) {
      ctx.emit(TimingIntent{StartSweep{SweepSpec{SweepKind::Lab, {}}}});
      ctx.emit(ShowPanel{std::string(panelName(PanelId::Timing))});
    }
    if (ImGui::IsItemHovered())
      tooltip("time the kernel as written on the GPU at N = 256..4096 next to cuBLAS (each size verified first), "
              "in the Timing panel");
  }

  // The file's line: what it is, whether it is saved, what the last open or save did.
  std::string status = (s.path.empty() ? std::string("untitled") : currentFileName(s)) + (s.modified ? " (modified)" : "");
  if (!s.from.empty()) status += " - " + s.from;
  if (!s.message.empty() && s.messageIsError) {
    ImGui::TextColored(colourOf(ctx.theme().error), "%s", s.message.c_str());
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrapped(status);  // wrapped: a long source note in large text
    ImGui::PopStyleColor();
    if (ImGui::IsItemHovered() && !s.message.empty()) tooltip(s.message);
  }
  if (s.replaced) {
    ImGui::SameLine();
    if (ImGui::SmallButton("Bring back the replaced text")) ctx.emit(LabIntent{LabBringBack{}});
    if (ImGui::IsItemHovered()) tooltip("the last open replaced unsaved text" + (s.replaced->second.empty() ? std::string() : " of " + s.replaced->second));
  }
}

// Lines to mark in the gutter: compile errors and every failed check (red: a wrong result's
// traced lines, hazards, accesses outside a matrix) and where the kernel stopped (highlight).
struct Marks {
  std::map<int, std::string> errors, stops;
};

Marks marksOf(const LabState& s) {
  Marks m;
  const LabResult* r = s.result.get();
  const lab::LabOutcome* o = shownOutcome(r);
  if (!o) return m;
  const std::string file = currentFileName(s);
  for (const lab::LabDiagnostic& d : o->diagnostics)
    if (d.line > 0 && std::filesystem::path(d.file).filename() == file) {
      std::string& text = m.errors[d.line];
      text += (text.empty() ? "" : "\n") + ("column " + std::to_string(d.column) + ": " + plainQuotes(d.message));
    }
  if (o->where && o->where->line > 0) m.stops[o->where->line] = plainQuotes(o->summary);
  // Every failed check at its lines: the wrong result traced back, each hazard's two accesses,
  // each access outside a matrix.
  auto mark = [&](int line, const std::string& text) {
    if (line <= 0) return;
    std::string& at = m.errors[line];
    if (at.find(text) == std::string::npos) at += (at.empty() ? "" : "\n") + text;
  };
  for (int line : o->wrongLines) mark(line, plainQuotes(o->summary));
  for (const Hazard& h : o->hazards()) {
    const std::string what = std::string(hazardName(h.type)) + " on " + h.matrix + "ds[" + std::to_string(h.sharedRow) + "][" +
                             std::to_string(h.sharedCol) + "]: lines " + std::to_string(h.first.line) + " and " +
                             std::to_string(h.second.line);
    mark(h.first.line, what);
    mark(h.second.line, what);
  }
  for (const BoundsViolation& v : o->boundsViolations()) mark(v.event.line, v.describe());
  return m;
}

// A new result's first marked line (its first compile error, or where it stopped) is scrolled
// into view once, a third of the way down, so the red line the summary names is on screen (an
// error at line 19 of fig. 5.9 lay under the editor's fold at 1280x720). Which result was last
// revealed is widget state, as a scroll position is.
void revealFirstMark(const LabState& s, const Marks& marks, ImGuiWindow* child, float textTop, float lineH, const ImRect& clip) {
  void** revealed = ImGui::GetStateStorage()->GetVoidPtrRef(ImGui::GetID("revealed"), nullptr);
  const void* result = s.result.get();
  if (!child || *revealed == result) return;
  *revealed = const_cast<void*>(result);  // compared, never followed
  int line = 0;
  for (const auto* m : {&marks.errors, &marks.stops})
    if (!m->empty()) line = line ? std::min(line, m->begin()->first) : m->begin()->first;
  if (line == 0) return;
  const float y = textTop + float(line - 1) * lineH;
  if (y >= clip.Min.y && y + lineH <= clip.Max.y) return;
  ImGui::SetScrollY(child, std::max(0.0f, child->Scroll.y + (y - clip.Min.y) - clip.GetHeight() / 3.0f));
}

void drawEditor(PanelContext& ctx, float width, float height) {
  const LabState& s = ctx.state.lab;
  const Theme& theme = ctx.theme();
  if (ctx.monoFont) ImGui::PushFont(ctx.monoFont);
  const float lineH = ImGui::GetFontSize();  // InputTextMultiline's lines are a font size apart
  const float gutterW = ImGui::CalcTextSize("0000").x + ImGui::GetStyle().FramePadding.x * 2;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(origin.x + gutterW, origin.y));
  const ImGuiID id = ImGui::GetID("##code");
  std::string text = s.text;
  EditorBuffer buffer{&text};
  const ImGuiInputTextFlags flags = ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize |
                                    ImGuiInputTextFlags_CallbackCharFilter | ImGuiInputTextFlags_CallbackAlways;
  if (ImGui::InputTextMultiline("##code", text.data(), text.capacity() + 1, ImVec2(width - gutterW, height), flags,
                                editorCallback, &buffer))
    ctx.emit(LabIntent{LabSetText{text}});
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false)) ctx.emit(LabIntent{LabRun{}});
    if (io.KeyCtrl && ImGui::IsKeyPressed('S', false)) ctx.emit(LabIntent{LabSaveFile{s.pathField}});
  }
  // The text's child window (InputTextMultiline scrolls it): where line 1 is drawn now.
  ImGuiWindow* child = nullptr;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->ChildId == id && w->ParentWindow == ImGui::GetCurrentWindow()) child = w;
  const ImVec2 textStart = child ? child->DC.CursorStartPos : ImVec2(origin.x + gutterW, origin.y);
  const ImRect clip = child ? child->InnerRect : ImRect(origin, ImVec2(origin.x + width, origin.y + height));

  const int lines = int(std::count(s.text.begin(), s.text.end(), '\n')) + 1;
  const Marks marks = marksOf(s);
  revealFirstMark(s, marks, child, textStart.y, lineH, clip);
  LabLayout& report = ctx.layout.lab;
  report = LabLayout{true, origin.x, gutterW, textStart.x, textStart.y, lineH, clip.Min.y, clip.GetHeight(), {}};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->PushClipRect(ImVec2(origin.x, clip.Min.y), ImVec2(origin.x + gutterW, clip.Max.y), true);
  const int first = std::max(1, int((clip.Min.y - textStart.y) / lineH) + 1);
  const int last = std::min(lines, int((clip.Max.y - textStart.y) / lineH) + 1);
  std::string hovered;
  for (int n = first; n <= last; ++n) {
    const float y = textStart.y + float(n - 1) * lineH;
    const ImVec2 a(origin.x, y), b(origin.x + gutterW - 2.0f, y + lineH);
    const auto error = marks.errors.find(n);
    const auto stop = marks.stops.find(n);
    Rgba numberColour = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    if (error != marks.errors.end() || stop != marks.stops.end()) {
      draw->AddRectFilled(a, b, error != marks.errors.end() ? theme.error : theme.highlight);
      numberColour = IM_COL32(255, 255, 255, 255);
      if (error != marks.errors.end()) report.errorLines.push_back(n);
      if (ImGui::IsMouseHoveringRect(a, ImVec2(origin.x + width, b.y)) && ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows))
        hovered = "line " + std::to_string(n) + ": " + (error != marks.errors.end() ? error->second : stop->second);
    }
    char number[16];
    std::snprintf(number, sizeof number, "%d", n);
    const float numberW = ImGui::CalcTextSize(number).x;
    draw->AddText(ImVec2(b.x - numberW - ImGui::GetStyle().FramePadding.x * 0.5f, y), numberColour, number);
  }
  draw->PopClipRect();
  // A faint band across the marked lines' text, inside the editor's own clip.
  if (child && (!marks.errors.empty() || !marks.stops.empty())) {
    child->DrawList->PushClipRect(clip.Min, clip.Max, true);
    for (const auto* m : {&marks.errors, &marks.stops})
      for (const auto& [n, message] : *m) {
        const float y = textStart.y + float(n - 1) * lineH;
        const Rgba c = m == &marks.errors ? theme.error : theme.highlight;
        child->DrawList->AddRectFilled(ImVec2(clip.Min.x, y), ImVec2(clip.Max.x, y + lineH), (c & 0x00ffffffu) | 0x38000000u);
      }
    child->DrawList->PopClipRect();
  }
  if (ctx.monoFont) ImGui::PopFont();
  if (!hovered.empty()) tooltip(hovered);
}

void drawLaunch(PanelContext& ctx) {
  const LabState& s = ctx.state.lab;
  LabLaunchFields f = s.launch;
  bool changed = false;
  const float field = ImGui::GetContentRegionAvail().x * 0.55f;
  if (ImGui::RadioButton("Width", !f.useDims)) f.useDims = false, changed = true;
  ImGui::SameLine();
  if (ImGui::RadioButton("j, k, l", f.useDims)) f.useDims = true, changed = true;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (!f.useDims) {
    if (ImGui::InputInt("##width", &f.width)) f.width = std::max(1, f.width), changed = true;
  } else {
    int d[3] = {f.dims.j, f.dims.k, f.dims.l};
    if (ImGui::InputInt3("##dims", d)) f.dims = {std::max(1, d[0]), std::max(1, d[1]), std::max(1, d[2])}, changed = true;
  }
  if (ImGui::IsItemHovered()) tooltip("M is j x k, N is k x l, P is j x l; a kernel taking int Width needs j = k = l");

  ImGui::TextUnformatted("#define values");
  std::string defines = joinPairs(f.defines, [](const lab::LabDefine& d) { return d.name + "=" + d.value; });
  EditorBuffer definesBuffer{&defines};
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
  if (ImGui::InputTextWithHint("##defines", "NAME=VALUE ...", defines.data(), defines.capacity() + 1,
                               ImGuiInputTextFlags_CallbackResize, editorCallback, &definesBuffer)) {
    f.defines.clear();
    for (auto& [name, value] : parsePairs(defines)) f.defines.push_back({name, value});
    changed = true;
  }
  for (const LabFileDefine& d : s.fileDefs) ImGui::TextDisabled("line %d: %s %s", d.line, d.name.c_str(), d.value.c_str());
  if (!s.params.empty()) {
    ImGui::TextUnformatted("Arguments");
    std::string args = joinPairs(f.args, [](const lab::LabArg& a) { return a.name + "=" + formatNumber(a.value); });
    std::string hint;
    for (const std::string& p : s.params) hint += (hint.empty() ? "" : " ") + p + "=...";
    EditorBuffer argsBuffer{&args};
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::InputTextWithHint("##args", hint.c_str(), args.data(), args.capacity() + 1,
                                 ImGuiInputTextFlags_CallbackResize, editorCallback, &argsBuffer)) {
      f.args.clear();
      for (auto& [name, value] : parsePairs(args)) f.args.push_back({name, std::strtod(value.c_str(), nullptr)});
      changed = true;
    }
  }
  int block[2] = {f.blockX, f.blockY}, grid[2] = {f.gridX, f.gridY};
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt2("block", block)) f.blockX = std::max(0, block[0]), f.blockY = std::max(0, block[1]), changed = true;
  if (ImGui::IsItemHovered()) tooltip("threads per block, x and y; 0 0: T x T for TILE_WIDTH (or TILE_SIZE, BLOCK_SIZE, TILE), else 16 x 16");
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt2("grid", grid)) f.gridX = std::max(0, grid[0]), f.gridY = std::max(0, grid[1]), changed = true;
  if (ImGui::IsItemHovered()) tooltip("blocks, x and y; 0 0: enough blocks to cover P");
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputInt("shared B", &f.sharedBytes, 4, 64)) f.sharedBytes = std::max(0, f.sharedBytes), changed = true;
  if (ImGui::IsItemHovered()) tooltip("dynamic shared memory in bytes: the third parameter of <<< >>> (extern __shared__ arrays)");
  ImGui::SetNextItemWidth(field);
  if (ImGui::InputDouble("limit s", &f.timeoutSeconds, 1.0, 5.0, "%.1f"))
    f.timeoutSeconds = std::clamp(f.timeoutSeconds, 0.1, 3600.0), changed = true;
  if (ImGui::IsItemHovered()) tooltip("the run's time limit: past it the kernel's process is stopped (an endless loop)");
  if (ImGui::RadioButton("emulator", f.backend != lab::LabBackend::Cuda)) f.backend = lab::LabBackend::Emulator, changed = true;
  ImGui::SameLine();
  const std::string noCuda = !s.cudaRefused.empty() ? s.cudaRefused : ctx.state.cudaUnavailable;
  ImGui::BeginDisabled(!noCuda.empty() && f.backend != lab::LabBackend::Cuda);
  if (ImGui::RadioButton("CUDA", f.backend == lab::LabBackend::Cuda)) f.backend = lab::LabBackend::Cuda, changed = true;
  ImGui::EndDisabled();
  if (!noCuda.empty()) {
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip(noCuda);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("CUDA: %s", noCuda.c_str());
    ImGui::PopTextWrapPos();
  }
  if (changed) ctx.emit(LabIntent{LabSetLaunch{f}});
  if (const lab::LabOutcome* o = shownOutcome(s.result.get()); o && !o->launch.kernelName.empty()) {
    const lab::LabLaunch& L = o->launch;
    ImGui::Separator();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("launched %s: %dx%dx%d, block %ux%u, grid %ux%u%s", L.kernelName.c_str(), L.dims.j, L.dims.k, L.dims.l,
                        L.block.x, L.block.y, L.grid.x, L.grid.y,
                        L.sharedBytes ? (", " + std::to_string(L.sharedBytes) + " B shared").c_str() : "");
    ImGui::PopTextWrapPos();
  }
}

// A tick for a passed exercise or check, a cross for a failed one.
void drawMark(PanelContext& ctx, bool passed) {
  const float size = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  if (passed) {
    ImGui::RenderCheckMark(draw, ImVec2(p.x + size * 0.1f, p.y + size * 0.1f), kVerifiedColour, size * 0.8f);
  } else {
    const float m = size * 0.25f;
    draw->AddLine(ImVec2(p.x + m, p.y + m), ImVec2(p.x + size - m, p.y + size - m), ctx.theme().error, 2.0f);
    draw->AddLine(ImVec2(p.x + size - m, p.y + m), ImVec2(p.x + m, p.y + size - m), ctx.theme().error, 2.0f);
  }
  ImGui::Dummy(ImVec2(size, size));
  ImGui::SameLine();
}

void drawExercises(PanelContext& ctx) {
  const LabState& s = ctx.state.lab;
  if (!s.exercisesError.empty()) ImGui::TextColored(colourOf(ctx.theme().error), "%s", s.exercisesError.c_str());
  const lab::Exercise* chosen = nullptr;
  for (const lab::Exercise& x : s.exercises) {
    const auto p = s.progress.find(x.id);
    if (p != s.progress.end() && p->second) {
      drawMark(ctx, true);
    } else {
      ImGui::Dummy(ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
      ImGui::SameLine();
    }
    if (ImGui::Selectable(x.title.c_str(), s.selected == x.id)) ctx.emit(LabIntent{LabSelectExercise{x.id}});
    if (s.selected == x.id) chosen = &x;
  }
  if (!s.progressError.empty()) ImGui::TextColored(colourOf(ctx.theme().error), "progress: %s", s.progressError.c_str());
  if (!chosen) {
    ImGui::TextDisabled("Choose an exercise.");
    return;
  }
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(chosen->goal.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::Button("Open the starter")) ctx.emit(LabIntent{LabOpenExercise{chosen->id}});
  if (ImGui::IsItemHovered()) tooltip("puts the exercise's starter kernel and launch in the editor (unsaved text can be brought back)");
  ImGui::SameLine();
  ImGui::BeginDisabled(s.pendingGeneration != 0);
  if (ImGui::Button("Check")) ctx.emit(LabIntent{LabCheck{chosen->id}});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltip("grades the editor's kernel at the exercise's sizes");
}

void drawOutcome(PanelContext& ctx) {
  const LabState& s = ctx.state.lab;
  const Theme& theme = ctx.theme();
  ImGui::PushTextWrapPos(0.0f);
  const LabResult* r = s.result.get();
  if (s.pendingGeneration || !r) {
    if (s.pendingGeneration)
      ImGui::Text("%s... %.1f s", s.pendingIsCheck ? "Checking" : "Compiling and running", ctx.state.now - s.startedAt);
    ImGui::TextDisabled("%s", s.pendingGeneration
                                  ? "The kernel runs in a process of its own: Cancel stops it, the app stays responsive."
                                  : "Run the kernel (Ctrl+Enter): the verdict appears here and the run in every view.");
    ImGui::PopTextWrapPos();
    return;
  }
  if (!r->error.empty()) {
    ImGui::TextColored(colourOf(theme.error), "The lab did not run it: %s", plainQuotes(r->error).c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  if (r->grade) {
    const auto x = std::find_if(s.exercises.begin(), s.exercises.end(), [&](auto& e) { return e.id == r->exerciseId; });
    ImGui::TextColored(colourOf(r->grade->passed ? kVerifiedColour : theme.error), "%s: %s",
                       x != s.exercises.end() ? x->title.c_str() : r->exerciseId.c_str(),
                       r->grade->passed ? "passed" : "not yet");
    for (const lab::GradeItem& item : r->grade->items) {
      drawMark(ctx, item.passed);
      ImGui::Text("%s: %s", item.check.c_str(), plainQuotes(item.detail).c_str());
    }
  }
  if (const lab::LabOutcome* o = shownOutcome(r)) {
    const std::string verdict(lab::verdictName(o->verdict));
    if (ctx.captionFont) ImGui::PushFont(ctx.captionFont);
    ImGui::TextColored(colourOf(verdictColour(theme, o->verdict)), "%s", verdict.c_str());
    if (ctx.captionFont) ImGui::PopFont();
    // The summary, then the details (first errors, accesses, hazards) as describeOutcome words them.
    std::istringstream details(plainQuotes(lab::describeOutcome(*o, 6)));
    std::string line;
    bool first = true;
    while (std::getline(details, line)) {
      if (o->verdict != lab::LabVerdict::CompileError && first) {  // the launch line: the Launch tab shows it
        first = false;
        continue;
      }
      ImGui::TextUnformatted(line.c_str());
    }
    if (r->shown) {
      ImGui::TextDisabled("The run is in every view: Matrices, Shared memory, Thread block, Source, Timeline, analyses.");
      if (ImGui::SmallButton("Show the matrices")) ctx.emit(ShowPanel{std::string(panelName(PanelId::Matrices))});
    } else {
      if (!r->viewsNote.empty()) ImGui::TextDisabled("%s", r->viewsNote.c_str());
      // The views keep the last picture they had; say whose it is, so nobody reads it as this kernel's.
      if (shownRun(ctx.state)) ImGui::TextColored(colourOf(theme.highlight), "The views still show an earlier run, not this kernel.");
    }
  }
  ImGui::PopTextWrapPos();
}

}  // namespace

void drawLabPanel(PanelContext& ctx) {
  if (const auto why = platform::labUnavailable()) {  // a web page: no compiler, no sandbox
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(why->c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  drawToolbar(ctx);
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float side = std::round(std::clamp(avail.x * 0.36f, ImGui::GetFontSize() * 13.0f, ImGui::GetFontSize() * 22.0f));
  // The editor beside the launch settings where that leaves it 72 columns (the reference's
  // kernels whole), else across the whole width with the settings beside the verdict under it.
  if (ctx.monoFont) ImGui::PushFont(ctx.monoFont);
  const float column = ImGui::CalcTextSize("0").x;
  if (ctx.monoFont) ImGui::PopFont();
  const bool besideEditor = avail.x - side - style.ItemSpacing.x >= column * (72 + 6);
  const float outcome = std::round(std::max(avail.y * (besideEditor ? 0.3f : 0.42f), ImGui::GetTextLineHeightWithSpacing() * 5.0f));
  const float editorH = std::max(avail.y - outcome - style.ItemSpacing.y, ImGui::GetFontSize() * 4.0f);
  drawEditor(ctx, besideEditor ? avail.x - side - style.ItemSpacing.x : avail.x, editorH);
  if (besideEditor) ImGui::SameLine();
  ImGui::BeginChild("side", ImVec2(side, besideEditor ? editorH : 0), false);
  if (ImGui::BeginTabBar("labtabs")) {
    const std::string& forward = ctx.state.lab.sideTab;
    if (!forward.empty()) ctx.emit(LabIntent{LabShowSide{""}});  // brought forward once; then the user's choice
    if (ImGui::BeginTabItem("Launch", nullptr, forward == "Launch" ? ImGuiTabItemFlags_SetSelected : 0)) {
      drawLaunch(ctx);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Exercises", nullptr, forward == "Exercises" ? ImGuiTabItemFlags_SetSelected : 0)) {
      drawExercises(ctx);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  if (!besideEditor) ImGui::SameLine();
  ImGui::BeginChild("outcome", ImVec2(0, 0), true);
  drawOutcome(ctx);
  ImGui::EndChild();
}

}  // namespace tilescope::ui
