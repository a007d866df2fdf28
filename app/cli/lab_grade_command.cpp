// tilescope-cli lab grade EXERCISE DIR [--csv F] [--json F] [-j N] [--timeout S] ...: every
// .cu in DIR graded against the exercise, each in the lab's sandbox, N files at a time. One
// report per file on stdout, one CSV row per file, the JSON a course's autograder reads
// (assets/guides/teacher.md, "Grading a class"). Exit 0 when every file was graded, whatever
// the grades; 1 when the lab could not grade some file (its row says why); 2 on bad input.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "commands.h"
#include "core/json_writer.h"
#include "lab/exercise.h"
#include "lab/lab_process.h"

namespace tilescope::cli {

int reportInterrupt();  // lab_command.cpp

namespace {

struct GradeFlags {
  std::string csv, json;
  int jobs = 1;
  lab::LabRequest base;
};

Result<GradeFlags> parseGradeFlags(const Options& o) {
  GradeFlags f;
  if (o.json) {  // --json is also the global flag: its file is the operand after DIR
    if (o.operands.size() != 4) return invalidInput("lab grade: --json needs a file: --json FILE");
    f.json = o.operands[3];
  }
  for (std::size_t i = 0; i < o.extra.size(); ++i) {
    const std::string& flag = o.extra[i];
    if (flag == "--no-sandbox") {
      f.base.sandbox = false;
      std::cerr << "tilescope-cli: warning: --no-sandbox: the class's kernels run with your files, network and processes\n";
      continue;
    }
    if (i + 1 >= o.extra.size()) return invalidInput(flag + " needs a value");
    const std::string& v = o.extra[++i];
    if (flag == "--csv") f.csv = v;
    else if (flag == "-j") {
      auto n = parseInt(flag, v, 1, 64);
      if (!n) return n.error();
      f.jobs = *n;
    } else if (flag == "--timeout" || flag == "--compile-timeout") {
      auto s = parseSeconds(flag, v);
      if (!s) return s.error();
      (flag == "--timeout" ? f.base.timeoutSeconds : f.base.compileTimeoutSeconds) = *s;
    } else if (flag == "--memory-limit") {
      auto n = parseInt(flag, v, lab::kMinMemoryLimitMiB, lab::kMaxMemoryLimitMiB);
      if (!n) return n.error();
      f.base.memoryLimitBytes = uint64_t(*n) << 20;
    } else {
      return invalidInput("unknown flag '" + flag + "' for 'lab grade'");
    }
  }
  return f;
}

struct FileGrade {
  std::string file;
  bool graded = false;  // false: the lab refused it (error says why)
  std::string error;
  lab::Grade grade;
  double seconds = 0.0;
};

std::string verdictOf(const FileGrade& g) {
  if (!g.graded) return "error";
  return g.grade.measured ? std::string(lab::verdictName(g.grade.measured->verdict)) : "not run";
}

int passedChecks(const FileGrade& g) {
  return int(std::count_if(g.grade.items.begin(), g.grade.items.end(), [](const lab::GradeItem& i) { return i.passed; }));
}

std::string csvField(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The columns every row has, then one per check of the exercise (its measured value, or
// "pass"/"fail" for a check without a number), then the seconds.
std::string gradeCsv(const std::vector<FileGrade>& grades, const std::vector<std::string>& checks) {
  std::string s = "file,passed,verdict,checks_passed,checks_total";
  for (const std::string& c : checks) s += "," + csvField(c);
  s += ",seconds,error\n";
  for (const FileGrade& g : grades) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", g.seconds);
    s += csvField(g.file) + "," + (g.graded && g.grade.passed ? "true" : "false") + "," + csvField(verdictOf(g)) + "," +
         std::to_string(passedChecks(g)) + "," + std::to_string(g.grade.items.size());
    for (const std::string& c : checks) {
      auto item = std::find_if(g.grade.items.begin(), g.grade.items.end(), [&](const lab::GradeItem& i) { return i.check == c; });
      std::string cell;
      if (item != g.grade.items.end()) {
        char v[32];
        if (item->value) std::snprintf(v, sizeof v, "%.6g", *item->value);
        cell = item->value ? v : item->passed ? "pass" : "fail";
      }
      s += "," + cell;
    }
    s += "," + std::string(seconds) + "," + csvField(g.error) + "\n";
  }
  return s;
}

void writeGradeJson(std::ostream& out, const std::string& exercise, const std::vector<FileGrade>& grades) {
  JsonWriter json(out);
  json.beginObject().field("exercise", exercise).key("files").beginArray();
  for (const FileGrade& g : grades) {
    json.beginObject().field("file", g.file).field("graded", g.graded).field("passed", g.graded && g.grade.passed);
    json.field("verdict", verdictOf(g)).field("checks_passed", passedChecks(g));
    json.field("checks_total", int(g.grade.items.size())).field("seconds", g.seconds).field("error", g.error);
    json.field("summary", g.grade.measured ? g.grade.measured->summary : g.error);
    json.field("sandbox", g.grade.measured ? g.grade.measured->sandbox : "");
    json.key("checks").beginArray();
    for (const lab::GradeItem& i : g.grade.items) {
      json.beginObject().field("check", i.check).field("passed", i.passed).field("detail", i.detail).key("value");
      if (i.value) json.value(*i.value);
      else json.null();
      json.endObject();
    }
    json.endArray().endObject();
  }
  json.endArray().endObject();
  out << "\n";
}

FileGrade gradeOne(const lab::Exercise& x, const std::filesystem::path& file, const lab::LabRequest& base) {
  FileGrade g;
  g.file = file.filename().string();
  const auto start = std::chrono::steady_clock::now();
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  auto grade = in ? lab::gradeExercise(x, text.str(), g.file, base) : Result<lab::Grade>(invalidInput("cannot read the file"));
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (grade) {
    g.graded = true;
    g.grade = std::move(*grade);
  } else {
    g.error = grade.error().message;
  }
  return g;
}

void printReport(std::ostream& out, const FileGrade& g) {
  out << "== " << g.file << ": " << (g.graded ? (g.grade.passed ? "passed" : "not passed") : "not graded") << " ("
      << verdictOf(g) << ")\n";
  if (!g.graded) out << "   " << g.error << "\n";
  for (const lab::GradeItem& i : g.grade.items) out << (i.passed ? "   pass  " : "   FAIL  ") << i.check << ": " << i.detail << "\n";
  if (g.grade.measured && !g.grade.measured->sandbox.empty()) out << "   " << g.grade.measured->sandbox << "\n";
}

}  // namespace

int labGrade(const Options& o, std::ostream& out) {
  if (o.operands.size() < 3)
    return reportError(invalidInput("lab grade expects an exercise and a folder: tilescope-cli lab grade EXERCISE DIR "
                                    "[--csv FILE] [--json FILE] [-j N]"));
  auto flags = parseGradeFlags(o);
  if (!flags) return reportError(flags.error());
  if (o.operands.size() > (o.json ? 4u : 3u)) return reportError(invalidInput("unexpected argument '" + o.operands.back() + "'"));
  auto exercise = lab::findExercise(o.operands[1]);
  if (!exercise) return reportError(exercise.error());
  const std::filesystem::path dir = o.operands[2];
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return reportError(invalidInput("'" + dir.string() + "' is not a folder"));
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".cu") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) return reportError(invalidInput("no .cu files in '" + dir.string() + "'"));

