#include "ui/script/lab_script.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tilescope::ui {
namespace {

bool isInt(const std::string& s, int& out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool isNumber(const std::string& s, double& out) {
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size();
}

std::string rest(const std::vector<std::string>& w, std::size_t from) {
  std::string out;
  for (std::size_t k = from; k < w.size(); ++k) out += (k > from ? " " : "") + w[k];
  return out;
}

constexpr const char* kUsage =
    "usage: lab open FILE|EXAMPLE | lab exercise ID | lab save [FILE] | lab text FILE | lab append TEXT | "
    "lab define NAME VALUE | lab size W | lab dims J K L | lab block BX BY | lab grid GX GY | lab arg NAME VALUE | "
    "lab shared-bytes N | lab timeout S | lab backend emulator|cuda | lab run | lab start | lab cancel | "
    "lab check [EXERCISE] | lab expect VERDICT | lab expect grade passed|failed | lab expect error TEXT";

// A path as given, else a shipped example by name ("pmpp_fig5_9").
std::string resolveFile(const std::string& name) {
  if (std::filesystem::exists(name)) return name;
  for (const std::string& example : labExampleFiles())
    if (std::filesystem::path(example).stem() == name || std::filesystem::path(example).filename() == name) return example;
  return {};
}

const lab::LabOutcome* outcomeOf(const LabResult* r) {
  if (!r) return nullptr;
  if (r->outcome) return &*r->outcome;
  if (r->grade && r->grade->measured) return &*r->grade->measured;
  return nullptr;
}

}  // namespace

std::string checkLabCommand(const std::vector<std::string>& w) {
  const std::size_t n = w.size();
  if (n < 2) return kUsage;
  const std::string& c = w[1];
  int i = 0;
  double d = 0;
  if ((c == "open" || c == "exercise" || c == "text") && n == 3) return "";
  if (c == "save" && (n == 2 || n == 3)) return "";
  if (c == "append" && n >= 3) return "";
  if (c == "define" && n == 4) return "";
  if (c == "arg" && n == 4) return isNumber(w[3], d) ? "" : "lab arg NAME VALUE takes a number";
  if (c == "size" && n == 3) return isInt(w[2], i) && i > 0 ? "" : "lab size takes a positive integer";
  if (c == "dims" && n == 5) return isInt(w[2], i) && isInt(w[3], i) && isInt(w[4], i) ? "" : "usage: lab dims J K L";
  if ((c == "block" || c == "grid") && n == 4)
    return isInt(w[2], i) && i >= 0 && isInt(w[3], i) && i >= 0 ? "" : "usage: lab " + c + " X Y (0 0: the default)";
  if (c == "shared-bytes" && n == 3) return isInt(w[2], i) && i >= 0 ? "" : "lab shared-bytes takes bytes";
  if (c == "timeout" && n == 3) return isNumber(w[2], d) && d > 0 ? "" : "lab timeout takes seconds";
  if (c == "backend" && n == 3) return w[2] == "emulator" || w[2] == "cuda" ? "" : "lab backend emulator|cuda";
  if ((c == "run" || c == "start" || c == "cancel") && n == 2) return "";
  if (c == "check" && (n == 2 || n == 3)) return "";
  if (c == "expect" && n >= 3) {
    if (w[2] == "grade") return n == 4 && (w[3] == "passed" || w[3] == "failed") ? "" : "usage: lab expect grade passed|failed";
    if (w[2] == "error") return "";
    return lab::verdictByName(rest(w, 2)) ? "" : "unknown verdict '" + rest(w, 2) + "'";
  }
  return kUsage;
}

bool labCommandWaits(const std::vector<std::string>& w) { return w[1] == "run" || w[1] == "check" || w[1] == "expect"; }

std::optional<Intent> labCommandStart(const std::vector<std::string>& w) {
  if (w[1] == "run") return LabIntent{LabRun{}};
  if (w[1] == "check") return LabIntent{LabCheck{w.size() > 2 ? w[2] : ""}};
  return std::nullopt;
}

Status labCommandDone(AppState& state, const std::vector<std::string>& w) {
  const std::string& c = w[1];
  LabState& s = state.lab;
  auto& q = state.intents;
  LabLaunchFields f = s.launch;
  int a = 0, b = 0, e = 0;
  double d = 0;
  if (c == "open" || c == "text") {
    const std::string file = resolveFile(w[2]);
    if (file.empty()) return invalidInput("no file or lab example '" + w[2] + "'");
    if (c == "open") {
      q.push_back(LabIntent{LabOpenFile{file}});
    } else {
      std::ifstream in(file);
      std::ostringstream text;
      text << in.rdbuf();
      q.push_back(LabIntent{LabSetText{text.str()}});
    }
  } else if (c == "exercise") {
    q.push_back(LabIntent{LabOpenExercise{w[2]}});
  } else if (c == "save") {
    q.push_back(LabIntent{LabSaveFile{w.size() > 2 ? w[2] : ""}});
  } else if (c == "append") {
    q.push_back(LabIntent{LabAppendLine{rest(w, 2)}});
  } else if (c == "define" || c == "arg") {
    if (c == "define") {
      std::erase_if(f.defines, [&](const lab::LabDefine& x) { return x.name == w[2]; });
      f.defines.push_back({w[2], w[3]});
    } else {
      std::erase_if(f.args, [&](const lab::LabArg& x) { return x.name == w[2]; });
      isNumber(w[3], d);
      f.args.push_back({w[2], d});
    }
  } else if (c == "size") {
    isInt(w[2], a);
    f.useDims = false, f.width = a;
  } else if (c == "dims") {
    isInt(w[2], a), isInt(w[3], b), isInt(w[4], e);
    f.useDims = true, f.dims = {a, b, e};
  } else if (c == "block" || c == "grid") {
    isInt(w[2], a), isInt(w[3], b);
    (c == "block" ? f.blockX : f.gridX) = a;
    (c == "block" ? f.blockY : f.gridY) = b;
  } else if (c == "shared-bytes") {
    isInt(w[2], f.sharedBytes);
  } else if (c == "timeout") {
    isNumber(w[2], f.timeoutSeconds);
  } else if (c == "backend") {
    f.backend = w[2] == "cuda" ? lab::LabBackend::Cuda : lab::LabBackend::Emulator;
  } else if (c == "start") {
    q.push_back(LabIntent{LabRun{}});
  } else if (c == "cancel") {
    q.push_back(LabIntent{LabCancel{}});
  } else if (c == "run" || c == "check") {
    const LabResult* r = s.result.get();
    if (!r) return failure("the lab job left no result");
    const lab::LabOutcome* o = outcomeOf(r);
    std::printf("tilescope: lab: %s%s\n", r->grade ? (r->grade->passed ? "passed; " : "not passed; ") : "",
                !r->error.empty() ? ("refused: " + r->error).c_str() : o ? o->summary.c_str() : "");
  } else if (c == "expect") {
    const LabResult* r = s.result.get();
    const lab::LabOutcome* o = outcomeOf(r);
    if (w[2] == "error") {
      const std::string want = rest(w, 3);
      if (!r || r->error.find(want) == std::string::npos)
        return failure("expected a lab error containing '" + want + "', the Lab tab shows: '" + (r ? r->error : "") + "'");
    } else if (w[2] == "grade") {
      if (!r || !r->grade || r->grade->passed != (w[3] == "passed"))
        return failure("expected the grade " + w[3] + ", the Lab tab shows " +
                       (r && r->grade ? (r->grade->passed ? "passed" : "failed") : "no grade"));
    } else if (!o || lab::verdictName(o->verdict) != rest(w, 2)) {
      return failure("expected the verdict '" + rest(w, 2) + "', the Lab tab shows '" +
                     (o ? o->summary : r ? r->error : std::string("nothing")) + "'");
    }
  }
  if (!(f == s.launch)) q.push_back(LabIntent{LabSetLaunch{f}});
  return Ok{};
}

void writeLabJson(JsonWriter& j, const LabState& s, const LabLayout& L) {
  j.beginObject().field("path", s.path).field("modified", s.modified).field("restored", s.restored);
  j.field("editorLines", int(std::count(s.text.begin(), s.text.end(), '\n')) + (s.text.empty() || s.text.back() == '\n' ? 0 : 1));
  j.field("text", s.text).field("message", s.message).field("exercise", s.exercise);
  j.field("running", s.pendingGeneration != 0).field("cudaRefused", s.cudaRefused);
  const LabResult* r = s.result.get();
  const lab::LabOutcome* o = outcomeOf(r);
  j.field("error", r ? r->error : "").field("shown", r && r->shown);
  j.field("verdict", o ? std::string(lab::verdictName(o->verdict)) : "").field("summary", o ? o->summary : "");
  j.key("diagnostics").beginArray();
  if (o)
    for (const lab::LabDiagnostic& d : o->diagnostics)
      j.beginObject().field("file", d.file).field("line", d.line).field("column", d.column).field("message", d.message).endObject();
  j.endArray();
  j.field("whereLine", o && o->where ? o->where->line : 0);
  if (r && r->grade) {
    j.key("grade").beginObject().field("exercise", r->exerciseId).field("passed", r->grade->passed);
    j.key("items").beginArray();
    for (const lab::GradeItem& item : r->grade->items)
      j.beginObject().field("check", item.check).field("passed", item.passed).field("detail", item.detail).endObject();
    j.endArray().endObject();
  }
  j.key("progress").beginObject();
  for (const auto& [id, passed] : s.progress) j.field(id, passed);
  j.endObject();
  j.key("editor").beginObject().field("drawn", L.drawn).field("gutterX", double(L.gutterX));
  j.field("gutterWidth", double(L.gutterWidth)).field("textX", double(L.textX)).field("firstLineY", double(L.firstLineY));
  j.field("lineHeight", double(L.lineHeight)).field("y", double(L.editorY)).field("height", double(L.editorHeight));
  j.key("errorLines").beginArray();
  for (int line : L.errorLines) j.value(line);
  j.endArray().endObject();
  j.endObject();
}

}  // namespace tilescope::ui
