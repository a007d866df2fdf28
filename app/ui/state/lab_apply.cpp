#include "ui/state/lab_apply.h"
#include "ui/state/overloaded.h"

#include <algorithm>

#include "platform/page.h"

namespace tilescope::ui {
namespace {

const lab::Exercise* findExercise(const LabState& s, const std::string& id) {
  const auto x = std::find_if(s.exercises.begin(), s.exercises.end(), [&](const lab::Exercise& e) { return e.id == id; });
  return x == s.exercises.end() ? nullptr : &*x;
}

void refuse(LabState& s, std::string why) {
  auto result = std::make_shared<LabResult>();
  result->error = std::move(why);
  s.result = std::move(result);
}

}  // namespace

std::shared_ptr<const LabJob> applyLabIntent(AppState& state, RunWorker& worker, const LabIntent& intent) {
  LabState& s = state.lab;
  std::shared_ptr<const LabJob> job;
  std::visit(Overloaded{
                 [&](const LabOpenFile& i) { openLabFile(s, i.path); },
                 [&](const LabSaveFile& i) {
                   // A page saves into its own memory: the browser hands the file to the student.
                   if (saveLabFile(s, i.path)) platform::offerDownload(s.path);
                 },
                 [&](const LabSetText& i) { setLabText(s, i.text); },
                 [&](const LabAppendLine& i) {
                   std::string text = s.text;
                   if (!text.empty() && text.back() != '\n') text += '\n';
                   setLabText(s, text + i.line + "\n");
                 },
                 [&](const LabSetPathField& i) { s.pathField = i.path; },
                 [&](const LabSetLaunch& i) { s.launch = i.launch; },
                 [&](const LabOpenExercise& i) {
                   if (const lab::Exercise* x = findExercise(s, i.id)) {
                     openExercise(s, *x);
                     s.selected = x->id;
                     s.sideTab = "Exercises";  // its goal beside the starter
                   } else {
                     s.message = "no exercise '" + i.id + "'";
                     s.messageIsError = true;
                   }
                 },
                 [&](const LabRun&) {
                   s.pendingIsCheck = false;
                   job = std::make_shared<const LabJob>(LabJob{labRequest(s), std::nullopt});
                 },
                 [&](const LabCheck& i) {
                   const std::string id = !i.id.empty() ? i.id : !s.exercise.empty() ? s.exercise : s.selected;
                   const lab::Exercise* x = findExercise(s, id);
                   if (!x) return refuse(s, id.empty() ? "choose an exercise to check against" : "no exercise '" + id + "'");
                   s.pendingIsCheck = true;
                   s.selected = x->id;
                   s.sideTab = "Exercises";  // the tick lands there
                   job = std::make_shared<const LabJob>(LabJob{labRequest(s), *x});
                 },
                 [&](const LabCancel&) {
                   if (s.pendingGeneration) worker.cancelLab(s.pendingGeneration);
                 },
                 [&](const LabSelectExercise& i) { s.selected = i.id; },
                 [&](const LabShowSide& i) { s.sideTab = i.tab; },
                 [&](const LabBringBack&) {
                   if (!s.replaced) return;
                   auto [text, path] = *std::exchange(s.replaced, std::nullopt);
                   setLabText(s, std::move(text));
                   s.path = s.pathField = path;
                   s.message = "brought back the text the open replaced";
                   s.messageIsError = false;
                 },
             },
             intent);
  return job;
}

void takeLabResult(AppState& state, const RunResult& result) {
  LabState& s = state.lab;
  if (result.lab) {
    s.result = result.lab;
    const LabResult& r = *result.lab;
    if (!r.error.empty() && s.launch.backend == lab::LabBackend::Cuda) s.cudaRefused = r.error;
    if (r.grade && !r.exerciseId.empty()) {
      bool& passed = s.progress[r.exerciseId];
      passed = passed || r.grade->passed;
      if (auto saved = lab::saveProgress(s.progress); !saved) s.progressError = saved.error().message;
      else s.progressError.clear();
    }
  }
  // The job asked for has come back, or a newer request took its place in the queue.
  if (s.pendingGeneration && result.generation >= s.pendingGeneration) {
    if (!result.lab && result.generation > s.pendingGeneration)
      refuse(s, "replaced by a newer run before it started");
    s.pendingGeneration = 0;
  }
}

}  // namespace tilescope::ui
