// tilescope-cli lab grade EXERCISE DIR [--csv F] [--json F] [--gradescope F] [--classroom F] [-j N]
// [--timeout S] [--backend emu|cuda] [--seed N] ...: every .cu in DIR graded against the exercise, each in a
// process of its own (this program's `lab grade-file`, under a CPU-time limit), N files at a time. One report per file on stdout, one CSV row per file, the JSON a course's
// autograder reads, Gradescope's results.json, GitHub Classroom's runner result
// (assets/guides/teacher.md, "Grading a class"). Exit 0 when every file was graded, whatever
// the grades; 1 when the lab could not grade some file (its row says why); 2 on bad input.
//
// One file can fail only its own row: whatever the lab returns for it (an error included, or
// its process's end: a crash, memory exhausted, the CPU limit) is that file's grade, and the CSV and JSON rows are written, flushed, as each file finishes. A
// student's file is read whole, close-on-exec, and closed before its run starts.
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <new>
#include <mutex>
#include <thread>

#include "commands.h"
#include "grade_output.h"
#include "lab/exercise.h"
#include "lab/lab_cache.h"
#include "core/asset_paths.h"
#include "lab/lab_judge.h"
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
  if (grade && base.backend == lab::LabBackend::Cuda)  // the GPU must run what the interpreter ran
    if (Status s = lab::addGpuChecks(x, *text, g.file, base, *grade); !s) grade = s.error();
  g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (grade) {
    g.graded = true;
    g.grade = std::move(*grade);
  } else {
    g.error = grade.error().message;
  }
  return g;
}

// A test's way to make the grader's child fail as only a bug of the lab could (an abort inside
// the interpreter, memory exhausted): TILESCOPE_LAB_GRADE_TEST_HOOK=NAME=abort,NAME=memory,...
// acts on the files named. The environment is the teacher's, never a student's: no kernel
// reaches it.
void testHook(const std::string& fileName) {
  const char* hook = std::getenv("TILESCOPE_LAB_GRADE_TEST_HOOK");
  if (!hook) return;
  const std::string h = "," + std::string(hook) + ",";
  if (h.find("," + fileName + "=abort,") != std::string::npos) std::abort();
  if (h.find("," + fileName + "=memory,") != std::string::npos) {
    // A gibibyte at a time, one byte of each touched, until an allocation fails (the child's
    // address-space limit): bad_alloc, uncaught, ends the process as a real exhaustion would.
    // (64 at most, then as if the last failed: a sanitizer's build has no such limit.)
    std::vector<std::unique_ptr<char[]>> held;
    for (int i = 0; i < 64; ++i) {
      held.emplace_back(new char[std::size_t(1) << 30]);
      held.back()[0] = 1;
    }
    throw std::bad_alloc();
  }
}

// The child's memory bounded, so that a file that exhausts it ends only its own process: the
// lab's limit and room for the program itself. Not under a sanitizer (which reserves far more
// address space than it uses) nor where CUDA may start (its driver does too).
void limitChildMemory(const lab::LabRequest& base) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  (void)base;
#else
  if (base.backend == lab::LabBackend::Cuda) return;
  const rlim_t bytes = rlim_t(base.memoryLimitBytes + (2ull << 30));
  rlimit r{bytes, bytes};
  setrlimit(RLIMIT_AS, &r);
#endif
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

// A file the grader's child did not answer for: its row, with why.
FileGrade childFailed(const std::filesystem::path& file, uint64_t seed, std::string why) {
  FileGrade g;
  g.file = file.filename().string();
  g.grade.seed = seed;
  g.error = std::move(why);
  return g;
}

// The CPU seconds one file's process may use: each size's run at the time limit, and room for
// the process's start, the front end and the analyses of each size.
double fileCpuLimit(const lab::Exercise& x, const lab::LabRequest& base) {
  return double(std::max<std::size_t>(x.sizes.size(), 1)) * (base.timeoutSeconds + 30.0) + 10.0;
}

