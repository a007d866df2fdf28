#include "grade_output.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>

#include "core/json_writer.h"

namespace tilescope::cli {

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (no overlong forms, no surrogates,
// nothing past U+10FFFF) and its code point, or 0 when the bytes there are not one.
std::size_t utf8Sequence(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return cp = c, 1;
  const std::size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? (c <= 0xef ? 3 : 0) : c >= 0xc2 && c <= 0xdf ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  cp = c & (n == 2 ? 0x1f : n == 3 ? 0x0f : 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3f);
  }
  const char32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

// Code points a terminal acts on instead of showing: C0 and C1 controls, DEL, and the
// bidirectional overrides and isolates, which reorder what follows them on the line.
bool actsOnTerminal(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}
// Code points that show nothing, so that two names differing only by them look the same: the
// zero-width space, joiners and direction marks, the line and paragraph separators, the word
// joiner and invisible operators, the Arabic letter mark, the byte-order mark.
bool invisible(char32_t cp) {
  return (cp >= 0x200b && cp <= 0x200f) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x2060 && cp <= 0x2064) ||
         cp == 0x061c || cp == 0xfeff || cp == 0x00ad || cp == 0x180e;
}

std::string hexByte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", c);
  return buf;
}

// A code point as the text \u{NNNN}.
std::string codePoint(char32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u{%04X}", unsigned(cp));
  return buf;
}

std::string number(double v, const char* format) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

const lab::GradeItem* findItem(const FileGrade& g, const std::string& check) {
  auto it = std::find_if(g.grade.items.begin(), g.grade.items.end(), [&](const lab::GradeItem& i) { return i.check == check; });
  return it == g.grade.items.end() ? nullptr : &*it;
}

// One test of a course platform: a check of a file, or the file itself when it was not graded.
struct PlatformTest {
  std::string name, output;
  bool passed = false;
  std::string file;
};
std::vector<PlatformTest> platformTests(const std::vector<FileGrade>& grades) {
  std::vector<PlatformTest> tests;
  const bool oneFile = grades.size() == 1;
  for (const FileGrade& g : grades) {
    const std::string file = jsonName(g.file);  // two files are never one name (nor one test)
    const std::string ascii = asciiName(g.file);  // nor two look-alike names one that reads the same
    const std::string prefix = oneFile ? "" : (ascii == g.file ? file : file + " (" + ascii + ")") + ": ";
    if (!g.graded) {
      tests.push_back({prefix + "graded", "not graded: " + g.error, false, file});
      continue;
    }
    for (const lab::GradeItem& i : g.grade.items) tests.push_back({prefix + i.check, i.detail, i.passed, file});
  }
  return tests;
}
// Points possible: the exercise's checks for every file (a file that did not compile, or was not
// graded, earns none of them).
double maxScore(const std::vector<FileGrade>& grades, const std::vector<std::string>& checks) {
  return double(grades.size() * std::max<std::size_t>(checks.size(), 1));
}

}  // namespace

std::string forTerminal(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8Sequence(s, i, cp);
    if (n == 0) {
      out += hexByte(static_cast<unsigned char>(s[i++]));
      continue;
    }
    if (!actsOnTerminal(cp) && !invisible(cp)) out.append(s.substr(i, n));
    else if (n == 1) out += hexByte(static_cast<unsigned char>(s[i]));
    else out += codePoint(cp);
    i += n;
  }
  return out;
}

