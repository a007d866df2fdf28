// tilescope-cli lab grade EXERCISE DIR [--csv F] [--json F] [--gradescope F] [--classroom F] [-j N]
// [--timeout S] [--backend emu|cuda] [--seed N] ...: every .cu in DIR graded against the exercise, each in the lab's sandbox, N
// files at a time. One report per file on stdout, one CSV row per file, the JSON a course's
// autograder reads, Gradescope's results.json, GitHub Classroom's runner result
// (assets/guides/teacher.md, "Grading a class"). Exit 0 when every file was graded, whatever
// the grades; 1 when the lab could not grade some file (its row says why); 2 on bad input.
//
// One file can fail only its own row: whatever the lab returns for it (an error included) is
// that file's grade, and the CSV and JSON rows are written, flushed, as each file finishes. A
// student's file is read whole, close-on-exec, and closed before its run starts.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "commands.h"
#include "grade_output.h"
#include "lab/exercise.h"
#include "lab/lab_cache.h"
#include "lab/lab_process.h"

namespace tilescope::cli {


namespace {

struct GradeFlags {
  std::string csv, json, gradescope, classroom;
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
    else if (flag == "--gradescope") f.gradescope = v;
    else if (flag == "--classroom") f.classroom = v;
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

// Why an entry of the class folder is not a file to grade ("" for a regular file). A link is
// not followed: it could name a classmate's file (a copied grade) or any file of the teacher's.
std::string notAFile(const std::filesystem::path& file) {
  std::error_code ec;
  const auto type = std::filesystem::symlink_status(file, ec).type();
  using T = std::filesystem::file_type;
  if (ec) return "cannot be read: " + ec.message();
  switch (type) {
    case T::regular: return "";
    case T::symlink: return "not a regular file: a symbolic link (not followed); submit the file itself";
    case T::directory: return "not a regular file: a folder";
    case T::fifo: return "not a regular file: a named pipe (fifo)";
    case T::block: case T::character: return "not a regular file: a device";
    case T::socket: return "not a regular file: a socket";
    default: return "not a regular file";
  }
}

FileGrade gradeOne(const lab::Exercise& x, const std::filesystem::path& file, const lab::LabRequest& base) {
  FileGrade g;
  g.file = file.filename().string();
  g.grade.seed = base.seed;
  if (std::string why = notAFile(file); !why.empty()) {
    g.error = why;
    return g;
  }
  const auto start = std::chrono::steady_clock::now();
  // Its size is checked before it is read; it is closed before its run starts.
  auto text = lab::readFileLimited(file, lab::kMaxSourceBytes);
  Result<lab::Grade> grade = text ? lab::gradeExercise(x, *text, g.file, base)
                                  : Result<lab::Grade>(text.error().kind == ErrorKind::InvalidInput
                                                           ? invalidInput("the file is too large: " + text.error().message)
                                                           : text.error());
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (grade) {
    g.graded = true;
    g.grade = std::move(*grade);
  } else {
    g.error = grade.error().message;
  }
  return g;
}

// The grader's own file-size limit raised back to its hard limit before each write: a child
// that lowered it (prlimit on its parent) cannot stop the grades from being written; SIGXFSZ
// is ignored (labGrade), so a write past a limit is an error seen here, never the grader's end.
void keepFileSizeLimit() {
  rlimit r{};
  if (getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur != r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_FSIZE, &r);
  }
}

// A file the grades go to: opened close-on-exec (no child inherits it), written as rows come.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile() {
    if (f_) std::fclose(f_);
  }
  Status open(const std::string& path, const std::string& flag) {
    if (path.empty()) return Ok{};
    f_ = std::fopen(path.c_str(), "we");
    if (!f_) return invalidInput(flag + ": cannot write '" + path + "'");
    return Ok{};
  }
  void write(const std::string& text) {
    if (!f_) return;
    keepFileSizeLimit();
    std::fwrite(text.data(), 1, text.size(), f_);
    std::fflush(f_);
    ok_ = ok_ && !std::ferror(f_);
  }
  bool ok() const { return ok_; }

 private:
  std::FILE* f_ = nullptr;
  bool ok_ = true;
};

Status writeWhole(const std::string& path, const std::string& flag, const std::string& text) {
  if (path.empty()) return Ok{};
  OutputFile f;
  if (auto s = f.open(path, flag); !s) return s;
  f.write(text);
  if (!f.ok()) return invalidInput(flag + ": cannot write '" + path + "'");
  return Ok{};
}

// The class's files: every entry named *.cu gets a row; only a regular file is read (links
// are not followed).
Result<std::vector<std::filesystem::path>> classFiles(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return invalidInput("'" + dir.string() + "' is not a folder");
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".cu") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) return invalidInput("no .cu files in '" + dir.string() + "'");
  return files;
}

