// tilescope-cli lab autograder gradescope|classroom OUTDIR --exercise NAME: `lab grade` packed
// as the autograder of a course platform (assets/guides/teacher.md, "On Gradescope and GitHub
// Classroom"). Both carry a relocatable copy of the grader (the CLI, the lab's runner when the
// engine has one, the exercises), laid out as `cmake --install` lays out a prefix, so that the
// copy finds its runner and its assets from its own place.
//
// gradescope: OUTDIR/autograder.zip, with setup.sh and run_autograder at its top (Gradescope
//   unpacks it into /autograder/source, runs setup.sh once when the image is built, then
//   run_autograder for each submission, which must write /autograder/results/results.json), and
//   the same files unpacked in OUTDIR/autograder/ to read or test.
// classroom: OUTDIR/.github/workflows/classroom.yml (GitHub Classroom's autograding workflow:
//   a step that grades, then the grading reporter) and OUTDIR/.github/classroom/ (the grading
//   script and the grader), to copy into the assignment's template repository.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "core/asset_paths.h"
#include "lab/exercise.h"
#include "lab/lab_child.h"
#include "zip_archive.h"

namespace tilescope::cli {

namespace {

namespace fs = std::filesystem;

// What the grader needs on a fresh Ubuntu (Gradescope's images, GitHub's ubuntu-latest): the C++
// runtime, the libraries the binaries link, and the compiler the emulator's engine builds a
// kernel with. setup.sh checks with ldd that nothing is missing, and says what.
constexpr const char* kPackages = "g++ libseccomp2 libstdc++6 libtree-sitter0 libmcpp0";

std::string gradescopeSetup() {
  return std::string(
             "#!/usr/bin/env bash\n"
             "# Gradescope runs this once, as root, when it builds the autograder's image.\n"
             "set -eu\n"
             "here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n"
             "if [ -z \"${TILESCOPE_SKIP_PACKAGES:-}\" ]; then\n"
             "  apt-get update\n"
             "  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ") +
         kPackages +
         "\n"
         "fi\n"
         "chmod -R a+rX \"$here/tilescope\"\n"
         "missing=\"$(ldd \"$here/tilescope/bin/tilescope-cli\" | grep 'not found' || true)\"\n"
         "if [ -n \"$missing\" ]; then echo \"tilescope: libraries missing: $missing\" >&2; exit 1; fi\n"
         "\"$here/tilescope/bin/tilescope-cli\" lab exercises > /dev/null\n";
}

// AUTOGRADER_ROOT moves the whole layout (a test lays it out under a temporary folder).
std::string gradescopeRun(const std::string& exercise) {
  return "#!/usr/bin/env bash\n"
         "# Gradescope runs this for each submission: the student's files are in\n"
         "# /autograder/submission, and the grade goes to /autograder/results/results.json.\n"
         "set -u\n"
         "root=\"${AUTOGRADER_ROOT:-/autograder}\"\n"
         "mkdir -p \"$root/results\"\n"
         "results=\"$root/results/results.json\"\n"
         "rm -f \"$results\"\n"
         "\"$root/source/tilescope/bin/tilescope-cli\" lab grade " + exercise +
         " \"$root/submission\" --gradescope \"$results\" -j \"$(nproc)\"\n"
         "code=$?\n"
         "# lab grade writes results.json whatever happens to a file; this is for a grader that\n"
         "# could not start at all (exit code above), so the student still sees a grade.\n"
         "if [ ! -s \"$results\" ]; then\n"
         "  printf '{\"score\": 0, \"output\": \"The grader could not run (exit code %s); your instructor has its log.\", \"tests\": []}\\n' \"$code\" > \"$results\"\n"
         "fi\n"
         "exit 0\n";
}

// The runner id is `tilescope`; the reporter reads its result from TILESCOPE_RESULTS.
std::string classroomWorkflow() {
  return std::string(
             "# GitHub Classroom's autograding: tilescope's lab grades the kernel files (*.cu) at the top of\n"
             "# the repository against the exercise; the reporter gives Classroom the score.\n"
             "name: Autograding Tests\n"
             "'on': [push, repository_dispatch]\n"
             "permissions:\n"
             "  checks: write\n"
             "  actions: read\n"
             "  contents: read\n"
             "jobs:\n"
             "  run-autograding-tests:\n"
             "    runs-on: ubuntu-latest\n"
             "    if: github.actor != 'github-classroom[bot]'\n"
             "    steps:\n"
             "      - name: Checkout code\n"
             "        uses: actions/checkout@v4\n"
             "      - name: Install what the grader needs\n"
             "        run: sudo apt-get update && sudo apt-get install -y --no-install-recommends ") +
         kPackages +
         "\n"
         "      - name: tilescope lab grade\n"
         "        id: tilescope\n"
         "        run: bash .github/classroom/grade.sh\n"
         "      - name: Autograding Reporter\n"
         "        uses: classroom-resources/autograding-grading-reporter@v1\n"
         "        env:\n"
         "          TILESCOPE_RESULTS: \"${{ steps.tilescope.outputs.result }}\"\n"
         "        with:\n"
         "          runners: tilescope\n";
}

std::string classroomGrade(const std::string& exercise) {
  return "#!/usr/bin/env bash\n"
         "# The workflow's grading step: grades the repository's top-level *.cu (TILESCOPE_SUBMISSION\n"
         "# names another folder) and hands the reporter the result, base64-encoded, as this step's\n"
         "# output `result`.\n"
         "set -u\n"
         "here=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n"
         "submission=\"${TILESCOPE_SUBMISSION:-${GITHUB_WORKSPACE:-.}}\"\n"
         "out=\"$(mktemp -d)\"\n"
         "\"$here/tilescope/bin/tilescope-cli\" lab grade " + exercise +
         " \"$submission\" --classroom \"$out/result.json\" -j \"$(nproc)\"\n"
         "code=$?\n"
         "if [ ! -s \"$out/result.json\" ]; then\n"
         "  printf '{\"version\": 1, \"status\": \"error\", \"max_score\": 0, \"tests\": [{\"name\": \"graded\", \"status\": \"error\", \"score\": 0, \"message\": \"The grader could not run (exit code %s).\"}]}\\n' \"$code\" > \"$out/result.json\"\n"
         "fi\n"
         "echo \"result=$(base64 -w0 \"$out/result.json\")\" >> \"${GITHUB_OUTPUT:-/dev/stdout}\"\n"
         "rm -rf \"$out\"\n"
         "exit 0\n";
}

Status writeText(const fs::path& file, const std::string& text, bool executable) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return invalidInput("cannot write '" + file.string() + "'");
  chmod(file.c_str(), executable ? 0755 : 0644);
  return Ok{};
}

Status copyInto(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::overwrite_existing | fs::copy_options::recursive, ec);
  if (ec) return failure("cannot copy '" + from.string() + "' to '" + to.string() + "': " + ec.message());
  return Ok{};
}

