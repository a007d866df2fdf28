// What `lab grade` writes about a class (lab_grade_command.cpp): the report on the terminal, the
// CSV, the JSON, Gradescope's results.json and GitHub Classroom's runner result. Every byte that
// comes from a student (a file name, a compiler's message with the student's source line in it,
// what the runner said) is escaped for where it goes, so a name or a message can only ever be
// read as what it is: never a line of its own, a terminal control sequence, a spreadsheet
// formula or JSON that no reader accepts.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/run/backend.h"
#include "lab/exercise.h"

namespace tilescope::cli {

// --- escaping -------------------------------------------------------------------------------
// For the terminal: printable ASCII and well-formed UTF-8 as they are; control bytes (newline,
// ESC, DEL, the C1 controls), bytes that are not UTF-8, the bidirectional overrides and the
// code points that show nothing (zero-width spaces and joiners, direction marks) as \xNN or
// \u{NNNN}. The result is one line.
std::string forTerminal(std::string_view text);
// For JSON text: well-formed UTF-8 as it is, every other byte replaced by U+FFFD (JsonWriter
// escapes the control bytes).
std::string validUtf8(std::string_view text);
// A student's file name for JSON (the grades, Gradescope's and Classroom's test names): valid
// UTF-8 in which two different names never read the same: every byte that is not UTF-8 as the
// text \xNN, a backslash as \\ (JsonWriter escapes the control bytes, a newline as \n).
std::string jsonName(std::string_view name);
// A student's file name in plain ASCII, so that look-alike names (a Cyrillic 'а' for 'a', a
// zero-width space, a direction mark) never read the same: every code point outside printable
// ASCII as \u{NNNN}, bytes that are not UTF-8 and control bytes as \xNN, a backslash as \\.
// The CSV's file_ascii, the JSON's "file_ascii".
std::string asciiName(std::string_view name);
// The name as the terminal report shows it: plain ASCII as it is; any other name as it reads
// (through forTerminal) followed by "(not plain ASCII: ASCIINAME)".
std::string shownName(std::string_view name);
// One CSV field, one line, and two different texts never the same field: control bytes
// (newlines included) and bytes that are not UTF-8 as \xNN, a backslash as \\, a leading
// = + - @ (which a spreadsheet reads as a formula) or ', after any leading spaces, behind a ',
// quoted (RFC 4180) when it holds a comma or a quote.
std::string csvField(std::string_view text);
// A lab error as the terminal gets it: its message (which may quote a student's file name or
// line) through forTerminal. reportLabError (commands.h) reports one as reportError does:
// every error of `lab run`, `lab check`, `lab grade` and `lab time` goes through it.
Error escapedError(Error e);

// Where `lab check` and `lab grade` run the kernels: the GPU runner with --backend cuda, else
// the emulator (auto too: a grade does not depend on the machine it was given on).
lab::LabBackend gradingBackend(BackendChoice choice);
// The inputs' seed of `lab check` and `lab grade`: the one given (--seed N, to reproduce a
// grade), else a fresh one per run (1 .. 2^31 - 1), so no student can know P in advance.
uint64_t gradingSeed(bool given, uint64_t seed);

// --- one file's grade -----------------------------------------------------------------------
struct FileGrade {
  std::string file;
  bool graded = false;  // false: the lab refused it or could not grade it (error says why)
  std::string error;
  lab::Grade grade;
  double seconds = 0.0;
};
// One file's grade as the grader's child process hands it to the grader (lab grade runs each
// file in a process of its own): every field the reports read, each as "KEY LENGTH\n" and its
// bytes, so nothing a student wrote can pass for another field. decodeFileGrade refuses
// anything else, naming what it found.
std::string encodeFileGrade(const FileGrade& g);
Result<FileGrade> decodeFileGrade(std::string_view text);

// The file's verdict over every size it was graded at: "error" when not graded, the first
// size's verdict unless a later size failed ("verified" at 8x8 but "out-of-bounds" at 5x7x3
// is "out-of-bounds"), "hazard" when only the race check failed.
std::string overallVerdict(const FileGrade& g);
int passedChecks(const FileGrade& g);

// The checks of an exercise, named as gradeExercise names them, in its order: the CSV's
// columns (known before any file is graded, so rows are written as files finish).
// `gpu`: graded with --backend cuda, whose checks end with "the same on the GPU at SIZE" per size.
std::vector<std::string> exerciseCheckNames(const lab::Exercise& x, bool gpu = false);

// The report of one file on the terminal: "== FILE: passed (verdict)", then each check.
std::string reportText(const FileGrade& g);

// CSV: the header, then one row per file (a line each, ending in \n).
std::string csvHeader(const std::vector<std::string>& checks);
std::string csvRow(const FileGrade& g, const std::vector<std::string>& checks);

// The JSON: {"exercise": ..., "files": [ELEMENT, ...]}; jsonFile is one ELEMENT (with "backend",
// "emulator" or "cuda", and "device", the GPU its runner reported).
std::string jsonHead(const std::string& exercise);
std::string jsonFile(const FileGrade& g);
std::string jsonTail();

// Gradescope's results.json (its "Autograder Specifications"): score, max_score, execution_time,
// output, and a test per check of each file (name "FILE: CHECK", or "CHECK" when the class is
// one file, as on Gradescope where each submission is graded alone), each worth 1 point,
// status "passed" or "failed", output what was measured or went wrong. A file the lab could not
// grade is one failed test with its reason. max_score counts the exercise's checks per file.
std::string gradescopeResults(const std::vector<FileGrade>& grades, const std::vector<std::string>& checks);

// GitHub Classroom's runner result (what an autograding runner action reports, base64-encoded,
// as its `result` output): {"version": 1, "status": "pass"|"fail"|"error", "max_score": N,
// "tests": [{"name", "status", "score", "message", "test_code", "filename", "line_no",
// "execution_time"}]}, the same tests as Gradescope's.
// The two platform files for a class the grader could not grade at all (no such folder, no
// .cu in it): every point lost, `reason` as the output, so a student on the platform reads why.
std::string gradescopeFailure(const std::string& reason);
std::string classroomFailure(const std::string& reason);

std::string classroomResults(const std::vector<FileGrade>& grades, const std::vector<std::string>& checks);

}  // namespace tilescope::cli