// Grades `files`, `jobs` at a time; each row is printed and written as its file finishes.
std::vector<FileGrade> gradeClass(const lab::Exercise& x, const std::vector<std::filesystem::path>& files,
                                  const GradeFlags& flags, OutputFile& csv, OutputFile& json, std::ostream& out) {
  const std::vector<std::string> checks = exerciseCheckNames(x);
  std::vector<FileGrade> grades(files.size());
  std::atomic<std::size_t> next{0};
  std::mutex writing;
  bool firstJson = true;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < files.size() && !lab::labInterrupted();) {
      FileGrade g = gradeOne(x, files[i], flags.base);
      if (lab::labInterrupted()) return;  // a run stopped by the interrupt is no grade
      std::lock_guard lock(writing);
      out << reportText(g) << std::flush;
      csv.write(csvRow(g, checks));
      json.write((firstJson ? "" : ",\n") + jsonFile(g));
      firstJson = false;
      grades[i] = std::move(g);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::min<int>(flags.jobs, int(files.size())); ++t) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  return grades;
}

// A class that could not be graded at all still gets its platform files, saying why.
int refuseClass(const GradeFlags& flags, const Error& e) {
  const std::string reason = "not graded: " + e.message;
  (void)writeWhole(flags.gradescope, "--gradescope", gradescopeFailure(reason));
  (void)writeWhole(flags.classroom, "--classroom", classroomFailure(reason));
  return reportLabError(e);
}

}  // namespace

int labGrade(const Options& o, std::ostream& out) {
  if (o.operands.size() < 3)
    return reportLabError(invalidInput("lab grade expects an exercise and a folder: tilescope-cli lab grade EXERCISE DIR "
                                    "[--csv FILE] [--json FILE] [--gradescope FILE] [--classroom FILE] [-j N]"));
  std::signal(SIGHUP, [](int sig) {  // a closed terminal stops the class like Ctrl-C
    lab::labInterrupted().store(true);
    std::signal(sig, SIG_DFL);
  });
  std::signal(SIGXFSZ, SIG_IGN);  // a lowered file-size limit is a write error, not the grader's end
  keepFileSizeLimit();
  auto flags = parseGradeFlags(o);
  if (!flags) return reportLabError(flags.error());
  flags->base.backend = gradingBackend(o.backend);
  flags->base.seed = gradingSeed(o.seedGiven, o.config.seed);
  flags->base.cancel = &lab::labInterrupted();  // a stopped class stops the file being graded
  if (o.operands.size() > (o.json ? 4u : 3u)) return refuseClass(*flags, invalidInput("unexpected argument '" + o.operands.back() + "'"));
  auto exercise = lab::findExercise(o.operands[1]);
  if (!exercise) return refuseClass(*flags, exercise.error());
  auto files = classFiles(o.operands[2]);
  if (!files) return refuseClass(*flags, files.error());

  const std::vector<std::string> checks = exerciseCheckNames(*exercise);
  OutputFile csv, json;
  if (auto s = csv.open(flags->csv, "--csv"); !s) return refuseClass(*flags, s.error());
  if (auto s = json.open(flags->json, "--json"); !s) return refuseClass(*flags, s.error());
  csv.write(csvHeader(checks));
  json.write(jsonHead(exercise->id));
  std::vector<FileGrade> grades = gradeClass(*exercise, *files, *flags, csv, json, out);
  if (lab::labInterrupted()) return reportInterrupt();
  json.write(jsonTail());
  // Every file is written before any failure is reported: one that could not be written does
  // not keep the others from the class.
  const Status written[] = {
      csv.ok() ? Status(Ok{}) : Status(invalidInput("--csv: cannot write '" + flags->csv + "'")),
      json.ok() ? Status(Ok{}) : Status(invalidInput("--json: cannot write '" + flags->json + "'")),
      writeWhole(flags->gradescope, "--gradescope", gradescopeResults(grades, checks)),
      writeWhole(flags->classroom, "--classroom", classroomResults(grades, checks))};
  for (const Status& s : written)
    if (!s) return reportLabError(s.error());

  const auto passed = std::count_if(grades.begin(), grades.end(), [](const FileGrade& g) { return g.graded && g.grade.passed; });
  out << passed << " of " << grades.size() << " files passed " << exercise->id << " (inputs drawn with seed "
      << flags->base.seed << ": the same grades again with --seed " << flags->base.seed << ")\n";
  const bool allGraded = std::all_of(grades.begin(), grades.end(), [](const FileGrade& g) { return g.graded; });
  return allGraded ? kExitOk : kExitVerifyFailed;
}

}  // namespace tilescope::cli