// The grader as an installed prefix: bin/tilescope-cli, libexec/tilescope/tilescope-lab-runner
// (the engine's runner, when it has one) and share/tilescope/assets/exercises.
Status copyGrader(const fs::path& prefix) {
  auto exe = executablePath();
  if (!exe) return exe.error();
  if (auto s = copyInto(*exe, prefix / "bin" / "tilescope-cli"); !s) return s;
  if (auto runner = lab::detail::findRunner())
    if (auto s = copyInto(*runner, prefix / "libexec" / "tilescope" / "tilescope-lab-runner"); !s) return s;
  auto exercises = assetPath("exercises");
  if (!exercises) return exercises.error();
  return copyInto(*exercises, prefix / assetsSubdirectory() / "exercises");
}

Status makeGradescope(const fs::path& outDir, const std::string& exercise, std::ostream& out) {
  const fs::path source = outDir / "autograder";
  std::error_code ec;
  fs::remove_all(source, ec);
  if (auto s = copyGrader(source / "tilescope"); !s) return s;
  if (auto s = writeText(source / "setup.sh", gradescopeSetup(), true); !s) return s;
  if (auto s = writeText(source / "run_autograder", gradescopeRun(exercise), true); !s) return s;
  if (auto s = writeZip(outDir / "autograder.zip", zipEntriesBelow(source)); !s) return s;
  out << "wrote " << (outDir / "autograder.zip").string() << ": upload it as the assignment's autograder "
      << "(Gradescope: Configure Autograder, Ubuntu base image); it grades " << exercise << "\n";
  return Ok{};
}

Status makeClassroom(const fs::path& outDir, const std::string& exercise, std::ostream& out) {
  const fs::path github = outDir / ".github";
  std::error_code ec;
  fs::remove_all(github / "classroom" / "tilescope", ec);
  if (auto s = copyGrader(github / "classroom" / "tilescope"); !s) return s;
  if (auto s = writeText(github / "classroom" / "grade.sh", classroomGrade(exercise), true); !s) return s;
  if (auto s = writeText(github / "workflows" / "classroom.yml", classroomWorkflow(), false); !s) return s;
  out << "wrote " << github.string() << ": copy it into the assignment's template repository; it grades "
      << exercise << " on every push\n";
  return Ok{};
}

Result<std::string> exerciseFlag(const Options& o) {
  std::string exercise;
  for (std::size_t i = 0; i < o.extra.size(); ++i) {
    if (o.extra[i] != "--exercise" || i + 1 >= o.extra.size())
      return invalidInput("unknown flag '" + o.extra[i] + "' for 'lab autograder' (it takes --exercise NAME)");
    exercise = o.extra[++i];
  }
  if (exercise.empty()) return invalidInput("lab autograder needs the exercise it grades: --exercise NAME");
  auto x = lab::findExercise(exercise);
  if (!x) return x.error();
  // Only an exercise of the grader's own (its id, not a path): the script names it in plain text.
  if (x->id != exercise) return invalidInput("--exercise takes an exercise's name (tilescope-cli lab exercises lists them)");
  return x->id;
}

}  // namespace

int labAutograder(const Options& o, std::ostream& out) {
  if (o.operands.size() != 3 || (o.operands[1] != "gradescope" && o.operands[1] != "classroom"))
    return reportLabError(invalidInput("lab autograder expects a platform and a folder: tilescope-cli lab autograder "
                                       "gradescope|classroom OUTDIR --exercise NAME"));
  auto exercise = exerciseFlag(o);
  if (!exercise) return reportLabError(exercise.error());
  const fs::path outDir = o.operands[2];
  std::error_code ec;
  fs::create_directories(outDir, ec);
  if (ec) return reportLabError(invalidInput("cannot make the folder '" + outDir.string() + "': " + ec.message()));
  Status s = o.operands[1] == "gradescope" ? makeGradescope(outDir, *exercise, out) : makeClassroom(outDir, *exercise, out);
  return s ? kExitOk : reportLabError(s.error());
}

}  // namespace tilescope::cli