  std::vector<FileGrade> grades(files.size());
  std::atomic<std::size_t> next{0};
  std::mutex printing;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < files.size() && !lab::labInterrupted();) {
      grades[i] = gradeOne(*exercise, files[i], flags->base);
      std::lock_guard lock(printing);
      printReport(out, grades[i]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(flags->jobs, int(files.size())); ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  if (lab::labInterrupted()) return reportInterrupt();

  std::vector<std::string> checks;  // every check any file was graded on, in the order first met
  for (const FileGrade& g : grades)
    for (const lab::GradeItem& i : g.grade.items)
      if (std::find(checks.begin(), checks.end(), i.check) == checks.end()) checks.push_back(i.check);
  if (!flags->csv.empty()) {
    std::ofstream f(flags->csv, std::ios::binary);
    f << gradeCsv(grades, checks);
    if (!f) return reportError(invalidInput("--csv: cannot write '" + flags->csv + "'"));
  }
  if (!flags->json.empty()) {
    std::ofstream f(flags->json, std::ios::binary);
    writeGradeJson(f, exercise->id, grades);
    if (!f) return reportError(invalidInput("--json: cannot write '" + flags->json + "'"));
  }
  const auto passed = std::count_if(grades.begin(), grades.end(), [](const FileGrade& g) { return g.graded && g.grade.passed; });
  out << passed << " of " << grades.size() << " files passed " << exercise->id << "\n";
  const bool allGraded = std::all_of(grades.begin(), grades.end(), [](const FileGrade& g) { return g.graded; });
  return allGraded ? kExitOk : kExitVerifyFailed;
}

}  // namespace tilescope::cli
