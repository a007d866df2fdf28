// tilescope-cli lab check EXERCISE FILE.cu and lab exercises: grading a kernel against an
// exercise (app/lab/exercise.h), for a student or a teacher's script over a class; an
// exercise's goal and starter (lab exercises --show NAME).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.h"
#include "core/json_writer.h"
#include "grade_output.h"
#include "lab/exercise.h"
#include "lab/lab_cache.h"

namespace tilescope::cli {

int labCheck(const Options& o, std::ostream& out) {
  if (o.operands.size() != 3)
    return reportLabError(invalidInput("lab check expects an exercise and a file: tilescope-cli lab check EXERCISE FILE.cu"));
  if (!o.extra.empty()) return reportLabError(invalidInput("unknown flag '" + o.extra.front() + "' for 'lab check'"));
  auto exercise = lab::findExercise(o.operands[1]);
  if (!exercise) return reportLabError(exercise.error());
  const std::string& path = o.operands[2];
  // Read whole and closed (close-on-exec) before the run starts; its size checked first.
  auto text = lab::readFileLimited(path, lab::kMaxSourceBytes);
  if (!text) return reportLabError(invalidInput("cannot read '" + path + "': " + text.error().message));
  const std::string name = std::filesystem::path(path).filename().string();
  lab::LabRequest base;
  base.backend = gradingBackend(o.backend);
  base.seed = gradingSeed(o.seedGiven, o.config.seed);
  auto grade = lab::gradeExercise(*exercise, *text, name, base);
  if (!grade) return reportLabError(grade.error());
  if (base.backend == lab::LabBackend::Cuda)  // the GPU must run what the interpreter ran
    if (Status s = lab::addGpuChecks(*exercise, *text, name, base, *grade); !s) return reportLabError(s.error());
  if (o.json) {
    JsonWriter json(out);
    json.beginObject().field("exercise", exercise->id).field("file", validUtf8(path)).field("passed", grade->passed);
    json.field("seed", grade->seed);
    json.key("checks").beginArray();
    for (const lab::GradeItem& i : grade->items)
      json.beginObject().field("check", i.check).field("passed", i.passed).field("detail", validUtf8(i.detail)).endObject();
    json.endArray();
    if (grade->measured && !grade->measured->printed.empty()) {  // bounded as the report shows it
      const std::string& printed = grade->measured->printed;
      json.field("printed", validUtf8(std::string_view(printed).substr(0, lab::kMaxShownPrintedBytes)));
      json.field("printed_cut", printed.size() > lab::kMaxShownPrintedBytes || grade->measured->printedTruncated);
    }
    json.endObject();
    out << "\n";
  } else {
    out << exercise->id << ": " << exercise->title << "\n";
    for (const lab::GradeItem& i : grade->items)
      out << (i.passed ? "  pass  " : "  FAIL  ") << i.check << ": " << forTerminal(i.detail) << "\n";
    if (grade->measured) out << lab::describePrinted(*grade->measured, 40, &forTerminal);  // the first size's run
    out << (grade->passed ? "passed" : "not yet: see the FAIL lines") << " (inputs drawn with seed " << grade->seed
        << ": the same grade again with --seed " << grade->seed << ")\n";
  }
  // Any file that does not pass (a failed check, a compile error) exits 1, as --help says; 2 is
  // for bad input to the command itself (an unknown exercise, a file that cannot be read).
  return grade->passed ? kExitOk : kExitVerifyFailed;
}

namespace {
// `lab exercises --show NAME`: the exercise as a student starts it (its goal, what passes, the
// starter kernel to copy into a file).
void showExercise(const lab::Exercise& x, bool json, std::ostream& out) {
  if (json) {
    JsonWriter w(out);
    w.beginObject().field("exercise", x.id).field("title", x.title).field("goal", x.goal).field("starter", x.starter);
    w.endObject();
    out << "\n";
    return;
  }
  out << x.id << ": " << x.title << "\n\n" << x.goal << "\n\n";
  std::string launch;  // what the grade launches it with (the starter may use a define it sets)
  for (const lab::LabDefine& d : x.defines) launch += " " + d.name + "=" + d.value;
  if (x.block) launch += " block " + std::to_string(x.block->x) + "x" + std::to_string(x.block->y);
  for (const lab::LabArg& a : x.args) launch += " " + a.name + "=" + std::to_string(a.value);
  std::string sizes, checks;
  for (const Dims& d : x.sizes) sizes += (sizes.empty() ? " " : ", ") + std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l);
  for (const lab::ExerciseCheck& c : x.checks) {
    checks += checks.empty() ? "" : ", ";
    checks += c.kind == lab::ExerciseCheck::Kind::Correct ? "correct at every size" : lab::checkName(c);
  }
  if (!launch.empty()) out << "launched with" << launch << "\n";
  out << "graded at" << sizes << ": " << checks << "\n\nstarter (copy it into a file, then: tilescope-cli lab check "
      << x.id << " FILE.cu):\n\n" << x.starter << (x.starter.ends_with("\n") ? "" : "\n");
}
}  // namespace

int labExercises(const Options& o, std::ostream& out) {
  std::string show;
  for (std::size_t i = 0; i < o.extra.size(); ++i) {
    if (o.extra[i] != "--show")
      return reportLabError(invalidInput("unknown flag '" + o.extra[i] + "' for 'lab exercises' (it takes --show NAME)"));
    if (i + 1 >= o.extra.size() || !show.empty())
      return reportLabError(invalidInput("lab exercises: --show needs one exercise's name: lab exercises --show NAME"));
    show = o.extra[++i];
  }
  if (o.operands.size() != 1)
    return reportLabError(invalidInput("lab exercises takes no file: tilescope-cli lab exercises [--show NAME]"));
  if (!show.empty()) {
    auto x = lab::findExercise(show);  // an unknown name: the error lists the exercises
    if (!x) return reportLabError(x.error());
    showExercise(*x, o.json, out);
    return kExitOk;
  }
  auto all = lab::loadExercises();
  if (!all) return reportLabError(all.error());
  const auto progress = lab::loadProgress();
  JsonWriter json(out);
  if (o.json) json.beginArray();
  for (const lab::Exercise& x : *all) {
    const auto p = progress.find(x.id);
    const bool passed = p != progress.end() && p->second;
    if (o.json) json.beginObject().field("exercise", x.id).field("title", x.title).field("passed", passed).endObject();
    else out << x.id << "  " << x.title << (passed ? "  (passed)" : "") << "\n";
  }
  if (o.json) {
    json.endArray();
    out << "\n";
  }
  return kExitOk;
}

}  // namespace tilescope::cli
