// tilescope-cli lab check EXERCISE FILE.cu and lab exercises: grading a kernel against an
// exercise (app/lab/exercise.h), for a student or a teacher's script over a class.
#include <filesystem>

#include "commands.h"
#include "core/json_writer.h"
#include "grade_output.h"
#include "lab/exercise.h"
#include "lab/lab_cache.h"

namespace tilescope::cli {

int labCheck(const Options& o, std::ostream& out) {
  if (o.operands.size() != 3)
    return reportError(invalidInput("lab check expects an exercise and a file: tilescope-cli lab check EXERCISE FILE.cu"));
  if (!o.extra.empty()) return reportError(invalidInput("unknown flag '" + o.extra.front() + "' for 'lab check'"));
  auto exercise = lab::findExercise(o.operands[1]);
  if (!exercise) return reportError(exercise.error());
  const std::string& path = o.operands[2];
  // Read whole and closed (close-on-exec) before the run starts; its size checked first.
  auto text = lab::readFileLimited(path, lab::kMaxSourceBytes);
  if (!text) return reportError(invalidInput("cannot read '" + path + "': " + text.error().message));
  const std::string name = std::filesystem::path(path).filename().string();
  auto grade = lab::gradeExercise(*exercise, *text, name);
  if (!grade) return reportError(grade.error());
  if (o.json) {
    JsonWriter json(out);
    json.beginObject().field("exercise", exercise->id).field("file", validUtf8(path)).field("passed", grade->passed);
    json.key("checks").beginArray();
    for (const lab::GradeItem& i : grade->items)
      json.beginObject().field("check", i.check).field("passed", i.passed).field("detail", validUtf8(i.detail)).endObject();
    json.endArray().endObject();
    out << "\n";
  } else {
    out << exercise->id << ": " << exercise->title << "\n";
    for (const lab::GradeItem& i : grade->items)
      out << (i.passed ? "  pass  " : "  FAIL  ") << i.check << ": " << forTerminal(i.detail) << "\n";
    out << (grade->passed ? "passed\n" : "not yet: see the FAIL lines\n");
  }
  const bool compiled = grade->items.empty() || grade->items.front().check != "compiles";
  return grade->passed ? kExitOk : compiled ? kExitVerifyFailed : kExitBadInput;
}

int labExercises(const Options& o, std::ostream& out) {
  auto all = lab::loadExercises();
  if (!all) return reportError(all.error());
  const auto progress = lab::loadProgress();
  for (const lab::Exercise& x : *all) {
    const auto p = progress.find(x.id);
    out << x.id << "  " << x.title << (p != progress.end() && p->second ? "  (passed)" : "") << "\n";
  }
  return kExitOk;
}

}  // namespace tilescope::cli