// Grades one file in a process of its own (this program's `lab grade-file`), so that whatever
// happens to it (a crash, memory exhausted, a CPU limit reached) is that file's row: the
// limit is CPU time, so -j 64 on two cores slows each file without failing it.
FileGrade gradeInChild(const lab::Exercise& x, const std::filesystem::path& file, std::size_t index,
                       const GradeFlags& flags, const std::filesystem::path& scratch) {
  const lab::LabRequest& base = flags.base;
  if (std::string why = notAFile(file); !why.empty()) return childFailed(file, base.seed, why);
  static const Result<std::filesystem::path> self = executablePath();
  if (!self) return childFailed(file, base.seed, "the grader cannot start itself: " + self.error().message);
  const std::filesystem::path result = scratch / (std::to_string(index) + ".grade");
  const std::filesystem::path log = scratch / (std::to_string(index) + ".log");
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.17g", base.timeoutSeconds);
  std::vector<std::string> argv = {self->string(), "lab", "grade-file", x.id, file.string(), result.string(),
                                   "--seed", std::to_string(base.seed), "--timeout", seconds,
                                   "--memory-limit", std::to_string(base.memoryLimitBytes >> 20),
                                   "--backend", base.backend == lab::LabBackend::Cuda ? "cuda" : "emu"};
  std::snprintf(seconds, sizeof seconds, "%.17g", base.compileTimeoutSeconds);
  argv.insert(argv.end(), {"--compile-timeout", seconds});
  if (!base.sandbox) argv.push_back("--no-sandbox");
  std::vector<std::string> environment;
  for (char** e = environ; e && *e; ++e) environment.emplace_back(*e);  // the teacher's, as the grader has it
  const double limit = fileCpuLimit(x, base);
  const auto start = std::chrono::steady_clock::now();
  auto child = lab::runChild(argv, environment, limit, base.cancel, log);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!child) return childFailed(file, base.seed, "the grader could not start a process for it: " + child.error().message);
  char cpu[32];
  std::snprintf(cpu, sizeof cpu, "%g", limit);
  FileGrade failed = childFailed(file, base.seed, "");
  failed.seconds = wall;
  if (child->cancelled) return failed;  // the class was stopped: no grade
  if (child->timedOut) {
    failed.error = "stopped: grading it used more than " + std::string(cpu) + " s of CPU time";
    return failed;
  }
  if (child->signal != 0 || child->exitCode != 0) {
    const std::string said = child->output.substr(0, child->output.find('\n')).substr(0, 300);
    failed.error = "the lab failed on this file and it was not graded (its grading process " +
                   (child->signal ? "ended with " + lab::signalName(child->signal) : "exited with code " + std::to_string(child->exitCode)) +
                   (said.empty() ? "" : ": " + said) + "); the other files are graded";
    return failed;
  }
  auto text = lab::readFileLimited(result, 16u << 20);
  auto grade = text ? decodeFileGrade(*text) : Result<FileGrade>(text.error());
  if (!grade) {
    failed.error = "the lab failed on this file and it was not graded: " + grade.error().message;
    return failed;
  }
  grade->file = file.filename().string();  // the grader's own name for it, not the child's word
  grade->seconds = wall;
  return std::move(*grade);
}

// Grades `files`, `jobs` at a time; each row is printed and written as its file finishes.
std::vector<FileGrade> gradeClass(const lab::Exercise& x, const std::vector<std::filesystem::path>& files,
                                  const GradeFlags& flags, const std::filesystem::path& scratch, OutputFile& csv,
                                  OutputFile& json, std::ostream& out) {
  const std::vector<std::string> checks = exerciseCheckNames(x, flags.base.backend == lab::LabBackend::Cuda);
  std::vector<FileGrade> grades(files.size());
  std::atomic<std::size_t> next{0};
  std::mutex writing;
  bool firstJson = true;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < files.size() && !lab::labInterrupted();) {
      FileGrade g = gradeInChild(x, files[i], i, flags, scratch);
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
  if (flags->base.backend == lab::LabBackend::Cuda)  // each file's "the same on the GPU" checks need one
    if (const std::optional<std::string> why = lab::labGpuUnavailable())
      return refuseClass(*flags, unavailable("--backend cuda: " + *why));
  auto files = classFiles(o.operands[2]);
  if (!files) return refuseClass(*flags, files.error());

  auto cache = lab::labCacheDirectory(flags->base.cacheDir);
  if (!cache) return refuseClass(*flags, cache.error());
  auto scratch = lab::Scratch::create(*cache, "grade");  // the children's answers; removed on return
  if (!scratch) return refuseClass(*flags, scratch.error());
  const std::vector<std::string> checks = exerciseCheckNames(*exercise, flags->base.backend == lab::LabBackend::Cuda);
  OutputFile csv, json;
  if (auto s = csv.open(flags->csv, "--csv"); !s) return refuseClass(*flags, s.error());
  if (auto s = json.open(flags->json, "--json"); !s) return refuseClass(*flags, s.error());
  csv.write(csvHeader(checks));
  json.write(jsonHead(exercise->id));
  std::vector<FileGrade> grades = gradeClass(*exercise, *files, *flags, scratch->dir(), csv, json, out);
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

int labGradeFile(const Options& o, std::ostream&) {
  if (o.operands.size() != 4)
    return reportLabError(invalidInput("lab grade-file is the grader's own step: lab grade-file EXERCISE FILE RESULT"));
  auto flags = parseGradeFlags(o);
  if (!flags) return reportLabError(flags.error());
  flags->base.backend = gradingBackend(o.backend);
  flags->base.seed = o.config.seed;  // the grader's, drawn once for the class
  auto exercise = lab::findExercise(o.operands[1]);
  if (!exercise) return reportLabError(exercise.error());
  limitChildMemory(flags->base);
  // It ends with the grader (a grader killed with SIGKILL leaves no file being graded), and its
  // CPU time is bounded by the kernel too, a little past the grader's own watch.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const rlim_t cpu = rlim_t(fileCpuLimit(*exercise, flags->base)) + 5;
  const rlimit cpuLimit{cpu, cpu + 5};
  setrlimit(RLIMIT_CPU, &cpuLimit);
  const std::filesystem::path file = o.operands[2];
  testHook(file.filename().string());
  const FileGrade g = gradeOne(*exercise, file, flags->base);
  OutputFile result;
  if (auto s = result.open(o.operands[3], "RESULT"); !s) return reportLabError(s.error());
  result.write(encodeFileGrade(g));
  return result.ok() ? kExitOk : reportLabError(failure("cannot write the grade to '" + o.operands[3] + "'"));
}

}  // namespace tilescope::cli