std::string validUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8Sequence(s, i, cp);
    if (n == 0) {
      out += "\xef\xbf\xbd";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

lab::LabBackend gradingBackend(BackendChoice choice) {
  return choice == BackendChoice::Cuda ? lab::LabBackend::Cuda : lab::LabBackend::Emulator;
}

uint64_t gradingSeed(bool given, uint64_t seed) {
  if (given) return seed;
  std::random_device fresh;
  return 1 + (uint64_t(fresh()) % 2147483646u);
}

Error escapedError(Error e) {
  e.message = forTerminal(e.message);
  return e;
}

namespace {
// A student's bytes, each readable and none ambiguous: well-formed UTF-8 as it is, but for the
// control bytes when `controls` (JSON escapes its own); every other byte \xNN; a backslash
// doubled (so that a name holding the text "\xff" and one holding the byte 0xff stay two names).
std::string distinctText(std::string_view s, bool controls) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8Sequence(s, i, cp);
    const auto byte = static_cast<unsigned char>(s[i]);
    if (n == 0 || (n == 1 && controls && (byte < 0x20 || byte == 0x7f))) out += hexByte(byte);
    else if (n == 1 && byte == '\\') out += "\\\\";
    else out.append(s.substr(i, n));
    i += n == 0 ? 1 : n;
  }
  return out;
}
}  // namespace

std::string jsonName(std::string_view name) { return distinctText(name, false); }

std::string asciiName(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8Sequence(s, i, cp);
    const auto byte = static_cast<unsigned char>(s[i]);
    if (n == 0 || (n == 1 && (byte < 0x20 || byte == 0x7f))) out += hexByte(byte);
    else if (n == 1 && byte == '\\') out += "\\\\";
    else if (n == 1) out += char(byte);
    else out += codePoint(cp);
    i += n == 0 ? 1 : n;
  }
  return out;
}

std::string shownName(std::string_view name) {
  const std::string ascii = asciiName(name);
  if (ascii == name) return ascii;
  return forTerminal(name) + " (not plain ASCII: " + ascii + ")";
}

namespace {
// A field already one line of unambiguous text: guarded against formulas, quoted if it must be.
std::string csvGuarded(std::string s) {
  // A spreadsheet reads " =1+1" as a formula too: the guard looks past leading spaces.
  const std::size_t first = s.find_first_not_of(' ');
  if (first != std::string::npos && std::string_view("=+-@'").find(s[first]) != std::string_view::npos) s.insert(0, "'");
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

std::string csvField(std::string_view text) { return csvGuarded(distinctText(text, true)); }

namespace {
void putField(std::string& out, std::string_view key, std::string_view value) {
  out.append(key).append(" ").append(std::to_string(value.size())).append("\n").append(value).append("\n");
}

// The fields of an encoded grade in order, each read within the text's bounds.
class FieldReader {
 public:
  explicit FieldReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& key, std::string_view& value) {
    if (at_ >= text_.size()) return false;
    const std::size_t space = text_.find(' ', at_), eol = text_.find('\n', at_);
    if (space == std::string_view::npos || eol == std::string_view::npos || space > eol) return fail();
    key = text_.substr(at_, space - at_);
    std::size_t length = 0;
    for (std::size_t i = space + 1; i < eol; ++i) {
      if (text_[i] < '0' || text_[i] > '9' || length > text_.size()) return fail();
      length = length * 10 + std::size_t(text_[i] - '0');
    }
    if (eol + 1 + length + 1 > text_.size() || text_[eol + 1 + length] != '\n') return fail();
    value = text_.substr(eol + 1, length);
    at_ = eol + 1 + length + 1;
    return true;
  }
  bool failed() const { return failed_; }

 private:
  bool fail() {
    failed_ = true;
    return false;
  }
  std::string_view text_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

double numberField(std::string_view v) { return std::strtod(std::string(v).c_str(), nullptr); }
}  // namespace

std::string encodeFileGrade(const FileGrade& g) {
  std::string out = "tilescope-grade 1\n";
  putField(out, "file", g.file);
  putField(out, "graded", g.graded ? "1" : "0");
  putField(out, "error", g.error);
  putField(out, "seconds", number(g.seconds, "%.17g"));
  putField(out, "passed", g.grade.passed ? "1" : "0");
  putField(out, "seed", std::to_string(g.grade.seed));
  for (const lab::GradeItem& i : g.grade.items) {
    putField(out, "check", i.check);
    putField(out, "check.passed", i.passed ? "1" : "0");
    putField(out, "check.detail", i.detail);
    if (i.value) putField(out, "check.value", number(*i.value, "%.17g"));
  }
  if (const auto& m = g.grade.measured) {
    putField(out, "measured.verdict", lab::verdictName(m->verdict));
    putField(out, "measured.summary", m->summary);
    putField(out, "measured.sandbox", m->sandbox);
    putField(out, "measured.backend", m->launch.backend);
    if (m->gpu) putField(out, "measured.device", m->gpu->device);
  }
  return out;
}

Result<FileGrade> decodeFileGrade(std::string_view text) {
  const std::string_view head = "tilescope-grade 1\n";
  if (text.substr(0, head.size()) != head) return failure("the grader's child answered something else than a grade");
  FieldReader fields(text.substr(head.size()));
  FileGrade g;
  std::string_view key, value;
  lab::GradeItem* item = nullptr;
  while (fields.next(key, value)) {
    const std::string v(value);
    if (key == "file") g.file = v;
    else if (key == "graded") g.graded = v == "1";
    else if (key == "error") g.error = v;
    else if (key == "seconds") g.seconds = numberField(v);
    else if (key == "passed") g.grade.passed = v == "1";
    else if (key == "seed") g.grade.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (key == "check") item = &g.grade.items.emplace_back(lab::GradeItem{v, false, "", std::nullopt});
    else if (key.starts_with("check.") && !item) return failure("the grader's child answered a check's field before its name");
    else if (key == "check.passed") item->passed = v == "1";
    else if (key == "check.detail") item->detail = v;
    else if (key == "check.value") item->value = numberField(v);
    else if (key.starts_with("measured.")) {
      lab::LabOutcome& m = g.grade.measured ? *g.grade.measured : g.grade.measured.emplace();
      if (key == "measured.verdict") {
        const auto verdict = lab::verdictByName(v);
        if (!verdict) return failure("the grader's child answered an unknown verdict");
        m.verdict = *verdict;
      } else if (key == "measured.summary") m.summary = v;
      else if (key == "measured.sandbox") m.sandbox = v;
      else if (key == "measured.backend") m.launch.backend = v;
      else if (key == "measured.device") m.gpu.emplace().device = v;
    } else {
      return failure("the grader's child answered an unknown field");
    }
  }
  if (fields.failed()) return failure("the grader's child answered a grade cut short or malformed");
  return g;
}

std::string overallVerdict(const FileGrade& g) {
  if (!g.graded) return "error";
  if (!g.grade.measured) return "not run";
  const std::string first(lab::verdictName(g.grade.measured->verdict));
  if (first != "verified") return first;
  for (const lab::GradeItem& i : g.grade.items) {
    if (i.passed || i.check.rfind("correct at ", 0) != 0) continue;
    // A failed size's detail is its run's summary, which starts with its verdict's name.
    const std::string name = i.detail.substr(0, i.detail.find(':'));
    if (lab::verdictByName(name)) return name;
    return "wrong result";
  }
  for (const lab::GradeItem& i : g.grade.items)
    if (!i.passed && i.check == "no hazards") return i.detail.starts_with(lab::kRaceCheckStopped) ? "race check incomplete" : "hazard";
  return first;
}

int passedChecks(const FileGrade& g) {
  return int(std::count_if(g.grade.items.begin(), g.grade.items.end(), [](const lab::GradeItem& i) { return i.passed; }));
}

std::vector<std::string> exerciseCheckNames(const lab::Exercise& x, bool gpu) {
  using Kind = lab::ExerciseCheck::Kind;
  const auto has = [&](Kind k) { return std::any_of(x.checks.begin(), x.checks.end(), [&](auto& c) { return c.kind == k; }); };
  std::vector<std::string> names;
  if (has(Kind::Correct))
    for (const Dims& d : x.sizes)
      names.push_back("correct at " + std::to_string(d.j) + "x" + std::to_string(d.k) + "x" + std::to_string(d.l));
  if (has(Kind::NoHazards)) names.push_back("no hazards");
  for (const lab::ExerciseCheck& c : x.checks)
    if (c.kind == Kind::Max || c.kind == Kind::Min)
      names.push_back(lab::checkName(c));
  if (gpu)
    for (const Dims& d : x.sizes) names.push_back(lab::gpuCheckName(d));
  return names;
}

std::string reportText(const FileGrade& g) {
  std::string s = "== " + shownName(g.file) + ": " +
                  (g.graded ? (g.grade.passed ? "passed" : "not passed") : "not graded") + " (" + overallVerdict(g) + ")\n";
  if (!g.graded) s += "   " + forTerminal(g.error) + "\n";
  for (const lab::GradeItem& i : g.grade.items)
    s += std::string(i.passed ? "   pass  " : "   FAIL  ") + forTerminal(i.check) + ": " + forTerminal(i.detail) + "\n";
  if (g.grade.measured && !g.grade.measured->sandbox.empty()) s += "   " + forTerminal(g.grade.measured->sandbox) + "\n";
  return s;
}

std::string csvHeader(const std::vector<std::string>& checks) {
  std::string s = "file,file_ascii,passed,verdict,checks_passed,checks_total";
  for (const std::string& c : checks) s += "," + csvField(c);
  return s + ",seed,seconds,error\n";
}

std::string csvRow(const FileGrade& g, const std::vector<std::string>& checks) {
  std::string s = csvField(g.file) + "," + csvGuarded(asciiName(g.file)) + "," + (g.graded && g.grade.passed ? "true" : "false") + "," +
                  csvField(overallVerdict(g)) + "," + std::to_string(passedChecks(g)) + "," +
                  std::to_string(g.grade.items.size());
  for (const std::string& c : checks) {
    const lab::GradeItem* item = findItem(g, c);
    s += ",";
    if (item) s += item->value ? number(*item->value, "%.6g") : item->passed ? "pass" : "fail";
  }
  return s + "," + std::to_string(g.grade.seed) + "," + number(g.seconds, "%.2f") + "," + csvField(g.error) + "\n";
}

std::string jsonHead(const std::string& exercise) {
  std::ostringstream out;
  { JsonWriter(out).value(validUtf8(exercise)); }
  return "{\"exercise\":" + out.str() + ",\"files\":[\n";
}

std::string jsonFile(const FileGrade& g) {
  std::ostringstream out;
  {
    JsonWriter json(out);
    const lab::LabOutcome* m = g.grade.measured ? &*g.grade.measured : nullptr;
    json.beginObject().field("file", jsonName(g.file)).field("file_ascii", asciiName(g.file)).field("graded", g.graded);
    json.field("passed", g.graded && g.grade.passed).field("verdict", overallVerdict(g));
    json.field("checks_passed", passedChecks(g)).field("checks_total", int(g.grade.items.size()));
    json.field("seconds", g.seconds).field("error", validUtf8(g.error));
    json.field("seed", g.grade.seed);  // reproduce with lab grade --seed N
    json.field("summary", validUtf8(m ? m->summary : g.error)).field("sandbox", m ? m->sandbox : "");
    // Where it ran: the backend the lab chose, and the device the GPU runner's reply named
    // (empty on the emulator, and for a file that never reached a runner).
    json.field("backend", m ? m->launch.backend : "").field("device", m && m->gpu ? validUtf8(m->gpu->device) : "");
    json.key("checks").beginArray();
    for (const lab::GradeItem& i : g.grade.items) {
      json.beginObject().field("check", validUtf8(i.check)).field("passed", i.passed);
      json.field("detail", validUtf8(i.detail)).key("value");
      if (i.value) json.value(*i.value);
      else json.null();
      json.endObject();
    }
    json.endArray().endObject();
  }
  return out.str();
}

std::string jsonTail() { return "\n]}\n"; }

std::string gradescopeResults(const std::vector<FileGrade>& grades, const std::vector<std::string>& checks) {
  const std::vector<PlatformTest> tests = platformTests(grades);
  double seconds = 0.0, score = 0.0;
  for (const FileGrade& g : grades) seconds += g.seconds;
  for (const PlatformTest& t : tests) score += t.passed ? 1.0 : 0.0;
  std::ostringstream out;
  {
    JsonWriter json(out);
    json.beginObject().field("score", score).field("max_score", maxScore(grades, checks));
    json.field("execution_time", seconds);
    const auto passed = std::count_if(grades.begin(), grades.end(), [](const FileGrade& g) { return g.graded && g.grade.passed; });
    const std::string seed = grades.empty() ? "" : " (inputs drawn with seed " + std::to_string(grades.front().grade.seed) +
                                                       ": the same grade again with --seed " + std::to_string(grades.front().grade.seed) + ")";
    json.field("output", std::to_string(passed) + " of " + std::to_string(grades.size()) + " files passed" + seed);
    json.key("tests").beginArray();
    for (const PlatformTest& t : tests) {
      json.beginObject().field("name", validUtf8(t.name)).field("score", t.passed ? 1.0 : 0.0).field("max_score", 1.0);
      json.field("status", t.passed ? "passed" : "failed").field("output", validUtf8(t.output)).endObject();
    }
    json.endArray().endObject();
  }
  return out.str() + "\n";
}

std::string classroomResults(const std::vector<FileGrade>& grades, const std::vector<std::string>& checks) {
  const std::vector<PlatformTest> tests = platformTests(grades);
  const bool anyError = std::any_of(grades.begin(), grades.end(), [](const FileGrade& g) { return !g.graded; });
  const bool allPassed = std::all_of(tests.begin(), tests.end(), [](const PlatformTest& t) { return t.passed; });
  std::ostringstream out;
  {
    JsonWriter json(out);
    json.beginObject().field("version", 1).field("status", anyError ? "error" : allPassed ? "pass" : "fail");
    json.field("max_score", maxScore(grades, checks)).key("tests").beginArray();
    for (const PlatformTest& t : tests) {
      json.beginObject().field("name", validUtf8(t.name)).field("status", t.passed ? "pass" : "fail");
      json.field("score", t.passed ? 1 : 0).field("message", validUtf8(t.output)).field("test_code", validUtf8(t.name));
      json.field("filename", validUtf8(t.file)).field("line_no", 0).field("execution_time", "").endObject();
    }
    json.endArray().endObject();
  }
  return out.str() + "\n";
}

std::string gradescopeFailure(const std::string& reason) {
  std::ostringstream out;
  {
    JsonWriter json(out);
    json.beginObject().field("score", 0.0).field("execution_time", 0.0).field("output", validUtf8(reason));
    json.key("tests").beginArray();
    json.beginObject().field("name", "graded").field("score", 0.0).field("max_score", 0.0);
    json.field("status", "failed").field("output", validUtf8(reason)).endObject();
    json.endArray().endObject();
  }
  return out.str() + "\n";
}

std::string classroomFailure(const std::string& reason) {
  std::ostringstream out;
  {
    JsonWriter json(out);
    json.beginObject().field("version", 1).field("status", "error").field("max_score", 0).key("tests").beginArray();
    json.beginObject().field("name", "graded").field("status", "error").field("score", 0);
    json.field("message", validUtf8(reason)).field("test_code", "").field("filename", "").field("line_no", 0);
    json.field("execution_time", "").endObject();
    json.endArray().endObject();
  }
  return out.str() + "\n";
}

}  // namespace tilescope::cli
